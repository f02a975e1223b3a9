"""The Atlas A2 tensor-scalar vector instructions: Adds Muls Maxs Mins, LeakyRelu, ShiftLeft,
ShiftRight; and Ascend950's Divs (the scalar on either side).

Each takes AscendC's two forms, told apart by the number of arguments:

- ``Name(dst, src, scalar, count)``;
- ``Name(dst, src, scalar, mask, repeatTimes, repeatParams)`` (repeat.py; a UnaryRepeatParams).
  ShiftRight's takes AscendC's trailing ``roundEn`` too (only false is modelled).

The scalar is converted to the tensor's type first (a float to half rounds to nearest even; a
float to an integer type truncates, as C++'s conversion does), then the operation is the binary
one (binary.py) with the scalar as src1: same rounding, same NaN rule (the tensor's NaN first).

LeakyRelu: dst = x if x >= 0 else x * scalar (so -0 stays -0, a NaN x comes out quieted, and
-inf * 0 is Muls' -NaN). ShiftLeft / ShiftRight on int16/uint16/int32/uint32: bits shifted out
are lost, ShiftRight is arithmetic on signed types and logical on unsigned ones; a shift outside
0..bits-1 is refused (C++ leaves it undefined; the hardware's answer is not documented)."""
from __future__ import annotations

import numpy as np

from opsnn.dtypes import dtype_name

from .binary import add_values, arith_types, div_values, max_values, min_values, mul_values
from .errors import EmulatorError
from .ieee import FLOATS
from .local_tensor import LocalTensor
from .repeat import split_args
from .vector_form import check_types, count_form, repeat_form

SHIFT_TYPES = tuple(np.dtype(t) for t in (np.int16, np.uint16, np.int32, np.uint32))


def to_scalar(scalar, dtype: np.dtype) -> np.ndarray:
    """The scalar in the tensor's type, as a 0-d array."""
    with np.errstate(all="ignore"):
        return np.asarray(scalar).astype(dtype)


def leaky_relu_values(x: np.ndarray, s: np.ndarray) -> np.ndarray:
    """x if x >= 0 else x * s."""
    with np.errstate(invalid="ignore"):
        keep = x >= 0
    return np.where(keep, x, mul_values(x, s)).astype(x.dtype, copy=False)


def _scalar_op(name: str, fn, types, args: tuple, repeat_arity: int = 6) -> None:
    repeat = split_args(name, args, 4, repeat_arity)
    dst, src, scalar = args[:3]
    t = check_types(name, types(dst) if callable(types) else types, dst, src)  # arith_types: by SoC
    s = to_scalar(scalar, t)

    def compute(x: np.ndarray) -> np.ndarray:
        return fn(x, s)

    if repeat:
        repeat_form(name, compute, dst, (src,), *args[3:6])
    else:
        count_form(name, compute, dst, (src,), args[3])


def Adds(*args) -> None:  # noqa: N802 - AscendC name
    """dst = src + scalar: ``Adds(dst, src, scalar, count)`` or ``Adds(dst, src, scalar, mask,
    repeatTimes, repeatParams)``; half, float, int16, int32."""
    _scalar_op("Adds", add_values, arith_types, args)


def Muls(*args) -> None:  # noqa: N802 - AscendC name
    """dst = src * scalar; the forms and types of Adds."""
    _scalar_op("Muls", mul_values, arith_types, args)


def Maxs(*args) -> None:  # noqa: N802 - AscendC name
    """dst = max(src, scalar), NaN-propagating; the forms and types of Adds."""
    _scalar_op("Maxs", max_values, arith_types, args)


def Mins(*args) -> None:  # noqa: N802 - AscendC name
    """dst = min(src, scalar), NaN-propagating; the forms and types of Adds."""
    _scalar_op("Mins", min_values, arith_types, args)


def Divs(*args) -> None:  # noqa: N802 - AscendC name
    """Ascend950's Divs, the scalar on either side: ``Divs(dst, src, scalar, ...)`` is dst = src /
    scalar, ``Divs(dst, scalar, src, ...)`` dst = scalar / src; the forms of Adds; half and float,
    rounded as Div."""
    if len(args) >= 3 and not isinstance(args[1], LocalTensor):
        dst, scalar, src = args[:3]
        _scalar_op("Divs", lambda x, s: div_values(np.broadcast_to(s, x.shape).astype(x.dtype), x), FLOATS,
                    (dst, src, scalar, *args[3:]))
        return
    _scalar_op("Divs", div_values, FLOATS, args)


def LeakyRelu(*args) -> None:  # noqa: N802 - AscendC name
    """dst = src if src >= 0 else src * scalar; the forms of Adds; half and float."""
    _scalar_op("LeakyRelu", leaky_relu_values, FLOATS, args)


def _shift_amount(name: str, scalar, t: np.dtype) -> int:
    n = int(scalar)
    if not 0 <= n < 8 * t.itemsize:
        raise EmulatorError(f"{name} by {n} on {dtype_name(t)}: the shift must be 0..{8 * t.itemsize - 1}")
    return n


def _shift(name: str, op, args: tuple) -> None:
    if len(args) == 7:  # ShiftRight's level-0 form ends with roundEn
        if args[6]:
            raise EmulatorError(f"{name} with roundEn = true is not modelled")
        args = args[:6]
    split_args(name, args, 4, 6)
    t = check_types(name, SHIFT_TYPES, args[0], args[1])
    n = _shift_amount(name, args[2], t)
    _scalar_op(name, lambda x, _s: op(x, t.type(n)).astype(t, copy=False), SHIFT_TYPES, args)


def ShiftLeft(*args) -> None:  # noqa: N802 - AscendC name
    """dst = src << scalarValue; the forms of Adds; int16/uint16/int32/uint32."""
    _shift("ShiftLeft", np.left_shift, args)


def ShiftRight(*args) -> None:  # noqa: N802 - AscendC name
    """dst = src >> scalarValue (arithmetic for signed types); the forms of Adds, the repeat form
    with an optional trailing roundEn (false only); int16/uint16/int32/uint32."""
    _shift("ShiftRight", np.right_shift, args)
