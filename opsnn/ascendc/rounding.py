"""Numeric conversion with an explicit rounding mode, on whole numpy arrays.

The source values are first widened to float64, which holds every float32, half, bfloat16 and
int32 value exactly; rounding to a narrower format is then integer rounding of x / ulp(x), which
is exact in float64 because ulp is a power of two. This gives every mode, ties and round-to-odd
included, with no per-element Python."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType

import numpy as np

from opsnn.dtypes import bfloat16, finfo

from .halfbits import half_to_float32


class RoundMode(Enum):
    CAST_NONE = "NONE"  # RINT where precision is lost, exact otherwise
    CAST_RINT = "RINT"  # to nearest, ties to even
    CAST_FLOOR = "FLOOR"
    CAST_CEIL = "CEIL"
    CAST_ROUND = "ROUND"  # to nearest, ties away from zero
    CAST_TRUNC = "TRUNC"  # toward zero
    CAST_ODD = "ODD"  # von Neumann rounding: inexact results get an odd last bit


@dataclass(frozen=True)
class FloatFormat:
    precision: int  # significand bits, the implicit one included
    emin: int  # exponent of the smallest normal number
    max_finite: float


FLOAT_FORMATS = MappingProxyType({
    np.dtype(np.float16): FloatFormat(11, -14, 65504.0),
    bfloat16: FloatFormat(8, -126, float(finfo(bfloat16).max)),
    np.dtype(np.float32): FloatFormat(24, -126, float(np.finfo(np.float32).max)),
})


def round_integral(m: np.ndarray, mode: RoundMode) -> np.ndarray:
    """Round float64 values to integral float64 values (sign of zero kept; inf and NaN pass)."""
    with np.errstate(invalid="ignore"):  # inf - inf, fmod(inf): the inf/NaN lanes are fixed by callers
        return _round_integral(m, mode)


def _round_integral(m: np.ndarray, mode: RoundMode) -> np.ndarray:
    if mode in (RoundMode.CAST_NONE, RoundMode.CAST_RINT):
        return np.rint(m)
    if mode is RoundMode.CAST_FLOOR:
        return np.floor(m)
    if mode is RoundMode.CAST_CEIL:
        return np.ceil(m)
    if mode is RoundMode.CAST_TRUNC:
        return np.trunc(m)
    a = np.abs(m)
    f = np.floor(a)
    if mode is RoundMode.CAST_ROUND:
        return np.copysign(f + (a - f >= 0.5), m)  # a - f is exact: no double rounding at ties
    if mode is RoundMode.CAST_ODD:
        t = np.trunc(m)
        bump = (t != m) & (np.fmod(t, 2.0) == 0.0)
        return np.where(bump, t + np.sign(m), t)
    raise ValueError(f"unknown round mode {mode}")


def _overflow_values(mode: RoundMode, fmt: FloatFormat) -> tuple[float, float]:
    """(positive, negative) result of a finite value beyond the format's range, IEEE 754 style:
    the modes that round away from zero in that direction give infinity, the others the largest
    finite value."""
    inf, big = np.inf, fmt.max_finite
    pos = inf if mode in (RoundMode.CAST_NONE, RoundMode.CAST_RINT, RoundMode.CAST_ROUND, RoundMode.CAST_CEIL) \
        else big
    neg = -inf if mode in (RoundMode.CAST_NONE, RoundMode.CAST_RINT, RoundMode.CAST_ROUND, RoundMode.CAST_FLOOR) \
        else -big
    return pos, neg


def to_float(values: np.ndarray, dst: np.dtype, mode: RoundMode) -> np.ndarray:
    """values (any real dtype) rounded to the float dtype `dst` under `mode`; NaN and inf pass."""
    fmt = FLOAT_FORMATS[np.dtype(dst)]
    with np.errstate(invalid="ignore"):  # a signalling NaN widened warns; its bits are set by the caller
        x = values.astype(np.float64)
    finite = np.isfinite(x)
    xf = np.where(finite, x, 0.0)
    _, e2 = np.frexp(xf)  # xf = f * 2**e2, 0.5 <= |f| < 1
    shift = np.maximum(e2 - 1, fmt.emin) - (fmt.precision - 1)  # log2 of ulp(x) in dst
    y = np.ldexp(round_integral(np.ldexp(xf, -shift), mode), shift)
    over = np.abs(y) > fmt.max_finite
    if over.any():
        pos, neg = _overflow_values(mode, fmt)
        y[over] = np.where(y[over] > 0, pos, neg)
    y = np.where(finite, y, x)
    return y.astype(dst)  # exact: every y is representable


def to_int(values: np.ndarray, dst: np.dtype, mode: RoundMode) -> np.ndarray:
    """values rounded to integers under `mode`, saturated to dst's range; NaN -> 0."""
    info = np.iinfo(dst)
    # float32 holds every half exactly and the bounds of int8/uint8/int16 (not int32's): half the
    # bytes of float64.
    narrow = values.dtype == np.float16 and np.dtype(dst).itemsize <= 2
    wide = half_to_float32(values) if narrow else values.astype(np.float64)
    r = round_integral(wide, mode)
    r = np.clip(r, info.min, info.max)  # saturation; +-inf land on the ends
    r[np.isnan(r)] = 0.0
    if np.dtype(dst).itemsize < 8:
        return r.astype(dst)
    # int64's max is not a float64 (it rounds up to 2**63, which would wrap): saturate by hand
    top = r >= 2.0 ** 63
    out = np.where(top, 0.0, r).astype(dst)
    out[top] = info.max
    return out


