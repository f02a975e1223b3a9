"""aclTensor and aclScalar: host-side descriptors of device data (aclCreateTensor/aclCreateScalar).

A tensor describes a strided view (view_dims, strides and offset in elements) onto a storage of
storage_dims elements starting at data_ptr. Creation validates every argument as the C signature
types it (int64 dims, strides and offset, a pointer, enum members) and the description's
consistency; on any failure it returns None (upstream's NULL) with the reason in
acl.get_recent_err_msg(), so a tensor that exists never points its view outside its storage and a
scalar that exists holds one number of its data type. Nothing here raises on a bad argument."""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np

from . import constants as c
from .args import INT64_MIN, UINT64_MAX, is_enum, is_int64, is_uint64
from .recent_error import fail


class AclFormatWarning(UserWarning):
    """aclCreateTensor was given a private (device-internal) format: recorded, read as ND."""


class _Refused(Exception):
    """A create_* argument is invalid (internal: the public calls turn it into None + message)."""


def _int64s(values, what: str) -> tuple[int, ...]:
    """A sequence of int64 values (the C API's `const int64_t *`)."""
    try:
        if isinstance(values, str | bytes):
            raise TypeError
        out = tuple(values)
    except TypeError:  # not iterable (a 0-d array raises it too)
        raise _Refused(f"{what} must be a sequence of integers, got {values!r}") from None
    for v in out:
        if not is_int64(v):
            raise _Refused(f"{what} must be int64 integers, got {v!r}")
    return tuple(int(v) for v in out)


@dataclass(eq=False)
class AclTensor:
    view_dims: tuple[int, ...]
    data_type: int  # aclDataType
    strides: tuple[int, ...]  # elements
    offset: int  # elements from data_ptr to the view's first element
    format: int
    storage_dims: tuple[int, ...]
    data_ptr: int
    destroyed: bool = False

    @property
    def dtype_name(self) -> str:
        return c.DATA_TYPES[self.data_type][0]

    @property
    def numpy_dtype(self) -> np.dtype:
        return c.DATA_TYPES[self.data_type][1]

    @property
    def numel(self) -> int:
        return math.prod(self.view_dims)

    @property
    def storage_nbytes(self) -> int:
        return math.prod(self.storage_dims) * self.numpy_dtype.itemsize

    def __repr__(self) -> str:
        return (f"<aclTensor {self.dtype_name}{list(self.view_dims)} strides={list(self.strides)} "
                f"offset={self.offset} at {self.data_ptr:#x}{' destroyed' if self.destroyed else ''}>")


@dataclass(eq=False)
class AclScalar:
    value: object  # a numpy scalar of the scalar's data type
    data_type: int
    destroyed: bool = False

    def to_float(self) -> float:
        """The value as float32 (aclScalar::ToFloat; a complex one's real part), as a Python float."""
        with np.errstate(over="ignore", invalid="ignore"):
            return float(np.float32(np.real(self.value)))


def create_tensor(view_dims, data_type, strides, offset, fmt, storage_dims, data_ptr) -> AclTensor | None:
    """aclCreateTensor. `strides` None means row-major contiguous; `data_ptr` None means nullptr.
    Returns None (reason in acl.get_recent_err_msg()) when an argument is not of its C type or the
    description is invalid: unknown dtype/format, negative sizes/strides/offset, or a view that
    reaches outside its storage."""
    try:
        return _tensor(view_dims, data_type, strides, offset, fmt, storage_dims, data_ptr)
    except _Refused as e:
        fail(c.ACL_ERROR_INVALID_PARAM, f"create_tensor: {e}")
        return None


