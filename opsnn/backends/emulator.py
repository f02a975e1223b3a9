"""The emulator backend: threshold_backward through the whole device stack, as an application
on an Ascend device would run it — acl runtime, aclnnThresholdBackward's two phases, the
emulated AscendC kernel (ascend910b) or the arch35 functional models (ascend950). The forward,
threshold, goes through aclnnThreshold the same way (the arch35 ThresholdV2 DAG kernel on
ascend950, the 910B TBE kernel's functional model on ascend910b).

Each call brings up a private runtime (own device memory), so calls on different threads never
share device state, and the caller's own acl context (if any) is restored afterwards. Everything
the call allocates is released before it returns, on failure too."""
from __future__ import annotations

import numbers

import numpy as np

from opsnn import acl, aclnn
from opsnn.aclnn import status as st
from opsnn.backends.scalars import real_scalar
from opsnn.platform import get_platform

SEMANTICS_SOC = {"ascend910b": "Ascend910B2", "ascend950": "Ascend950"}


class _AclError(RuntimeError):
    pass


def _check(ret: int, what: str) -> None:
    if ret != acl.ACL_SUCCESS:
        raise _AclError(f"{what} failed with acl status {ret}: {acl.get_recent_err_msg()}")


def _raise_for_aclnn(ret: int) -> None:
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


def _soc_for(semantics: str, soc: str | None) -> str:
    if semantics not in SEMANTICS_SOC:
        raise ValueError(f"emulator semantics must be one of {', '.join(SEMANTICS_SOC)}, got {semantics!r}")
    if soc is None:
        return SEMANTICS_SOC[semantics]
    family = get_platform(soc).family  # ValueError for an unknown SoC
    if family != semantics:
        raise ValueError(f"SoC {soc} is of family {family}, not {semantics}")
    return soc


def _threshold_value(threshold) -> float:
    try:
        return float(real_scalar(threshold))
    except OverflowError:
        raise ValueError(f"threshold {threshold} does not fit a float") from None