def saturated_float(values: np.ndarray, dst: np.dtype) -> np.ndarray:
    """SatMode::SAT ahead of a float narrowing to `dst`: magnitudes past dst's largest finite value
    (inf included) clamp to it, NaN becomes 0 (AscendC's Reg Cast, float to float)."""
    top = float(finfo(dst).max)
    with np.errstate(invalid="ignore"):
        return np.where(np.isnan(values), 0, np.clip(values, -top, top)).astype(values.dtype)


def to_int_wrapping(values: np.ndarray, dst: np.dtype, mode: RoundMode) -> np.ndarray:
    """Ascend950's non-saturating float -> integer conversion (SatMode::NO_SAT, AscendC's Reg Cast
    documentation): the rounded value keeps only dst's width of low bits (half 257 -> uint8 1);
    +-inf give dst's extremes and NaN gives 0, as in the saturating mode."""
    info = np.iinfo(dst)
    r = round_integral(values.astype(np.float64), mode)
    finite = np.isfinite(r)
    with np.errstate(invalid="ignore"):
        low = np.fmod(np.where(finite, r, 0.0), 2.0 ** 64)  # exact: fmod never rounds
    # two's complement of the low bits: through int64 (|low| < 2**64 fits after the shift below)
    big = np.abs(low) >= 2.0 ** 63
    low = np.where(big, low - np.sign(low) * 2.0 ** 64, low)
    out = low.astype(np.int64).astype(dst)  # numpy's integer astype keeps the low bits
    out[np.isposinf(r)] = info.max
    out[np.isneginf(r)] = info.min
    out[np.isnan(r)] = 0
    return out


def int_to_float(values: np.ndarray, dst: np.dtype, mode: RoundMode) -> np.ndarray:
    """Integers (int64 included, which float64 does not hold) rounded to the float dtype `dst`
    under `mode`, with one rounding: magnitudes of 2**53 and more are rounded as integers."""
    v = np.asarray(values, dtype=np.int64)
    big = (v >= 2 ** 53) | (v <= -(2 ** 53))
    y = to_float(np.where(big, 0, v), dst, mode)  # exact in float64 below 2**53
    if not big.any():
        return y
    fmt = FLOAT_FORMATS[np.dtype(dst)]
    vb = v[big]
    neg = vb < 0
    m = vb.view(np.uint64).copy()
    m[neg] = np.negative(m[neg])  # the magnitude (2**63 for int64's min as well)
    _, e = np.frexp(m.astype(np.float64))  # the bit length, or one more where the float rounded up
    e = e.astype(np.uint64)
    e -= ((m >> (e - np.uint64(1))) == 0).astype(np.uint64)
    shift = e - np.uint64(fmt.precision)
    q, rem = m >> shift, m & ((np.uint64(1) << shift) - np.uint64(1))
    half = np.uint64(1) << (shift - np.uint64(1))
    odd = (q & np.uint64(1)) == 1
    inexact = rem != 0
    if mode in (RoundMode.CAST_NONE, RoundMode.CAST_RINT):
        up = (rem > half) | ((rem == half) & odd)
    elif mode is RoundMode.CAST_ROUND:
        up = rem >= half
    elif mode is RoundMode.CAST_TRUNC:
        up = np.zeros_like(inexact)
    elif mode is RoundMode.CAST_FLOOR:
        up = inexact & neg
    elif mode is RoundMode.CAST_CEIL:
        up = inexact & ~neg
    else:  # CAST_ODD: an inexact result gets an odd last bit
        up = inexact & ~odd
    mag = np.ldexp((q + up.astype(np.uint64)).astype(np.float64), shift.astype(np.int64))  # exact
    y[big] = np.where(neg, -mag, mag).astype(dst)  # in range: 2**64 is far below float32's max
    return y
