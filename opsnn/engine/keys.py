"""Sets of feature values as ranges of their bits, the form the engine's loops test.

A float's key is its bit pattern made monotone in its value: negatives reversed below the
positives (-NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN). Any interval of values is then one
interval of keys, and "an open interval or NaN" is two cyclic key ranges (the NaNs sit at both
ends, adjacent modulo 2**width): the KEYED modes test two cyclic ranges of keys, the others two
ranges of the raw bits."""
from __future__ import annotations

import math

import numpy as np

from opsnn import dtypes

_BITS = {n: np.dtype(f"u{n}") for n in (1, 2, 4, 8)}
EMPTY_RANGE = (1, 0)  # lo > hi: a plain range that matches nothing
NOTHING_KEPT = EMPTY_RANGE + EMPTY_RANGE


def float_key(bits: int, width: int) -> int:
    """Monotone unsigned key of a float's bit pattern: negatives reversed below the positives."""
    sign = 1 << (width - 1)
    return (~bits & (2 * sign - 1)) if bits & sign else bits | sign


def bits_of_key(key: int, width: int) -> int:
    sign = 1 << (width - 1)
    return key ^ sign if key & sign else ~key & (2 * sign - 1)


def key_of(value: float, dtype: np.dtype) -> int:
    """The key of `value` as `dtype` holds it (value must be exactly representable)."""
    bits = int(np.array(value, np.float64).astype(dtype).view(_BITS[dtype.itemsize]))
    return float_key(bits, 8 * dtype.itemsize)


def _value_of_key(key: int, dtype: np.dtype) -> float:
    bits = np.array(bits_of_key(key, 8 * dtype.itemsize), _BITS[dtype.itemsize])
    return float(bits.view(dtype).astype(np.float64))


def first_above(cut: float, dtype: np.dtype) -> int:
    """The key of the smallest `dtype` value v (not NaN) with v > cut; one past +inf's key if none.
    The comparison is exact (every value of these types is exact in float64)."""
    width = 8 * dtype.itemsize
    plus_inf = key_of(math.inf, dtype)
    if cut != cut:
        return plus_inf + 1
    with np.errstate(over="ignore"):
        near = float(np.array(cut, np.float64).astype(dtype).astype(np.float64))
    if near != near:  # cut beyond the type's range rounds to inf: the answer is beyond it too
        near = math.copysign(math.inf, cut)
    key = key_of(near, dtype)
    if near == 0.0:
        key = key_of(0.0, dtype)  # -0.0 and +0.0 compare equal: step from +0
    while key > key_of(-math.inf, dtype) and _value_of_key(key - 1, dtype) > cut:
        key -= 1
    while key <= plus_inf and _value_of_key(key, dtype) <= cut:
        key += 1
    assert key < (1 << width)
    return key


def last_below(cut: float, dtype: np.dtype) -> int:
    """The key of the largest `dtype` value v (not NaN) with v < cut; one below -inf's if none."""
    minus_inf = key_of(-math.inf, dtype)
    if cut != cut:
        return minus_inf - 1
    with np.errstate(over="ignore"):
        near = float(np.array(cut, np.float64).astype(dtype).astype(np.float64))
    if near != near:
        near = math.copysign(math.inf, cut)
    key = key_of(near, dtype)
    if near == 0.0:
        key = key_of(-0.0, dtype)
    while key < key_of(math.inf, dtype) and _value_of_key(key + 1, dtype) < cut:
        key += 1
    while key >= minus_inf and _value_of_key(key, dtype) >= cut:
        key -= 1
    return key


def nan_keys(dtype: np.dtype) -> tuple[int, int]:
    """The NaNs as one cyclic key range (from the positive NaNs round to the negative ones)."""
    return key_of(math.inf, dtype) + 1, key_of(-math.inf, dtype) - 1


def open_interval_or_nan(dtype: np.dtype, lo: float, hi: float) -> tuple[tuple[int, int], tuple[int, int]]:
    """(lo < x < hi) and (x is NaN) as two cyclic key ranges, the interval's first: where no value
    lies strictly between the bounds (or a bound is NaN) the interval is the NaNs too."""
    nans = nan_keys(dtype)
    first, last = first_above(lo, dtype), last_below(hi, dtype)
    inside = (first, last) if first <= last else nans
    return inside, nans


def raw_greater(dtype: np.dtype, cut: float) -> tuple[int, int, int, int]:
    """x > cut (NaN not kept) as two plain ranges of the raw bits (lo > hi: an empty range)."""
    width = 8 * dtype.itemsize
    first, plus_inf = first_above(cut, dtype), key_of(math.inf, dtype)
    if first > plus_inf:
        return NOTHING_KEPT
    sign = 1 << (width - 1)
    pieces = []
    if plus_inf >= sign:  # the non-negative part: raw = key - sign
        lo = max(first, sign)
        if lo <= plus_inf:
            pieces.append((lo - sign, plus_inf - sign))
    if first < sign:      # the negative part: raw = ~key, decreasing
        pieces.append((bits_of_key(sign - 1, width), bits_of_key(first, width)))
    pieces += [EMPTY_RANGE] * (2 - len(pieces))
    return pieces[0] + pieces[1]


def float_dtype(dtype: np.dtype) -> bool:
    return dtype in (np.dtype(np.float16), dtypes.bfloat16, np.dtype(np.float32), np.dtype(np.float64))