class _Session:
    """One private runtime with device 0 and a stream; tracks what it allocates to free it."""

    def __init__(self, soc: str):
        self.soc = soc
        self.runtime = acl.Runtime()
        self._ptrs: list[int] = []
        self._tensors: list = []
        self._scalars: list = []
        self._host: list[np.ndarray] = []  # keep host buffers alive while their pointers are used
        self.stream = None

    def __enter__(self):
        self._previous_context, _ = acl.rt.get_context()
        try:
            _check(self.runtime.init(self.soc), "acl.init")
            _check(self.runtime.set_device(0), "acl.rt.set_device")
            self.stream, ret = self.runtime.create_stream()
            _check(ret, "acl.rt.create_stream")
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc):
        rt = self.runtime
        for t in self._tensors:
            acl.destroy_tensor(t)
        for s in self._scalars:
            acl.destroy_scalar(s)
        for p in self._ptrs:
            rt.free(p)
        if self.stream is not None:
            rt.destroy_stream(self.stream)
        if rt.get_soc_name() is not None:
            rt.reset_device(0)
            rt.finalize()
        acl.rt.set_context(self._previous_context)
        return False

    def malloc(self, nbytes: int) -> int:
        ptr, ret = self.runtime.malloc(nbytes, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        if ret == acl.ACL_ERROR_RT_MEMORY_ALLOCATION:  # the numpy API's MemoryError, as the other backends raise
            raise MemoryError(f"acl.rt.malloc({nbytes}) failed with acl status {ret}: {acl.get_recent_err_msg()}")
        _check(ret, f"acl.rt.malloc({nbytes})")
        self._ptrs.append(ptr)
        return ptr

    def tensor(self, shape: tuple[int, ...], dtype: np.dtype, host: np.ndarray | None = None):
        """A dense device tensor, filled from `host` when given (nullptr data when empty)."""
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        ptr = self.malloc(nbytes) if nbytes else 0
        if host is not None and nbytes:
            host = np.ascontiguousarray(host)
            self._host.append(host)
            _check(self.runtime.memcpy(ptr, nbytes, acl.util.numpy_to_ptr(host), nbytes,
                                       acl.ACL_MEMCPY_HOST_TO_DEVICE), "acl.rt.memcpy H2D")
        t = acl.create_tensor(shape, acl.acl_data_type_of(dtype), None, 0, acl.ACL_FORMAT_ND, shape, ptr)
        if t is None:
            raise ValueError(f"cannot describe a {dtype}{list(shape)} tensor")
        self._tensors.append(t)
        return t, ptr

    def scalar(self, value: float):
        s = acl.create_scalar(value, acl.ACL_DOUBLE)  # aclnn reads it as float32, like any aclScalar
        if s is None:
            raise ValueError(f"cannot make a scalar of {value!r}")
        self._scalars.append(s)
        return s

    def download(self, ptr: int, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
        out = np.empty(shape, dtype)
        if out.nbytes:
            _check(self.runtime.memcpy(acl.util.numpy_to_ptr(out), out.nbytes, ptr, out.nbytes,
                                       acl.ACL_MEMCPY_DEVICE_TO_HOST), "acl.rt.memcpy D2H")
        return out


def threshold_backward(grad, feature, threshold, semantics: str, soc: str | None = None) -> np.ndarray:
    """out = grad where feature > threshold else 0 (per `semantics`, docs/threshold-grad-v2d.md §9), computed on the
    emulated device. numpy in, numpy out (bfloat16 as ml_dtypes.bfloat16); out has the
    broadcast shape and feature's dtype. TypeError for dtype problems, ValueError for shape and
    rank problems, MemoryError where device memory runs out, RuntimeError for anything else, each with
    the aclnn message."""
    soc = _soc_for(semantics, soc)
    grad, feature = np.asarray(grad), np.asarray(feature)
    for name, arr in (("grad", grad), ("feature", feature)):
        try:
            acl.acl_data_type_of(arr.dtype)
        except TypeError:
            raise TypeError(f"{name} dtype {arr.dtype} is not an ACL data type") from None
    t = _threshold_value(threshold)
    try:
        out_shape = np.broadcast_shapes(grad.shape, feature.shape)
    except ValueError:
        out_shape = grad.shape  # aclnn refuses the pair and says why
    try:
        with _Session(soc) as session:
            grad_t, _ = session.tensor(grad.shape, grad.dtype, grad)
            feature_t, _ = session.tensor(feature.shape, feature.dtype, feature)
            out_t, out_ptr = session.tensor(out_shape, feature.dtype)
            threshold_s = session.scalar(t)
            workspace_size, executor, ret = aclnn.threshold_backward_get_workspace_size(
                grad_t, feature_t, threshold_s, out_t)
            _raise_for_aclnn(ret)
            workspace = session.malloc(workspace_size) if workspace_size else 0
            _raise_for_aclnn(aclnn.threshold_backward(workspace, workspace_size, executor, session.stream))
            _check(session.runtime.synchronize_stream(session.stream), "acl.rt.synchronize_stream")
            return session.download(out_ptr, out_shape, feature.dtype)
    except _AclError as e:
        raise RuntimeError(str(e)) from None


def _scalar_of(session: _Session, value, what: str):
    """An aclScalar holding `value` exactly: integers as INT64 (UINT64 above its range), reals as DOUBLE."""
    value = real_scalar(value, what)
    if isinstance(value, numbers.Integral | np.bool_):
        v = int(value)
        if not -(2**63) <= v < 2**64:
            raise ValueError(f"{what} {v} does not fit a 64-bit integer")
        s = acl.create_scalar(v, acl.ACL_INT64 if v < 2**63 else acl.ACL_UINT64)
    else:
        s = acl.create_scalar(float(value), acl.ACL_DOUBLE)
    if s is None:
        raise ValueError(f"cannot make a scalar of {value!r}")
    session._scalars.append(s)
    return s


def threshold(x, threshold, value, semantics: str, soc: str | None = None) -> np.ndarray:
    """The forward, aclnnThreshold on the emulated device: x where x > threshold else value, the
    scalars converted to x's dtype as the host does. numpy in, numpy out of x's shape and dtype.
    TypeError for dtype problems, ValueError for shape and rank problems, MemoryError where device memory
    runs out, RuntimeError otherwise."""
    soc = _soc_for(semantics, soc)
    x = np.asarray(x)
    try:
        acl.acl_data_type_of(x.dtype)
    except TypeError:
        raise TypeError(f"x dtype {x.dtype} is not an ACL data type") from None
    try:
        with _Session(soc) as session:
            x_t, _ = session.tensor(x.shape, x.dtype, x)
            out_t, out_ptr = session.tensor(x.shape, x.dtype)
            threshold_s = _scalar_of(session, threshold, "threshold")
            value_s = _scalar_of(session, value, "value")
            workspace_size, executor, ret = aclnn.threshold_get_workspace_size(x_t, threshold_s, value_s, out_t)
            _raise_for_aclnn(ret)
            workspace = session.malloc(workspace_size) if workspace_size else 0
            _raise_for_aclnn(aclnn.threshold(workspace, workspace_size, executor, session.stream))
            _check(session.runtime.synchronize_stream(session.stream), "acl.rt.synchronize_stream")
            return session.download(out_ptr, x.shape, x.dtype)
    except _AclError as e:
        raise RuntimeError(str(e)) from None
