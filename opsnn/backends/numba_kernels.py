"""The fused select as numba loops: one pass, no temporaries, GIL released (the threads run them).

Imported lazily by fast.py (importing numba costs ~0.5 s); compiled per width on first use and
cached on disk. All arrays are 1-D contiguous unsigned views of one dtype width and every scalar
arrives as that same unsigned type. The kept set is two ranges of raw bits (Selection.raw_ranges),
tested with compares only: arithmetic on small integers would be widened to 64 bits by numba and
cost the uint8/16 loops half their speed (measured: 3.1 ms vs 2.0 ms for 16 M uint8 on one core).
"""
from __future__ import annotations

import threading

import numba
import numpy as np

from opsnn.backends.keep_range import Selection

_jit = numba.njit(nogil=True, cache=True, boundscheck=False, error_model="numpy")
_jit_parallel = numba.njit(nogil=True, cache=True, boundscheck=False, error_model="numpy", parallel=True)
# numba's "workqueue" threading layer (used where no OpenMP/TBB is found) aborts on concurrent
# parallel launches; one launch at a time is also all the cores there are
_launch = threading.Lock()


@_jit
def _select(g, f, out, lo1, hi1, lo2, hi2, fill):
    for i in range(f.shape[0]):
        u = f[i]
        keep = ((u >= lo1) & (u <= hi1)) | ((u >= lo2) & (u <= hi2))
        out[i] = g[i] if keep else fill


@_jit
def _relu_float(g, f, out, lo1, hi1, lo2, hi2, sign, exponent, quiet):
    for i in range(f.shape[0]):
        u = f[i]
        gi = g[i]
        if ((u >= lo1) & (u <= hi1)) | ((u >= lo2) & (u <= hi2)):
            out[i] = gi
        elif (gi & exponent) == exponent:  # grad * 0 with an inf/NaN grad: NaN
            out[i] = gi | quiet
        else:                              # grad * 0: zero with the grad's sign
            out[i] = gi & sign


@_jit
def _select_int32_via_float32(g, f, out, lo1, hi1, lo2, hi2):
    for i in range(f.shape[0]):
        u = f[i]
        v = np.float32(g[i])  # the kernel's int32 -> float32 cast (RNE) ...
        r = np.int32(2147483647) if v >= np.float32(2147483648.0) else np.int32(v)  # ... and back, saturating
        keep = ((u >= lo1) & (u <= hi1)) | ((u >= lo2) & (u <= hi2))
        out[i] = r if keep else np.int32(0)


# Parallel versions: numba's own worker threads (OpenMP where available) each run the serial loop
# on one contiguous part. Measured against our Python thread pool on this 2-core VM: waking pool
# threads and handing the GIL around costs 50-250 us per call, numba's spinning workers ~5 us
# (16 M uint8: 1.0 ms vs 1.4-1.6 ms; 1 M uint8: 30 us vs 300 us).
@_jit_parallel
def _select_parallel(g, f, out, lo1, hi1, lo2, hi2, fill, parts):
    n = f.shape[0]
    for p in numba.prange(parts):
        lo, hi = n * p // parts, n * (p + 1) // parts
        _select(g[lo:hi], f[lo:hi], out[lo:hi], lo1, hi1, lo2, hi2, fill)


@_jit_parallel
def _relu_float_parallel(g, f, out, lo1, hi1, lo2, hi2, sign, exponent, quiet, parts):
    n = f.shape[0]
    for p in numba.prange(parts):
        lo, hi = n * p // parts, n * (p + 1) // parts
        _relu_float(g[lo:hi], f[lo:hi], out[lo:hi], lo1, hi1, lo2, hi2, sign, exponent, quiet)


@_jit_parallel
def _select_int32_via_float32_parallel(g, f, out, lo1, hi1, lo2, hi2, parts):
    n = f.shape[0]
    for p in numba.prange(parts):
        lo, hi = n * p // parts, n * (p + 1) // parts
        _select_int32_via_float32(g[lo:hi], f[lo:hi], out[lo:hi], lo1, hi1, lo2, hi2)


def select(g, f, out, sel: Selection, workers: int = 1) -> None:
    """out[i] = g[i] if f[i]'s bits are in the kept ranges else the masked value (out may be g or f),
    on `workers` of numba's threads."""
    lo1, hi1, lo2, hi2 = sel.raw_ranges
    if workers > 1:
        workers = min(workers, numba.config.NUMBA_NUM_THREADS)
        with _launch:
            if sel.grad_via_float32:
                _select_int32_via_float32_parallel(g.view(np.int32), f, out.view(np.int32), lo1, hi1, lo2, hi2,
                                                   workers)
            elif sel.relu:
                sign, exponent, quiet = sel.layout
                _relu_float_parallel(g, f, out, lo1, hi1, lo2, hi2, sign, exponent, quiet, workers)
            else:
                _select_parallel(g, f, out, lo1, hi1, lo2, hi2, sel.fill, workers)
    elif sel.grad_via_float32:
        _select_int32_via_float32(g.view(np.int32), f, out.view(np.int32), lo1, hi1, lo2, hi2)
    elif sel.relu:
        sign, exponent, quiet = sel.layout
        _relu_float(g, f, out, lo1, hi1, lo2, hi2, sign, exponent, quiet)
    else:
        _select(g, f, out, lo1, hi1, lo2, hi2, sel.fill)
