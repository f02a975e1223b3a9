"""Every comparison the three semantics make, reduced to one test on the feature's bit pattern.

For each (semantics, dtype) the set of feature values whose grad is kept is an interval of the
dtype's values (plus, for the "not <=" rules, the NaNs). Reading the bits as an unsigned integer
"key" that is monotone in the value (floats: sign-magnitude flipped; integers: the raw bits, with
wrap-around), that set is one cyclic interval [a, a + span] modulo 2**width (the numpy engine tests
that with one subtract and one unsigned compare), or equally at most two plain ranges of the raw
bits (the C engine tests those with one subtract and compare each). Either way, whatever the dtype: no
float16/bfloat16 arithmetic, no float conversion of the feature, results exact by construction.
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from opsnn import dtypes
from opsnn.dtypes import bfloat16
from opsnn.engine.keys import EMPTY_RANGE, NOTHING_KEPT, float_key

from .plan import Plan

_FLOATS = (np.dtype(np.float16), bfloat16, np.dtype(np.float32), np.dtype(np.float64))
_I32 = np.dtype(np.int32)
_BITS = {n: np.dtype(f"u{n}") for n in (1, 2, 4, 8)}

# Selection.params: the C engine's scalars as one small array of the selection's unsigned type
# (one array argument dispatches in about half the time of nine numpy scalars)
LO1, HI1, LO2, HI2, FILL, SIGN, EXPONENT, QUIET, MODE = range(9)
PLAIN, RELU, VIA_FLOAT32 = 0, 1, 2  # MODE: which loop the kernels run


def float_layout(dtype: np.dtype) -> tuple:
    """(sign mask, exponent mask, quiet-NaN bit) of a binary float type, as its unsigned type
    (from opsnn.dtypes, not from the reference backend: the oracle and the fast path share no helpers)."""
    layout = dtypes.float_layout(dtype)
    ut = layout.uint.type
    return ut(layout.sign), ut(layout.exponent), ut(layout.quiet)


class Selection(NamedTuple):
    """keep grad[i] iff ((key(feature[i]) - a) mod 2**w) <= span (equivalently: its raw bits lie in
    raw_ranges); otherwise write the masked value."""
    bits: np.dtype          # unsigned type of the dtype's width; kernels work on these views
    ordered: bool           # feature is a float: key = sign-magnitude bits made monotone
    a: np.unsignedinteger
    span: np.unsignedinteger
    empty: bool             # no grad kept at all: the output is `fill` everywhere
    fill: np.unsignedinteger  # masked value's bits (0 for the backward, `value` for the forward)
    relu: bool = False      # masked float value is grad * 0 (signed zero / NaN) instead of `fill`
    grad_via_float32: bool = False  # int32 on ascend: grads pass through float32 (RNE), saturating
    layout: tuple = ()      # (sign, exponent, quiet) masks of the float dtype, for relu
    raw_ranges: tuple = ()  # the same set as two ranges of the raw unsigned bits: lo1, hi1, lo2, hi2
    params: np.ndarray | None = None  # read-only, indexed by LO1 .. MODE above
    builtin: bool = False   # a numpy builtin int/float32/float64 (kernels may take it without a bits view)


_CACHE: dict = {}  # memo key (below) -> Selection; a pure function's memo (dict reads/writes are atomic)
_CACHE_MAX = 4096


def scalar_key(x):
    # By type and bits, not by value: 0.0 and -0.0 (a forward `value`) are different fills.
    return None if x is None else (type(x), np.asarray(x).tobytes())


def selection(plan: Plan) -> Selection:
    """The Selection of a plan; memoised, since small calls would otherwise spend most of their time here."""
    t = plan.threshold
    if plan.fill is None and t == t:
        # the backward's hot key: the threshold by value (a +-0 threshold selects the same set either
        # way; its numpy type is fixed by semantics and dtype); NaN (never equal) takes the keyed-by-bits path
        key = (plan.semantics, plan.dtype, plan.relu, t)
    else:
        key = (plan.semantics, plan.dtype, plan.relu, scalar_key(t), scalar_key(plan.fill))
    sel = _CACHE.get(key)
    if sel is None:
        if len(_CACHE) >= _CACHE_MAX:
            _CACHE.clear()
        sel = _CACHE[key] = _selection(plan)
    return sel


def _selection(plan: Plan) -> Selection:
    dtype = plan.dtype
    bits = _BITS[dtype.itemsize]
    ordered = dtype in _FLOATS
    rule, cut = _rule(plan)
    if ordered:
        lo, hi, empty = _float_interval(dtype, rule, cut)
    elif dtype == _I32 and plan.semantics != "torch" and not plan.relu:
        lo, hi, empty = _int_interval(dtype, rule, _int32_float32_cut(cut))
    else:
        lo, hi, empty = _int_interval(dtype, rule, cut)
    width = 8 * dtype.itemsize
    fill = 0 if plan.fill is None else int(np.array(plan.fill, dtype).view(bits))
    a, span = lo % (1 << width), (hi - lo) % (1 << width)
    lo1, hi1, lo2, hi2 = _raw_ranges(ordered, a, span, width)
    ut = bits.type  # every scalar in the selection's own width
    via_float32 = dtype == _I32 and plan.semantics != "torch" and not plan.relu
    relu = plan.relu and ordered
    layout = float_layout(dtype) if ordered else ()
    mode = RELU if relu else VIA_FLOAT32 if via_float32 else PLAIN
    params = np.array([lo1, hi1, lo2, hi2, fill, *(layout if relu else (0, 0, 0)), mode], bits)
    params.flags.writeable = False  # shared by every call (and thread) of this selection
    builtin = dtype.kind in "iu" or dtype in (np.dtype(np.float32), np.dtype(np.float64))
    return Selection(bits, ordered, ut(a), ut(span), empty, ut(fill), relu, via_float32,
                     layout, (ut(lo1), ut(hi1), ut(lo2), ut(hi2)), params, builtin)


def _raw_ranges(ordered: bool, a: int, span: int, width: int) -> tuple:
    """The kept cyclic key interval [a, a+span] as at most two plain ranges of raw unsigned bits.

    Compares only, no arithmetic on the feature. The kept
    values are one interval of the (cyclic) value order, which in raw order (+0..+inf, +NaN, then
    -0..-inf, -NaN) is at most two runs."""
    modulus, sign = 1 << width, 1 << (width - 1)
    keys = [(a, a + span)] if a + span < modulus else [(a, modulus - 1), (0, a + span - modulus)]
    pieces = []
    for lo, hi in keys:
        if not ordered:  # integer keys are the raw bits
            pieces.append((lo, hi))
            continue
        if hi >= sign:   # non-negative floats: raw = key - sign, increasing
            pieces.append((max(lo, sign) - sign, hi - sign))
        if lo < sign:    # negative floats: raw = ~key, decreasing
            pieces.append((modulus - 1 - min(hi, sign - 1), modulus - 1 - lo))
    pieces.sort()
    merged = [pieces[0]]
    for lo, hi in pieces[1:]:
        if lo <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
        else:
            merged.append((lo, hi))
    assert len(merged) <= 2, merged
    merged += [EMPTY_RANGE] * (2 - len(merged))
    return merged[0] + merged[1]


def _rule(plan: Plan):
    """("gt" | "not_le", cut): keep iff feature > cut, or iff not (feature <= cut) (NaN features kept)."""
    if plan.semantics == "torch":
        t = plan.threshold
        return "not_le", (int(t) if np.dtype(type(t)).kind in "iu" else float(t))
    if plan.relu:
        return "gt", 0.0
    if plan.semantics == "ascend910b":
        if plan.dtype == np.float16:
            with np.errstate(over="ignore"):
                return "gt", float(np.float16(plan.threshold))
        return "gt", float(plan.threshold)
    return "not_le", float(plan.threshold)


def _key_of(value: float, dtype: np.dtype) -> int:
    b = int(dtype.type(value).view(_BITS[dtype.itemsize]))
    return float_key(b, 8 * dtype.itemsize)


def _nearest(value: float, dtype: np.dtype):
    """value rounded to dtype (overflowing to inf, as the kernels' conversions do)."""
    if abs(value) <= _FINITE_MAX[dtype]:
        return dtype.type(value)
    with np.errstate(over="ignore"):
        return np.array(value, np.float64).astype(dtype)[()]


_FINITE_MAX = {dt: float(dtypes.finfo(dt).max) for dt in _FLOATS}
_INT_INFO = {np.dtype(t): np.iinfo(t) for t in (np.uint8, np.int8, np.int16, np.int32, np.int64)}
_INF_KEYS = {dt: (_key_of(math.inf, dt), _key_of(-math.inf, dt)) for dt in _FLOATS}


def _float_interval(dtype: np.dtype, rule: str, cut: float):
    width = 8 * dtype.itemsize
    plus_zero, (plus_inf, minus_inf) = 1 << (width - 1), _INF_KEYS[dtype]
    if math.isnan(cut):  # every comparison with NaN is false
        return (0, (1 << width) - 1, False) if rule == "not_le" else (0, 0, True)
    # key of the largest dtype value <= cut (both zeros count as +0: -0.0 <= x iff +0.0 <= x)
    nearest = _nearest(cut, dtype)
    k = _key_of(float(nearest), dtype)
    if float(nearest) == 0.0:
        k = plus_zero - 2 if float(nearest) > cut else plus_zero  # -smallest subnormal, or +0
    elif float(nearest) > cut:
        k -= 1
    lo = k + 1
    if rule == "gt":
        return (lo, plus_inf, False) if k < plus_inf else (0, 0, True)
    return lo, minus_inf - 1, False  # through +inf, the positive NaNs, wrapping to the negative NaNs


def _int_interval(dtype: np.dtype, rule: str, cut):
    info = _INT_INFO[dtype]
    full, empty = (info.min, info.max, False), (0, 0, True)
    if isinstance(cut, float):
        if math.isnan(cut):
            return full if rule == "not_le" else empty
        if math.isinf(cut):
            return empty if cut > 0 else full
        cut = math.floor(cut)
    lo = cut + 1
    if lo > info.max:
        return empty
    return max(lo, info.min), info.max, False


def _int32_float32_cut(t: float):
    """The largest int32 x with float32(x) <= t (NaN passes through; None of them: -inf).

    float32 rounding is monotone, so {x : float32(x) > t} is [that + 1, 2**31 - 1]. floor(t) is in
    the set and rounding moves an int32 by at most 128, so a window above floor(t) finds the edge."""
    if math.isnan(t) or math.isinf(t):
        return t
    if t >= 2.0**31:
        return 2**31 - 1
    if t < -(2.0**31):
        return -math.inf
    base = math.floor(t)
    window = np.arange(base, base + 260, dtype=np.int64)
    window = window[window <= 2**31 - 1]
    below = window[window.astype(np.float32) <= np.float32(t)]
    return int(below[-1])


_I16 = np.dtype(np.int16)


def ascend_forward_params(dtype: np.dtype, threshold, value, family: str, convert) -> tuple | None:
    """aclnnThreshold's rule (x <= t ? value : x, compared in x's type; docs/threshold-v2.md) as a
    Lane's parameters, the scalars converted as the host converts them (`convert`:
    scalar_to_tensor.convert_scalar); None where every element is kept (the result is x).
    910B: int32 travels through float32 (x rounded, value too, back saturating), int16 through
    int32 and float32 (exact for its values; the value wraps back); the rest compare natively or
    exactly through float32. Nothing kept: the ranges are NOTHING_KEPT, value everywhere."""
    width = 8 * dtype.itemsize
    bits = _BITS[dtype.itemsize]
    mode = PLAIN
    if family == "ascend910b" and dtype in (_I32, _I16):
        t32, v32 = convert(threshold, _I32), convert(value, _I32)
        lo, hi, empty = _int_interval(dtype, "gt", _int32_float32_cut(float(np.float32(t32))))
        rounded = min(float(np.float32(v32)), 2.0**31 - 1)  # float32 -> int32 saturates at the top
        fill = int(np.array(int(rounded), np.int64).astype(np.int32).astype(dtype).view(bits))
        mode = VIA_FLOAT32 if dtype == _I32 else PLAIN
    else:
        t, v = convert(threshold, dtype), convert(value, dtype)
        fill = int(np.asarray(v, dtype).view(bits))
        if dtype in _FLOATS:
            with np.errstate(invalid="ignore"):
                lo, hi, empty = _float_interval(dtype, "not_le", float(np.asarray(t).astype(np.float64)))
        else:
            lo, hi, empty = _int_interval(dtype, "gt", int(t))
    if empty:
        return (*NOTHING_KEPT, fill, 0, 0, 0, mode)
    a, span = lo % (1 << width), (hi - lo) % (1 << width)
    if span == (1 << width) - 1:
        return None
    return (*_raw_ranges(dtype in _FLOATS, a, span, width), fill, 0, 0, 0, mode)
