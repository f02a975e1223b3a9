"""AscendC's high-level math APIs ("高阶API / 数学计算") on Atlas A2: Sign, Tanh, Log, Log2, Log10,
Floor, Ceil, Round, Trunc, Power, Erf, Erfc, Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh and the
Taylor-expanded Exp.

Each is ``Name(dst, src, [sharedTmpBuffer,] calCount)`` over the first calCount elements (Power
takes two operands, each a tensor or a scalar). On the device they are sequences of vector
instructions AscendC's implementation issues; where AscendC documents the formula, the model runs
the same steps with the emulator's own instruction arithmetic (each step rounded as that
instruction rounds), so the result is the device's up to the last bit of Exp / Ln:

- Sign: -1 where x < 0, +1 where x > 0, +0 otherwise (zeros of either sign and NaN: AscendC's
  example gives [-inf, -2, -0, 0, nan, -nan, 2, inf] -> [-1, -1, 0, 0, 0, 0, 1, 1]).
- Tanh: in float (half is widened first and narrowed at the end, to nearest even): x clipped to
  [-8.8, 8.8] (Mins, Maxs), e = Exp(2x), (e - 1) / (e + 1).
- Log: Ln. Log2: Ln then * (1/ln 2 as float), in float for half. Log10: Ln then * (1/ln 10 as
  T), in T.
- Floor, Ceil, Trunc, Round: float -> float Casts to an integral value in the matching mode
  (Round: CAST_RINT, ties to even, as AscendC's A2 implementation); half through float (exact).
  Zeros keep their sign, NaN and inf pass.
- Power(x, y) in float (half through float): exp(y * ln|x|) by Abs, Ln, Mul, Exp; then 1 where
  y == 0, or x == 1, or x == -1 with |y| infinite; the sign of x where y is an odd integer; NaN
  where x < 0 (not -inf) and y is neither an integer nor infinite. With PowerConfig's
  DOUBLE_FLOAT_TECH (undocumented steps): pow in float64 rounded once.
- Integer Power (int32 on A2; 8/16/32-bit integers on Ascend950): AscendC's fast power, products
  in the type's wrapping arithmetic, so x ** |y| modulo 2**bits; y == 0 gives 1. A negative y
  gives trunc(1.0f / float(x ** |y|)) where x ** |y| is not 0 (so 1, -1 or 0) and 0 where it is
  (AscendC's steps: a float reciprocal truncated back to int32). INT_MIN as exponent: |y| as 2**31.
- Erf, Erfc, Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Exp<T, taylorExpandLevel>: AscendC
  computes polynomial approximations whose coefficients it does not document; the model computes
  the function in float64 and rounds once to T (so it is the correctly rounded value, which the
  device's may miss by a few ulp).

sharedTmpBuffer is accepted and not written (the model keeps its intermediates to itself): what
AscendC leaves there is not a result. Like AscendC's implementations these APIs end in normal
mask mode with the mask register all ones.
"""
from __future__ import annotations

import math
from enum import Enum

import numpy as np

from .binary import add_values, div_values, max_values, min_values, mul_values
from .cast import cast_values
from .core import MaskState
from .errors import EmulatorError
from .ieee import F32, FLOATS, narrow, settle_nans
from .local_tensor import LocalTensor, close_local, open_local, read_local
from .rounding import RoundMode
from .unary import abs_values, exp_values, ln_values

_ONE = np.float32(1.0)


class PowerAlgo(Enum):
    """PowerConfig's algorithm: AscendC's steps (INTRINSIC) or its higher-precision DOUBLE_FLOAT_TECH,
    whose steps it does not document (modelled as pow in float64, rounded once to float)."""
    INTRINSIC = 0
    DOUBLE_FLOAT_TECH = 1


def _to_float(x: np.ndarray) -> np.ndarray:
    return x if x.dtype == F32 else cast_values(x, F32, RoundMode.CAST_NONE)


def _from_float(x32: np.ndarray, t: np.dtype) -> np.ndarray:
    return x32 if t == F32 else cast_values(x32, t, RoundMode.CAST_NONE)


def _in_float(fn):
    """fn over float32, a half operand widened before and narrowed after (AscendC's half path)."""
    def compute(x: np.ndarray) -> np.ndarray:
        return _from_float(fn(_to_float(x)), x.dtype)
    return compute


