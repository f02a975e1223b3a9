"""An aclnn API run on a fresh emulated device, the way an application on an Ascend device runs
it: a private acl runtime (its own device memory, so calls on different threads share no device
state), the tensors and scalars, the two phases, a synchronize, the result copied back; the
caller's acl context restored and everything released before returning, on failure too. What an
operator's numpy API runs for backend="emulator" (`run_declared` drives any declared API from its
AclnnApi record, knowing no operator).

Statuses become the numpy API's exceptions: a dtype refusal TypeError, a shape or value refusal
ValueError, device memory running out MemoryError, anything else RuntimeError, with aclnn's
message."""
from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence

import numpy as np

from opsnn import acl
from opsnn.acl.constants import DATA_TYPES
from opsnn.aclnn import signature as sig
from opsnn.aclnn import status as st
from opsnn.aclnn.recent_error import get_recent_error

SEMANTICS_SOC = {"ascend910b": "Ascend910B2", "ascend950": "Ascend950"}  # the SoC a semantics runs on
_ACL_TYPE = {name: code for code, (name, _) in DATA_TYPES.items()}


class _AclError(RuntimeError):
    pass


def _check(ret: int, what: str) -> None:
    if ret != acl.ACL_SUCCESS:
        raise _AclError(f"{what} failed with acl status {ret}: {acl.get_recent_err_msg()}")


def _raise_for_aclnn(ret: int) -> None:
    if ret == st.ACLNN_SUCCESS:
        return
    error = get_recent_error()
    message = f"{st.STATUS_NAMES.get(ret, ret)} ({ret}): {error.message if error else ''}"
    kind = error.kind if error else None
    if kind == st.KIND_DTYPE:
        raise TypeError(message)
    if kind in (st.KIND_SHAPE, st.KIND_VALUE, st.KIND_ATTR):
        raise ValueError(message)
    raise RuntimeError(message)


class Session:
    """One private runtime with device 0 and a stream; frees what it allocated on exit."""

    def __init__(self, soc: str):
        self.runtime = acl.Runtime()
        self.soc = soc
        self.stream = None
        self._ptrs: list[int] = []
        self._objects: list = []
        self._host: list[np.ndarray] = []

    def __enter__(self):
        self._previous, _ = acl.rt.get_context()
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
        for obj in self._objects:
            (acl.destroy_tensor if isinstance(obj, acl.AclTensor) else acl.destroy_scalar)(obj)
        for ptr in self._ptrs:
            rt.free(ptr)
        if self.stream is not None:
            rt.destroy_stream(self.stream)
        if rt.get_soc_name() is not None:
            rt.reset_device(0)
            rt.finalize()
        acl.rt.set_context(self._previous)
        return False

    def malloc(self, nbytes: int) -> int:
        ptr, ret = self.runtime.malloc(nbytes, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        if ret == acl.ACL_ERROR_RT_MEMORY_ALLOCATION:
            raise MemoryError(f"acl.rt.malloc({nbytes}) failed with acl status {ret}: {acl.get_recent_err_msg()}")
        _check(ret, f"acl.rt.malloc({nbytes})")
        self._ptrs.append(ptr)
        return ptr

    def tensor(self, shape: tuple[int, ...], dtype: np.dtype, host: np.ndarray | None = None):
        """A dense device tensor (filled from `host` when given): (aclTensor, device pointer)."""
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        ptr = self.malloc(nbytes) if nbytes else 0
        if host is not None and nbytes:
            host = np.ascontiguousarray(host)
            self._host.append(host)
            _check(self.runtime.memcpy(ptr, nbytes, acl.util.numpy_to_ptr(host), nbytes,
                                       acl.ACL_MEMCPY_HOST_TO_DEVICE), "acl.rt.memcpy H2D")
        t = acl.create_tensor(shape, acl.acl_data_type_of(dtype), None, 0, acl.ACL_FORMAT_ND, shape, ptr)
        if t is None:
            raise ValueError(f"cannot describe a {dtype}{list(shape)} tensor: {acl.get_recent_err_msg()}")
        self._objects.append(t)
        return t, ptr

    def scalar(self, value, dtype_name: str | None = None):
        """An aclScalar of `dtype_name`, or where None of the value's own kind, exactly: integers
        (bools too) as INT64 (UINT64 above), reals as DOUBLE."""
        if dtype_name is None:
            dtype_name = _natural_scalar_type(value)
        if dtype_name == "bool":
            value = bool(value)
        elif dtype_name.startswith(("int", "uint")):
            value = int(value)
        else:
            value = float(value)  # a numpy float scalar (bfloat16 too): its value, exactly
        s = acl.create_scalar(value, _ACL_TYPE[dtype_name])
        if s is None:
            raise ValueError(f"cannot make a {dtype_name} scalar of {value!r}: {acl.get_recent_err_msg()}")
        self._objects.append(s)
        return s

    def download(self, ptr: int, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
        out = np.empty(shape, dtype)
        if out.nbytes:
            _check(self.runtime.memcpy(acl.util.numpy_to_ptr(out), out.nbytes, ptr, out.nbytes,
                                       acl.ACL_MEMCPY_DEVICE_TO_HOST), "acl.rt.memcpy D2H")
        return out


def run_declared(api: sig.AclnnApi, module, inputs: Sequence, *, out_shape: tuple[int, ...], out_dtype,
                 soc: str, scalar_dtypes: Mapping[str, str] | None = None) -> np.ndarray:
    """Any declared aclnn API with one OUT tensor, driven from its declaration: `inputs` are the
    non-out params in order (tensors as arrays, uploaded dense; scalars as numbers, made aclScalars
    of `scalar_dtypes[name]`, else of their own kind; attrs converted to their C type), `module`
    holds the two phases (api.python_phase1, api.python). A fresh array of out_shape / out_dtype
    comes back; statuses become exceptions (see the module docstring)."""
    scalar_dtypes = scalar_dtypes or {}
    phase1, phase2 = getattr(module, api.python_phase1), getattr(module, api.python)
    values = iter(inputs)
    try:
        with Session(soc) as session:
            args, out_ptr = [], None
            for p in api.params:
                if p.kind == sig.OUT:
                    t, out_ptr = session.tensor(tuple(out_shape), np.dtype(out_dtype))
                    args.append(t)
                    continue
                value = next(values)
                if p.kind == sig.TENSOR:
                    a = np.asarray(value)
                    args.append(session.tensor(a.shape, a.dtype, a)[0])
                elif p.kind == sig.SCALAR:
                    args.append(session.scalar(value, scalar_dtypes.get(p.name)))
                elif p.kind == sig.ATTR:
                    args.append(sig.ATTR_TYPES[p.c_type][1](value))
                else:
                    raise ValueError(f"{api.name}: parameter kind {p.kind} is not driven here")
            size, executor, ret = phase1(*args)
            _raise_for_aclnn(ret)
            workspace = session.malloc(size) if size else 0
            _raise_for_aclnn(phase2(workspace, size, executor, session.stream))
            _check(session.runtime.synchronize_stream(session.stream), "acl.rt.synchronize_stream")
            return session.download(out_ptr, tuple(out_shape), np.dtype(out_dtype))
    except _AclError as e:
        raise RuntimeError(str(e)) from None


def _natural_scalar_type(value) -> str:
    if isinstance(value, numbers.Integral | np.bool_):
        v = int(value)
        if not -(2**63) <= v < 2**64:
            raise ValueError(f"{v} does not fit a 64-bit integer")
        return "int64" if v < 2**63 else "uint64"
    return "float64"
