"""aclTensor and aclScalar: host-side descriptors of device data (aclCreateTensor/aclCreateScalar).

A tensor describes a strided view (view_dims, strides and offset in elements) onto a storage of
storage_dims elements starting at data_ptr. Creation validates the description and returns None
when it is inconsistent, so a tensor that exists never points its view outside its storage."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import constants as c


def _ints(values, what: str) -> tuple[int, ...]:
    out = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int | np.integer):
            raise ValueError(f"{what} must be integers, got {v!r}")
        out.append(int(v))
    return tuple(out)


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
        """The value as float32 (aclScalar::ToFloat), returned as a Python float."""
        with np.errstate(over="ignore", invalid="ignore"):
            return float(np.float32(self.value))


def create_tensor(view_dims, data_type, strides, offset, fmt, storage_dims, data_ptr) -> AclTensor | None:
    """aclCreateTensor. `strides` None means row-major contiguous. Returns None when the
    description is invalid: unknown dtype/format, negative sizes/strides/offset, or a view that
    reaches outside its storage."""
    try:
        dims = _ints(view_dims, "view_dims")
        storage = _ints(storage_dims, "storage_dims")
        strides = contiguous_strides(dims) if strides is None else _ints(strides, "strides")
        offset = _ints((offset,), "offset")[0]
        ptr = 0 if data_ptr is None else _ints((data_ptr,), "data_ptr")[0]
    except (TypeError, ValueError):
        return None
    if data_type not in c.DATA_TYPES or fmt not in c.FORMATS:
        return None
    if len(strides) != len(dims) or min((*dims, *storage, *strides, offset, ptr, 0)) < 0:
        return None
    if math.prod(dims) > 0:
        last = offset + sum((d - 1) * s for d, s in zip(dims, strides, strict=True))
        if last >= math.prod(storage):
            return None
    return AclTensor(dims, data_type, strides, offset, fmt, storage, ptr)


def contiguous_strides(dims: tuple[int, ...]) -> tuple[int, ...]:
    """Row-major element strides of `dims` (a 0-length dim counts as 1, as aclCreateTensor's callers do)."""
    strides, step = [], 1
    for d in reversed(dims):
        strides.append(step)
        step *= max(d, 1)
    return tuple(reversed(strides))


def create_scalar(value, data_type) -> AclScalar | None:
    """aclCreateScalar: `value` converted to `data_type` (float types round, ints must fit)."""
    if data_type not in c.DATA_TYPES:
        return None
    dtype = c.DATA_TYPES[data_type][1]
    try:
        with np.errstate(over="ignore", invalid="ignore"):
            if dtype.kind in "iub" and not isinstance(value, int | np.integer | bool | np.bool_):
                return None
            if dtype.kind in "iu" and not np.iinfo(dtype).min <= int(value) <= np.iinfo(dtype).max:
                return None
            scalar = np.asarray(value).astype(dtype)[()]
    except (TypeError, ValueError, OverflowError):
        return None
    return AclScalar(scalar, data_type)


def destroy_tensor(tensor) -> int:
    if not isinstance(tensor, AclTensor) or tensor.destroyed:
        return c.ACL_ERROR_INVALID_PARAM
    tensor.destroyed = True
    return c.ACL_SUCCESS


def destroy_scalar(scalar) -> int:
    if not isinstance(scalar, AclScalar) or scalar.destroyed:
        return c.ACL_ERROR_INVALID_PARAM
    scalar.destroyed = True
    return c.ACL_SUCCESS
