"""aclnnHardtanhBackward on the emulated device, the way an application on an Ascend device runs
it: a private acl runtime, device buffers, the two phases, a synchronize, the result copied
back. What `opsnn.hardtanh_backward(..., backend="emulator")` runs (ascend semantics only).

Each call brings up its own runtime (own device memory), so calls on different threads share no
device state; the caller's acl context, if any, is restored afterwards, and everything the call
allocates is released before it returns, on failure too."""
from __future__ import annotations

import numbers

import numpy as np

from opsnn import acl, aclnn
from opsnn.aclnn import status as st

SOC_OF = {"ascend910b": "Ascend910B2", "ascend950": "Ascend950"}


class _AclFailure(RuntimeError):
    pass


def _ok(ret: int, what: str) -> None:
    if ret != acl.ACL_SUCCESS:
        raise _AclFailure(f"{what} failed with acl status {ret}: {acl.get_recent_err_msg()}")


def _raise_for(ret: int) -> None:
    """An aclnn status as the numpy API's exception: dtype -> TypeError, shape -> ValueError."""
    if ret == aclnn.ACLNN_SUCCESS:
        return
    error = aclnn.get_recent_error()
    message = f"{st.STATUS_NAMES.get(ret, ret)} ({ret}): {error.message if error else ''}"
    kind = error.kind if error else None
    if kind == st.KIND_DTYPE:
        raise TypeError(message)
    if kind == st.KIND_SHAPE:
        raise ValueError(message)
    raise RuntimeError(message)


class _Device:
    """Device 0 of a fresh runtime with one stream; frees what it made on exit."""

    def __init__(self, soc: str):
        self.soc = soc
        self.rt = acl.Runtime()
        self.stream = None
        self._ptrs: list[int] = []
        self._handles: list = []
        self._host: list[np.ndarray] = []

    def __enter__(self):
        self._previous, _ = acl.rt.get_context()
        try:
            _ok(self.rt.init(self.soc), "acl.init")
            _ok(self.rt.set_device(0), "acl.rt.set_device")
            self.stream, ret = self.rt.create_stream()
            _ok(ret, "acl.rt.create_stream")
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc):
        for h in self._handles:
            (acl.destroy_tensor if isinstance(h, acl.AclTensor) else acl.destroy_scalar)(h)
        for p in self._ptrs:
            self.rt.free(p)
        if self.stream is not None:
            self.rt.destroy_stream(self.stream)
        if self.rt.get_soc_name() is not None:
            self.rt.reset_device(0)
            self.rt.finalize()
        acl.rt.set_context(self._previous)
        return False

    def malloc(self, nbytes: int) -> int:
        ptr, ret = self.rt.malloc(nbytes, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        if ret == acl.ACL_ERROR_RT_MEMORY_ALLOCATION:
            raise MemoryError(f"acl.rt.malloc({nbytes}) failed with acl status {ret}: {acl.get_recent_err_msg()}")
        _ok(ret, f"acl.rt.malloc({nbytes})")
        self._ptrs.append(ptr)
        return ptr

    def tensor(self, shape: tuple[int, ...], dtype: np.dtype, host: np.ndarray | None = None):
        """(a dense aclTensor, its device address), filled from `host` when given."""
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        ptr = self.malloc(nbytes) if nbytes else 0
        if host is not None and nbytes:
            host = np.ascontiguousarray(host)
            self._host.append(host)
            _ok(self.rt.memcpy(ptr, nbytes, acl.util.numpy_to_ptr(host), nbytes, acl.ACL_MEMCPY_HOST_TO_DEVICE),
                "acl.rt.memcpy H2D")
        t = acl.create_tensor(shape, acl.acl_data_type_of(dtype), None, 0, acl.ACL_FORMAT_ND, shape, ptr)
        if t is None:
            raise ValueError(f"cannot describe a {dtype}{list(shape)} tensor: {acl.get_recent_err_msg()}")
        self._handles.append(t)
        return t, ptr

    def scalar(self, value, what: str):
        """An aclScalar holding `value` exactly: integers as INT64 (UINT64 above), reals as DOUBLE."""
        if isinstance(value, numbers.Integral | np.bool_):
            v = int(value)
            if not -(2**63) <= v < 2**64:
                raise ValueError(f"{what} {v} does not fit a 64-bit integer")
            s = acl.create_scalar(v, acl.ACL_INT64 if v < 2**63 else acl.ACL_UINT64)
        else:
            s = acl.create_scalar(float(value), acl.ACL_DOUBLE)
        if s is None:
            raise ValueError(f"cannot make a scalar of {value!r}")
        self._handles.append(s)
        return s

    def download(self, ptr: int, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
        out = np.empty(shape, dtype)
        if out.nbytes:
            _ok(self.rt.memcpy(acl.util.numpy_to_ptr(out), out.nbytes, ptr, out.nbytes,
                               acl.ACL_MEMCPY_DEVICE_TO_HOST), "acl.rt.memcpy D2H")
        return out


def hardtanh_backward(grad: np.ndarray, x: np.ndarray, min_val, max_val, semantics: str) -> np.ndarray:
    """aclnnHardtanhBackward(gradOutput=grad, self=x, min, max, out) on the emulated SoC of
    `semantics`; out has x's shape and dtype. TypeError / ValueError where aclnn refuses the
    arguments (dtype / shape), MemoryError where device memory runs out, RuntimeError otherwise."""
    try:
        soc = SOC_OF[semantics]
    except KeyError:
        raise ValueError(f"emulator semantics must be one of {', '.join(SOC_OF)}, got {semantics!r}") from None
    grad, x = np.asarray(grad), np.asarray(x)
    for name, arr in (("grad", grad), ("x", x)):
        try:
            acl.acl_data_type_of(arr.dtype)
        except TypeError:
            raise TypeError(f"{name} dtype {arr.dtype} is not an ACL data type") from None
    try:
        with _Device(soc) as dev:
            grad_t, _ = dev.tensor(grad.shape, grad.dtype, grad)
            x_t, _ = dev.tensor(x.shape, x.dtype, x)
            out_t, out_ptr = dev.tensor(x.shape, x.dtype)
            lo, hi = dev.scalar(min_val, "min_val"), dev.scalar(max_val, "max_val")
            size, executor, ret = aclnn.hardtanh_backward_get_workspace_size(grad_t, x_t, lo, hi, out_t)
            _raise_for(ret)
            workspace = dev.malloc(size) if size else 0
            _raise_for(aclnn.hardtanh_backward(workspace, size, executor, dev.stream))
            _ok(dev.rt.synchronize_stream(dev.stream), "acl.rt.synchronize_stream")
            return dev.download(out_ptr, x.shape, x.dtype)
    except _AclFailure as e:
        raise RuntimeError(str(e)) from None
