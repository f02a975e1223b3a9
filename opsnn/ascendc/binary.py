"""The Atlas A2 binary vector instructions: Add Sub Mul Div Max Min, And Or.

Each takes AscendC's two forms, told apart by the number of arguments:

- ``Name(dst, src0, src1, count)``: the first `count` elements;
- ``Name(dst, src0, src1, mask, repeatTimes, repeatParams)``: the mask/repeat form (repeat.py;
  repeatParams a BinaryRepeatParams).

One type on every side. Arithmetic is IEEE in the instruction's type (ieee.py: correctly rounded,
ties to even, subnormals kept, host-independent NaNs); integers wrap. Max and Min propagate NaN
(AscendC does not say; the first NaN operand, quieted, as for arithmetic) and order the zeros
-0 < +0 (Max(-0, +0) = +0, Min(-0, +0) = -0, IEEE 754-2019 maximum/minimum).

And / Or: on int16/uint16 tensors the A2 element form (count in elements); on uint8 the packed
bit masks of mask_logic (count in bits), as the arch35 schedules use them."""
from __future__ import annotations

import numpy as np

from . import arith, mask_logic
from .arith import arith_types
from .ieee import FLOATS, NAN_BITS, apply_float, settle_nans, sign_bits
from .local_tensor import LocalTensor
from .repeat import split_args
from .vector_form import check_types, count_form, repeat_form

I16, U16, U8 = (np.dtype(t) for t in (np.int16, np.uint16, np.uint8))
BITWISE_TYPES = (I16, U16)


def add_values(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a + b in a's type (b may be a 0-d scalar of the type): inf - inf is +NaN."""
    if a.dtype.kind != "f":
        return np.add(a, b, dtype=a.dtype)
    return settle_nans(apply_float(np.add, a.dtype, a, b), [a, b])


def sub_values(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a - b: inf - inf is +NaN."""
    if a.dtype.kind != "f":
        return np.subtract(a, b, dtype=a.dtype)
    return settle_nans(apply_float(np.subtract, a.dtype, a, b), [a, b])


def mul_values(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a * b: inf * 0 is NaN with sign(a) xor sign(b) (arith.Mul's rule)."""
    if a.dtype.kind != "f":
        return np.multiply(a, b, dtype=a.dtype)
    b = np.asarray(b, a.dtype)
    return settle_nans(apply_float(np.multiply, a.dtype, a, b), [a, b], sign_bits(a) ^ sign_bits(b))


def div_values(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a / b (floats): 0/0 and inf/inf are NaN with sign(a) xor sign(b); x/0 is +-inf."""
    b = np.asarray(b, a.dtype)
    return settle_nans(apply_float(np.divide, a.dtype, a, b), [a, b], sign_bits(a) ^ sign_bits(b))


def _extremum(a: np.ndarray, b: np.ndarray, is_max: bool) -> np.ndarray:
    b = np.asarray(b, a.dtype)
    out = (np.maximum if is_max else np.minimum)(a, b)
    if a.dtype.kind != "f":
        return out.astype(a.dtype, copy=False)
    out = np.array(out, dtype=a.dtype)
    zeros = (a == 0) & (b == 0)
    if zeros.any():  # +-0 against +-0: the bits of a zero are its sign bit alone
        bits = NAN_BITS[out.dtype][0]
        ab, bb = (np.broadcast_to(v, out.shape).view(bits) for v in (a, b))
        both = (ab & bb) if is_max else (ab | bb)
        out.view(bits)[zeros] = both[zeros]
    return settle_nans(out, [a, b])


def max_values(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """max(a, b): NaN-propagating, Max(-0, +0) = +0."""
    return _extremum(a, b, True)


def min_values(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """min(a, b): NaN-propagating, Min(-0, +0) = -0."""
    return _extremum(a, b, False)


def _binary(name: str, fn, types, args: tuple) -> None:
    """`types`: the element types, or a function of dst giving them (arith_types: by SoC)."""
    repeat = split_args(name, args, 4, 6)
    dst, src0, src1 = args[:3]
    check_types(name, types(dst) if callable(types) else types, dst, src0, src1)
    if repeat:
        repeat_form(name, fn, dst, (src0, src1), *args[3:])
    else:
        count_form(name, fn, dst, (src0, src1), args[3])


def Add(*args) -> None:  # noqa: N802 - AscendC name
    """dst = src0 + src1: ``Add(dst, src0, src1, count)`` or ``Add(dst, src0, src1, mask, repeatTimes,
    repeatParams)``; half, float, int16, int32 (integers wrap)."""
    _binary("Add", add_values, arith_types, args)


def Sub(*args) -> None:  # noqa: N802 - AscendC name
    """dst = src0 - src1; the forms and types of Add."""
    _binary("Sub", sub_values, arith_types, args)


def Mul(*args) -> None:  # noqa: N802 - AscendC name
    """dst = src0 * src1; the forms and types of Add. The count form is arith.Mul."""
    if len(args) == 4:
        arith.Mul(*args)
        return
    _binary("Mul", mul_values, arith_types, args)


def Div(*args) -> None:  # noqa: N802 - AscendC name
    """dst = src0 / src1; the forms of Add; half and float only."""
    _binary("Div", div_values, FLOATS, args)


def Max(*args) -> None:  # noqa: N802 - AscendC name
    """dst = max(src0, src1), NaN-propagating; the forms and types of Add."""
    _binary("Max", max_values, arith_types, args)


def Min(*args) -> None:  # noqa: N802 - AscendC name
    """dst = min(src0, src1), NaN-propagating; the forms and types of Add."""
    _binary("Min", min_values, arith_types, args)


def _bitwise(name: str, op, args: tuple) -> None:
    if len(args) == 4 and isinstance(args[0], LocalTensor) and args[0].dtype == U8:
        getattr(mask_logic, name)(*args)  # packed masks, count in bits (arch35)
        return
    _binary(name, lambda a, b: op(a, b), BITWISE_TYPES, args)


def And(*args) -> None:  # noqa: N802 - AscendC name
    """dst = src0 & src1: int16/uint16 elements (both forms), or uint8 packed masks with a count
    of bits (mask_logic.And)."""
    _bitwise("And", np.bitwise_and, args)


def Or(*args) -> None:  # noqa: N802 - AscendC name
    """dst = src0 | src1: int16/uint16 elements (both forms), or uint8 packed masks with a count
    of bits (mask_logic.Or)."""
    _bitwise("Or", np.bitwise_or, args)
