"""Parameter checks shared by aclnn operators (upstream's OP_CHECK_* family). Each raises
AclnnError with the status and message the C API would give; names are the API's names."""
from __future__ import annotations

import math

import numpy as np

from opsnn.acl import AclScalar, AclTensor

from . import status as s

MAX_DIM = 8  # aclnn operators accept tensors of rank 0..8


def check_not_null(value, name: str, kind: type = AclTensor) -> None:
    if value is None:
        raise s.AclnnError(s.ACLNN_ERR_PARAM_NULLPTR, s.KIND_NULLPTR, f"{name} is nullptr")
    if not isinstance(value, kind):
        raise s.AclnnError(s.ACLNN_ERR_PARAM_INVALID, s.KIND_DTYPE,
                           f"{name} must be an {kind.__name__}, got {type(value).__name__}")
    if value.destroyed:  # a destroyed handle is a dangling pointer: refuse it like a null one
        raise s.AclnnError(s.ACLNN_ERR_PARAM_NULLPTR, s.KIND_NULLPTR, f"{name} has been destroyed")


def check_dtype_supported(t: AclTensor, name: str, supported: tuple[str, ...]) -> None:
    if t.dtype_name not in supported:
        raise s.AclnnError(s.ACLNN_ERR_PARAM_INVALID, s.KIND_DTYPE,
                           f"{name} dtype {t.dtype_name} should be in the dtype support list [{', '.join(supported)}]")


def check_same_dtype(a: AclTensor, name_a: str, b: AclTensor, name_b: str) -> None:
    if a.dtype_name != b.dtype_name:
        raise s.AclnnError(s.ACLNN_ERR_PARAM_INVALID, s.KIND_DTYPE,
                           f"{name_a} dtype {a.dtype_name} should be the same as {name_b} dtype {b.dtype_name}")


def check_max_dim(t: AclTensor, name: str, max_dim: int = MAX_DIM) -> None:
    if len(t.view_dims) > max_dim:
        raise s.AclnnError(s.ACLNN_ERR_PARAM_INVALID, s.KIND_SHAPE,
                           f"{name} dim {len(t.view_dims)} should not be greater than {max_dim}")


def broadcast_shape(a: AclTensor, name_a: str, b: AclTensor, name_b: str) -> tuple[int, ...]:
    """The numpy broadcast of two view shapes, or 161002."""
    x, y = a.view_dims, b.view_dims
    rank = max(len(x), len(y))
    x, y = (1,) * (rank - len(x)) + x, (1,) * (rank - len(y)) + y
    out = []
    for dx, dy in zip(x, y, strict=True):
        if dx != dy and dx != 1 and dy != 1:
            raise s.AclnnError(s.ACLNN_ERR_PARAM_INVALID, s.KIND_SHAPE,
                               f"shape of {name_a} {list(a.view_dims)} and {name_b} {list(b.view_dims)} "
                               "can not broadcast")
        out.append(dy if dx == 1 else dx)
    return tuple(out)


def check_shape(t: AclTensor, name: str, expected: tuple[int, ...], what: str) -> None:
    if tuple(t.view_dims) != tuple(expected):
        raise s.AclnnError(s.ACLNN_ERR_PARAM_INVALID, s.KIND_SHAPE,
                           f"{name} shape {list(t.view_dims)} should be {what} {list(expected)}")


__all__ = ["MAX_DIM", "AclScalar", "AclTensor", "broadcast_shape", "check_dtype_supported", "check_max_dim",
           "check_not_null", "check_same_dtype", "check_scalar_fits", "check_shape", "scalar_overflow"]


_FLOATS = frozenset(("float16", "bfloat16", "float32", "float64"))
_COMPLEX = frozenset(("complex64", "complex128"))
_INTEGRAL = frozenset(("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"))


def can_cast(src: str, dst: str) -> bool:
    """opbase CanCast: no complex -> real, no floating -> integral (bool is not integral), nothing
    but bool -> bool."""
    if src in _COMPLEX and dst not in _COMPLEX:
        return False
    if src in _FLOATS and dst in _INTEGRAL:
        return False
    return not (dst == "bool" and src != "bool")


_INT_RANGES = {name: (int(np.iinfo(name).min), int(np.iinfo(name).max)) for name in _INTEGRAL}


def check_scalar_fits(scalar: AclScalar, name: str, dtype_name: str) -> None:
    """161002 where `scalar` becomes a value of the integer dtype `dtype_name` only by wrapping or
    by a conversion C++ leaves undefined (see scalar_overflow)."""
    message = scalar_overflow(scalar.value, name, dtype_name)
    if message is not None:
        raise s.AclnnError(s.ACLNN_ERR_PARAM_INVALID, s.KIND_VALUE, message)


def scalar_overflow(value, name: str, dtype_name: str) -> str | None:
    """Why the scalar `value` (Python or numpy) has no value of the integer dtype `dtype_name`, or
    None: an integer outside the dtype's range, a float whose truncation toward zero is outside
    it, NaN or an infinity (a complex: its real part, as aclScalar's To<T> reads it). Truncating
    a float in range (2.7 -> 2) is the conversion itself and passes; float dtypes take every
    value (rounding, inf) and are not checked.

    torch refuses the same values ("cannot be converted ... without overflow"); CANN's static_cast
    would wrap (uint8 300 -> 44) or, for a float, give the host's "integer indefinite". Stricter
    than torch in one place: torch lets -1..-255 wrap into uint8 for arithmetic's sake; a threshold
    of -1 meaning 255 is a mistake here."""
    bounds = _INT_RANGES.get(dtype_name)
    if bounds is None:
        return None
    if isinstance(value, complex | np.complexfloating):
        value = value.real
    if isinstance(value, bool | np.bool_ | int | np.integer):
        whole = int(value)
    else:
        number = float(value)
        whole = math.trunc(number) if math.isfinite(number) else None
    low, high = bounds
    if whole is not None and low <= whole <= high:
        return None
    return f"{name} {_show(value)} cannot be converted to {dtype_name} without overflow (the range is [{low}, {high}])"


def _show(value) -> str:
    return repr(value.item()) if isinstance(value, np.generic) else repr(value)
