"""The Atlas A2 unary vector instructions: Abs Exp Ln Sqrt Rsqrt Reciprocal Relu Not.

Each takes AscendC's two forms, told apart by the number of arguments:

- ``Name(dst, src, count)``;
- ``Name(dst, src, mask, repeatTimes, repeatParams)`` (repeat.py; a UnaryRepeatParams).

Types (AscendC's lists for Atlas A2): Abs Exp Ln Sqrt Rsqrt Reciprocal on half and float; Relu on
half, float and int32; Not on int16 and uint16.

Precision. Sqrt is correctly rounded (IEEE; ieee.py). Exp, Ln, Rsqrt and Reciprocal are not
bit-documented for the NPU; the model computes each in float64 (numpy's exp, log, 1/sqrt, 1/x)
and rounds the result once to the instruction's type, to nearest even. Reciprocal is then exactly
IEEE division 1/x (double rounding through float64 is innocuous, ieee.py). For Exp, Ln and Rsqrt
the float64 value is within about one float64 ulp of the true one, so the result is the correctly
rounded one except where the true value lies within ~2^-52 (relative) of a rounding boundary of
the type: for half, tests check that no input comes that close (so every half result is correctly
rounded); for float such inputs are rare (of the order of 2^-28 of them) and only there could a
result differ from the correctly rounded one, or from one host's libm to another's. The real
vector unit is likely less accurate than this model (a few ulp, undocumented): a kernel's result
that depends on the last bit of an Exp or Ln is not something the emulator can vouch for.

Special values (IEEE): Exp(-inf) = +0, Exp(+inf) = +inf; Ln(+-0) = -inf, Ln(+inf) = +inf,
Ln(x < 0) = +NaN; Sqrt(-0) = -0, Sqrt(x < 0) = +NaN; Rsqrt(+-0) = +-inf, Rsqrt(+inf) = +0,
Rsqrt(x < 0) = +NaN; Reciprocal(+-0) = +-inf, Reciprocal(+-inf) = +-0. A NaN operand comes
through quieted (ieee.py). Abs clears the sign bit of every value (a NaN is also quieted);
Relu(x) = max(x, +0) for floats (so Relu(-0) = +0, Relu(NaN) = NaN quieted), max(x, 0) for int32."""
from __future__ import annotations

import numpy as np

from .binary import max_values
from .ieee import F16, F32, FLOATS, NAN_BITS, narrow, settle_nans
from .repeat import split_args
from .vector_form import check_types, count_form, repeat_form

I16, I32, U16 = (np.dtype(t) for t in (np.int16, np.int32, np.uint16))
RELU_TYPES = (F16, F32, I32)
NOT_TYPES = (I16, U16)


def _in_float64(fn):
    """x -> fn(float64(x)) rounded once to x's type, NaNs settled (invalid: +NaN)."""
    def compute(x: np.ndarray) -> np.ndarray:
        with np.errstate(all="ignore"):
            out = narrow(fn(x.astype(np.float64)), x.dtype)
        return settle_nans(out, [x])
    return compute


def _rsqrt(x64: np.ndarray) -> np.ndarray:
    return 1.0 / np.sqrt(x64)


def _reciprocal(x64: np.ndarray) -> np.ndarray:
    return 1.0 / x64


exp_values = _in_float64(np.exp)
ln_values = _in_float64(np.log)
sqrt_values = _in_float64(np.sqrt)  # correctly rounded: sqrt through float64 is innocuous (ieee.py)
rsqrt_values = _in_float64(_rsqrt)
reciprocal_values = _in_float64(_reciprocal)


def abs_values(x: np.ndarray) -> np.ndarray:
    bits, _, _, sign = NAN_BITS[x.dtype]
    out = (x.view(bits) & bits(sign - 1)).view(x.dtype)  # sign - 1: every bit below the sign
    return settle_nans(out, [out])


def relu_values(x: np.ndarray) -> np.ndarray:
    return max_values(x, np.zeros((), x.dtype))


def not_values(x: np.ndarray) -> np.ndarray:
    return np.invert(x)


def _unary(name: str, fn, types, args: tuple) -> None:
    repeat = split_args(name, args, 3, 5)
    dst, src = args[:2]
    check_types(name, types, dst, src)
    if repeat:
        repeat_form(name, fn, dst, (src,), *args[2:])
    else:
        count_form(name, fn, dst, (src,), args[2])


def Abs(*args) -> None:  # noqa: N802 - AscendC name
    """dst = |src|: ``Abs(dst, src, count)`` or ``Abs(dst, src, mask, repeatTimes, repeatParams)``;
    half and float."""
    _unary("Abs", abs_values, FLOATS, args)


def Exp(*args) -> None:  # noqa: N802 - AscendC name
    """dst = e ** src (float64, rounded once); the forms of Abs; half and float."""
    _unary("Exp", exp_values, FLOATS, args)


def Ln(*args) -> None:  # noqa: N802 - AscendC name
    """dst = ln(src) (float64, rounded once); the forms of Abs; half and float."""
    _unary("Ln", ln_values, FLOATS, args)


def Sqrt(*args) -> None:  # noqa: N802 - AscendC name
    """dst = sqrt(src), correctly rounded; the forms of Abs; half and float."""
    _unary("Sqrt", sqrt_values, FLOATS, args)


def Rsqrt(*args) -> None:  # noqa: N802 - AscendC name
    """dst = 1 / sqrt(src) (float64, rounded once); the forms of Abs; half and float."""
    _unary("Rsqrt", rsqrt_values, FLOATS, args)


def Reciprocal(*args) -> None:  # noqa: N802 - AscendC name
    """dst = 1 / src, correctly rounded; the forms of Abs; half and float."""
    _unary("Reciprocal", reciprocal_values, FLOATS, args)


def Relu(*args) -> None:  # noqa: N802 - AscendC name
    """dst = max(src, 0); the forms of Abs; half, float and int32."""
    _unary("Relu", relu_values, RELU_TYPES, args)


def Not(*args) -> None:  # noqa: N802 - AscendC name
    """dst = ~src; the forms of Abs; int16 and uint16."""
    _unary("Not", not_values, NOT_TYPES, args)
