"""The fused select on one tile with numpy ufuncs only (the fallback where the C engine was not built).

Every operand is a 1-D contiguous unsigned view of one tile; all intermediates live in the
caller's per-thread scratch, so memory stays O(tile). Each ufunc pass runs on cache-resident data.
"""
from __future__ import annotations

import numpy as np

from opsnn.dtypes import bfloat16

from .keep_range import Selection

_I32, _F32, _F64 = np.dtype(np.int32), np.dtype(np.float32), np.dtype(np.float64)
_INT32_MAX = np.float64(2**31 - 1)


class Scratch:
    """Per-thread tile buffers."""

    def __init__(self, sel: Selection, tile: int):
        self.key = np.empty(tile, sel.bits)
        self.keep = np.empty(tile, np.bool_)
        if sel.relu:
            self.masked = np.empty(tile, sel.bits)
            self.nonfinite = np.empty(tile, np.bool_)
            self.nan = np.empty(tile, np.bool_)
        if sel.grad_via_float32:
            self.wide = np.empty(tile, _F64)
            self.narrow = np.empty(tile, _I32)


_HALVES = (np.dtype(np.float16), bfloat16)


def torch_formula(g, f, threshold, fill):
    """torch's rule in one numpy expression, for a handful of elements (the fast path's own copy:
    the oracle in reference.py shares nothing with it). Halves compare in float32, as torch does."""
    if f.dtype in _HALVES:
        f = f.astype(np.float32)
    return np.where(f <= threshold, fill, g).astype(g.dtype, copy=False)


def select_tile(g, f, out, sel: Selection, scratch: Scratch) -> None:
    """out = key(f) in [a, a+span] ? g' : masked, elementwise; out may be g or f itself."""
    n = f.shape[0]
    key, keep = scratch.key[:n], scratch.keep[:n]
    if sel.ordered:  # sign-magnitude -> monotone: negatives get all bits flipped, positives the sign set
        np.right_shift(f, sel.bits.type(8 * sel.bits.itemsize - 1), out=key)
        np.negative(key, out=key)
        np.bitwise_or(key, sel.bits.type(1 << (8 * sel.bits.itemsize - 1)), out=key)
        np.bitwise_xor(key, f, out=key)
        np.subtract(key, sel.a, out=key)
    else:
        np.subtract(f, sel.a, out=key)
    np.less_equal(key, sel.span, out=keep)
    masked = sel.fill
    if sel.relu:  # grad * 0: zero with the grad's sign; inf/NaN grads give a quiet NaN
        sign, exponent, quiet = sel.layout
        masked, nonfinite, nan = scratch.masked[:n], scratch.nonfinite[:n], scratch.nan[:n]
        np.bitwise_and(g, exponent, out=masked)
        np.equal(masked, exponent, out=nonfinite)
        np.bitwise_and(g, sel.bits.type(2 * int(quiet) - 1), out=masked)  # the mantissa: nonzero for NaN
        np.not_equal(masked, 0, out=nan)
        np.logical_and(nan, nonfinite, out=nan)
        np.bitwise_and(g, sign, out=masked)
        np.bitwise_or(g, quiet, out=masked, where=nonfinite)
        if nan.any():  # grad * 1 quiets a signalling NaN (rare: a copy, never the caller's array)
            g = np.where(nan, g | quiet, g)
    if sel.grad_via_float32:  # RNE to float32, then truncate back, saturating 2**31 -> 2**31 - 1
        wide, narrow = scratch.wide[:n], scratch.narrow[:n]
        np.copyto(wide, g.view(_I32).astype(_F32))
        np.minimum(wide, _INT32_MAX, out=wide)
        np.copyto(narrow, wide, casting="unsafe")
        g = narrow.view(sel.bits)
    np.subtract(sel.bits.type(0), keep, out=key, dtype=sel.bits)  # kept -> all ones
    np.bitwise_and(g, key, out=out)
    if sel.relu or sel.fill:  # out |= masked & ~mask
        np.bitwise_not(key, out=key)
        np.bitwise_and(key, masked, out=key)
        np.bitwise_or(out, key, out=out)
