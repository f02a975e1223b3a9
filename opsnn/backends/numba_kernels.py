"""The fused select as numba loops: one pass, no temporaries, GIL released (the threads run them).

Imported lazily by fast.py (importing numba costs ~0.5 s); compiled per width on first use and
cached on disk. All arrays are 1-D contiguous unsigned views of one dtype width; a, span, fill and
the masks arrive as scalars of that same unsigned type, so the arithmetic stays in that width
(the `& ones` undoes numba's widening of small integers).
"""
from __future__ import annotations

import numba
import numpy as np

from opsnn.backends.keep_range import Selection

_jit = numba.njit(nogil=True, cache=True, boundscheck=False, error_model="numpy")


@_jit
def _select_int(g, f, out, a, span, fill, ones):
    for i in range(f.shape[0]):
        out[i] = g[i] if ((f[i] - a) & ones) <= span else fill


@_jit
def _select_float(g, f, out, a, span, fill, ones, sign):
    for i in range(f.shape[0]):
        k = f[i]
        key = (~k & ones) if (k & sign) != 0 else (k | sign)  # monotone key of the float
        out[i] = g[i] if ((key - a) & ones) <= span else fill


@_jit
def _relu_float(g, f, out, a, span, ones, sign, exponent, quiet):
    for i in range(f.shape[0]):
        k = f[i]
        key = (~k & ones) if (k & sign) != 0 else (k | sign)
        gi = g[i]
        if ((key - a) & ones) <= span:
            out[i] = gi
        elif (gi & exponent) == exponent:
            out[i] = gi | quiet
        else:
            out[i] = gi & sign


@_jit
def _select_int32_via_float32(g, f, out, a, span, ones):
    for i in range(f.shape[0]):
        v = np.float32(g[i])
        r = np.int32(2147483647) if v >= np.float32(2147483648.0) else np.int32(v)
        out[i] = r if ((f[i] - a) & ones) <= span else np.int32(0)


def select(g, f, out, sel: Selection) -> None:
    """out[i] = g[i] if key(f[i]) is in the kept interval else the masked value (out may be g or f)."""
    ones = sel.bits.type(np.iinfo(sel.bits).max)
    if sel.grad_via_float32:
        _select_int32_via_float32(g.view(np.int32), f, out.view(np.int32), sel.a, sel.span, ones)
    elif not sel.ordered:
        _select_int(g, f, out, sel.a, sel.span, sel.fill, ones)
    elif sel.relu:
        sign, exponent, quiet = sel.layout
        _relu_float(g, f, out, sel.a, sel.span, ones, sign, exponent, quiet)
    else:
        _select_float(g, f, out, sel.a, sel.span, sel.fill, ones, sel.layout[0])