def _once(fn):
    """fn(float64(x)) rounded once to x's type, NaNs settled."""
    def compute(x: np.ndarray) -> np.ndarray:
        with np.errstate(all="ignore"):
            out = narrow(fn(x.astype(np.float64)), x.dtype)
        return settle_nans(out, [x])
    return compute


def sign_values(x: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        return np.where(x > 0, 1, np.where(x < 0, -1, 0)).astype(x.dtype)


def _tanh32(x: np.ndarray) -> np.ndarray:
    clip = max_values(min_values(x, np.float32(8.8)), np.float32(-8.8))
    e = exp_values(mul_values(clip, np.float32(2.0)))
    return div_values(add_values(e, np.float32(-1.0)), add_values(e, _ONE))


def _log2_32(x: np.ndarray) -> np.ndarray:
    return mul_values(ln_values(x), np.float32(1.4426950408889634))


def log10_values(x: np.ndarray) -> np.ndarray:
    return mul_values(ln_values(x), np.asarray(0.43429448190325176, x.dtype))


def _integral(mode: RoundMode):
    return _in_float(lambda x32: cast_values(x32, F32, mode))


def _power32(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """AscendC's float Power steps (module docstring)."""
    x, y = np.broadcast_arrays(x, y)
    with np.errstate(all="ignore"):
        out = exp_values(mul_values(y, ln_values(abs_values(x))))
        ay = np.abs(y)
        integer = np.isfinite(y) & (np.abs(y - np.rint(y)) < np.float32(1e-8))
        odd = integer & (np.fmod(np.rint(ay), 2) == 1)
        negate = odd & (np.signbit(x))
        out = np.where(negate, -out, out).astype(F32)
        one = (ay == 0) | (x == 1) | ((x == -1) & np.isinf(ay))
        nan = ~(np.isinf(ay) | integer) & ~((x >= 0) | (x == -np.inf)) & ~np.isnan(x) & ~np.isnan(y)
    out = np.where(one, _ONE, out).astype(F32)
    out[nan] = np.float32(np.nan)
    return out


def _erfc(x64: np.ndarray) -> np.ndarray:
    return np.frompyfunc(math.erfc, 1, 1)(x64).astype(np.float64)


def _erf(x64: np.ndarray) -> np.ndarray:
    return np.frompyfunc(math.erf, 1, 1)(x64).astype(np.float64)


_UNARY = {
    "Sign": sign_values,
    "Tanh": _in_float(_tanh32),
    "Log": ln_values,
    "Log2": _in_float(_log2_32),
    "Log10": log10_values,
    "Floor": _integral(RoundMode.CAST_FLOOR),
    "Ceil": _integral(RoundMode.CAST_CEIL),
    "Trunc": _integral(RoundMode.CAST_TRUNC),
    "Round": _integral(RoundMode.CAST_RINT),
    "Erf": _once(_erf),
    "Erfc": _once(_erfc),
    "Sin": _once(np.sin),
    "Cos": _once(np.cos),
    "Tan": _once(np.tan),
    "Asin": _once(np.arcsin),
    "Acos": _once(np.arccos),
    "Atan": _once(np.arctan),
    "Sinh": _once(np.sinh),
    "Cosh": _once(np.cosh),
    "Exp": exp_values,  # the Taylor-expanded high-level Exp: as the Exp instruction (module docstring)
}


def _count_and_tmp(name: str, rest: tuple) -> int:
    """calCount from ([sharedTmpBuffer,] calCount)."""
    if len(rest) == 2 and isinstance(rest[0], LocalTensor):
        rest = rest[1:]
    if len(rest) != 1 or isinstance(rest[0], LocalTensor):
        raise EmulatorError(f"{name} takes (dst, src, [sharedTmpBuffer,] calCount)")
    return int(rest[0])


def _unary(name: str, dst: LocalTensor, src: LocalTensor, rest: tuple) -> None:
    if src.dtype not in FLOATS or dst.dtype != src.dtype:
        raise EmulatorError(f"{name} on {src.dtype} -> {dst.dtype}: half or float, the same on both sides")
    count = _count_and_tmp(name, rest)
    if count > 0:
        values = read_local(src, count, name).copy()
        out, direct = open_local(dst, count, name)
        out[...] = _UNARY[name](values)
        close_local(dst, out, direct, name)
    dst.ctx.vector_mask = MaskState()


def _api(name: str):
    def api(dst: LocalTensor, src: LocalTensor, *rest) -> None:
        _unary(name, dst, src, rest)
    api.__name__ = api.__qualname__ = name
    api.__doc__ = f"AscendC's high-level {name}: ``{name}(dst, src, [sharedTmpBuffer,] calCount)`` (module docstring)."
    return api


Sign, Tanh, Log, Log2, Log10 = (_api(n) for n in ("Sign", "Tanh", "Log", "Log2", "Log10"))
Floor, Ceil, Trunc, Round = (_api(n) for n in ("Floor", "Ceil", "Trunc", "Round"))
Erf, Erfc, Sin, Cos, ExpHighLevel = (_api(n) for n in ("Erf", "Erfc", "Sin", "Cos", "Exp"))
Tan, Asin, Acos, Atan, Sinh, Cosh = (_api(n) for n in ("Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh"))


def _power_double(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return narrow(np.power(x.astype(np.float64), y.astype(np.float64)), F32)


def _power_int(x: np.ndarray, y: np.ndarray, t: np.dtype) -> np.ndarray:
    """AscendC's integer fast power (module docstring): x ** |y| in t's wrapping arithmetic,
    negative y through a float reciprocal truncated."""
    bits = t.itemsize * 8
    modulus = np.uint64((1 << bits) - 1)
    x, y = np.broadcast_arrays(x.astype(np.int64), y.astype(np.int64))
    base = x.astype(np.uint64) & modulus
    exponent = np.abs(y).astype(np.uint64)
    result = np.ones(x.shape, np.uint64)
    while exponent.any():
        odd = (exponent & np.uint64(1)).astype(bool)
        result = np.where(odd, (result * base) & modulus, result)
        base = (base * base) & modulus
        exponent >>= np.uint64(1)
    out = result.astype(np.dtype(f"u{t.itemsize}")).view(t)
    negative = y < 0
    if negative.any():
        nonzero = out != 0
        inverse = np.trunc(np.float32(1.0) / np.where(nonzero, out, 1).astype(np.float32)).astype(t)
        out = np.where(negative, np.where(nonzero, inverse, 0), out).astype(t)
    return out


def Power(dst: LocalTensor, src0, src1, *rest) -> None:  # noqa: N802 - AscendC name
    """dst = src0 ** src1 over calCount elements: each of src0, src1 a LocalTensor or a scalar (not
    both scalars); ``Power(dst, src0, src1, [sharedTmpBuffer,] calCount[, PowerAlgo])`` (module
    docstring)."""
    name = "Power"
    algo = PowerAlgo.INTRINSIC
    if rest and isinstance(rest[-1], PowerAlgo):
        algo, rest = rest[-1], rest[:-1]
    t = dst.dtype
    if t not in FLOATS and (t.kind not in "iu" or t.itemsize > 4):
        raise EmulatorError(f"Power on {t}: half, float or an integer type of 8 to 32 bits")
    tensors = [s for s in (src0, src1) if isinstance(s, LocalTensor)]
    if not tensors or any(s.dtype != t for s in tensors):
        raise EmulatorError("Power takes src0 and src1 of dst's type, at least one a LocalTensor")
    count = _count_and_tmp(name, rest)
    if count > 0:
        x, y = ((read_local(s, count, name).copy() if isinstance(s, LocalTensor) else np.asarray(s).astype(t))
                for s in (src0, src1))
        out, direct = open_local(dst, count, name)
        if t not in FLOATS:
            out[...] = _power_int(np.atleast_1d(x), np.atleast_1d(y), t)
        else:
            power = _power32 if algo is PowerAlgo.INTRINSIC else _power_double
            out[...] = _from_float(power(_to_float(np.atleast_1d(x)), _to_float(np.atleast_1d(y))), t)
        close_local(dst, out, direct, name)
    dst.ctx.vector_mask = MaskState()


__all__ = ["Acos", "Asin", "Atan", "Ceil", "Cos", "Cosh", "Erf", "Erfc", "ExpHighLevel", "Floor", "Log", "Log10",
           "Log2", "Power", "PowerAlgo", "Round", "Sign", "Sin", "Sinh", "Tan", "Tanh", "Trunc"]