def _tensor(view_dims, data_type, strides, offset, fmt, storage_dims, data_ptr) -> AclTensor:
    dims = _int64s(view_dims, "view_dims")
    storage = _int64s(storage_dims, "storage_dims")
    strides = contiguous_strides(dims) if strides is None else _int64s(strides, "strides")
    if not is_int64(offset):
        raise _Refused(f"offset must be an int64 integer, got {offset!r}")
    if data_ptr is not None and not is_uint64(data_ptr):
        raise _Refused(f"data_ptr must be a pointer (an unsigned 64-bit integer) or None, got {data_ptr!r}")
    if not is_enum(data_type, c.DATA_TYPES):
        raise _Refused(f"unknown aclDataType {data_type!r}")
    if not is_enum(fmt, c.FORMAT_NAMES):
        raise _Refused(f"unknown aclFormat {fmt!r}")
    if int(fmt) in c.PRIVATE_FORMATS:
        warnings.warn(f"aclCreateTensor: format {c.FORMAT_NAMES[int(fmt)]} ({int(fmt)}) is private to the device; "
                      "it is recorded, and the operators read the data as ND", AclFormatWarning, stacklevel=3)
    if len(strides) != len(dims):
        raise _Refused(f"{len(strides)} strides for {len(dims)} view dims")
    if min((*dims, *storage, *strides, int(offset), 0)) < 0:
        raise _Refused("view_dims, strides, offset and storage_dims must not be negative")
    if math.prod(dims) > 0:
        last = int(offset) + sum((d - 1) * s for d, s in zip(dims, strides, strict=True))
        if last >= math.prod(storage):
            raise _Refused(f"the view {list(dims)} (strides {list(strides)}, offset {int(offset)}) reaches "
                           f"element {last}, past the storage {list(storage)}")
    ptr = 0 if data_ptr is None else int(data_ptr)
    return AclTensor(dims, int(data_type), strides, int(offset), int(fmt), storage, ptr)


def contiguous_strides(dims: tuple[int, ...]) -> tuple[int, ...]:
    """Row-major element strides of `dims` (a 0-length dim counts as 1, as aclCreateTensor's callers do)."""
    strides, step = [], 1
    for d in reversed(dims):
        strides.append(step)
        step *= max(d, 1)
    return tuple(reversed(strides))


def create_scalar(value, data_type) -> AclScalar | None:
    """aclCreateScalar: one number (Python or numpy scalar, or a 0-d numeric array) converted to
    `data_type`. Integer types take integers that fit (or bools), real types real numbers (float
    types round), complex types any number. Anything else (None, a string, a sequence, a complex
    for a real type) returns None, with the reason in acl.get_recent_err_msg()."""
    try:
        return AclScalar(_scalar_value(value, data_type), int(data_type))
    except _Refused as e:
        fail(c.ACL_ERROR_INVALID_PARAM, f"create_scalar: {e}")
        return None


def _scalar_value(value, data_type):
    if not is_enum(data_type, c.DATA_TYPES):
        raise _Refused(f"unknown aclDataType {data_type!r}")
    if value is None:
        raise _Refused("value is nullptr")
    if isinstance(value, np.ndarray):
        if value.ndim != 0:
            raise _Refused(f"value must be one number, got a {value.ndim}-d array")
        value = value[()]
    if not _is_number(value):
        raise _Refused(f"value must be a number, got {type(value).__name__}")
    name, dtype = c.DATA_TYPES[int(data_type)]
    integral = isinstance(value, int | np.integer | np.bool_)
    if dtype.kind in "iub" and not integral:
        raise _Refused(f"a {name} scalar needs an integer, got {value!r}")
    if dtype.kind in "iu" and not np.iinfo(dtype).min <= int(value) <= np.iinfo(dtype).max:
        raise _Refused(f"{int(value)} does not fit {name}")
    if dtype.kind != "c" and isinstance(value, complex | np.complexfloating):
        raise _Refused(f"a {name} scalar needs a real number, got {value!r}")
    if isinstance(value, int) and not INT64_MIN <= value <= UINT64_MAX:  # numpy has no array of it
        try:
            value = float(value)
        except OverflowError:
            raise _Refused(f"{value} does not fit {name}") from None
    with np.errstate(over="ignore", invalid="ignore"):
        return np.asarray(value).astype(dtype)[()]


def _is_number(value) -> bool:
    """A Python or numpy number; numpy's extension types among the ACL dtypes (bfloat16) too."""
    if isinstance(value, int | float | complex | np.number | np.bool_):
        return True
    return isinstance(value, np.generic) and any(value.dtype == dt for _, dt in c.DATA_TYPES.values())


def destroy_tensor(tensor) -> int:
    """aclDestroyTensor: None (nullptr) is accepted, as upstream's; a destroyed tensor is refused."""
    return _destroy(tensor, AclTensor, "destroy_tensor")


def destroy_scalar(scalar) -> int:
    return _destroy(scalar, AclScalar, "destroy_scalar")


def _destroy(handle, kind: type, what: str) -> int:
    if handle is None:
        return c.ACL_SUCCESS
    if not isinstance(handle, kind):
        return fail(c.ACL_ERROR_INVALID_PARAM, f"{what}: not an {kind.__name__}: {type(handle).__name__}")
    if handle.destroyed:
        return fail(c.ACL_ERROR_INVALID_PARAM, f"{what}: already destroyed")
    handle.destroyed = True
    return c.ACL_SUCCESS
