"""The fused select as numba loops: one pass, no temporaries, GIL released (the threads run them).

Imported lazily by fast.py (importing numba costs ~0.5 s); compiled per width on first use and
cached on disk. All arrays are 1-D contiguous unsigned views of one dtype width and every scalar
arrives as that same unsigned type. The kept set is two ranges of raw bits (Selection.raw_ranges),
tested with compares only: arithmetic on small integers would be widened to 64 bits by numba and
cost the uint8/16 loops half their speed (measured: 3.1 ms vs 2.0 ms for 16 M uint8 on one core).
"""
from __future__ import annotations

import os
import platform
import threading

import numba
import numpy as np
from llvmlite import ir
from numba.core import cgutils
from numba.extending import intrinsic

from opsnn.backends.keep_range import Selection

# x86 only: non-temporal (streaming) stores of whole vectors; elsewhere the plain loops run
STREAMING = platform.machine().lower() in ("x86_64", "amd64")
_VECTOR_BYTES = 64

_jit = numba.njit(nogil=True, cache=True, boundscheck=False, error_model="numpy")
_jit_parallel = numba.njit(nogil=True, cache=True, boundscheck=False, error_model="numpy", parallel=True)
# numba's "workqueue" threading layer (used where no OpenMP/TBB is found) aborts on concurrent
# parallel launches; one launch at a time is also all the cores there are
_launch = threading.Lock()
# numba's OpenMP pool cannot cross fork(): a parallel launch in a forked child (a DataLoader
# worker, say) terminates the process. Children run the serial loops on opsnn's own pool instead.
_HOME_PID = os.getpid()


def parallel_ok() -> bool:
    return os.getpid() == _HOME_PID


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


# Streaming stores. A plain store first reads the output's cache line from memory ("read for
# ownership"), so a big select moves 4 bytes per 3 it needs; a non-temporal store writes the line
# without reading it. LLVM's loop vectorizer will not emit them, so one 64-byte block is written
# out as explicit vector IR. Measured, 16 M elements, 2 threads: uint16 2.4-2.8 ms vs 5.1-6.8 ms,
# uint32 7.0 ms vs 9.3-10.2 ms. Only for outputs far larger than the caches (see fast.STREAM_MIN):
# a small result is better left in cache for whoever reads it next.
@intrinsic
def _select_block_streaming(typingctx, g, f, out, i, lo1, hi1, lo2, hi2, fill):
    """out[i : i + 64 bytes] = select(...) with one vector compare/blend and a non-temporal store;
    out + i must be 64-byte aligned."""
    sig = numba.types.void(g, f, out, i, lo1, hi1, lo2, hi2, fill)

    def codegen(context, builder, signature, args):
        element = context.get_value_type(signature.args[0].dtype)
        lanes = _VECTOR_BYTES // (element.width // 8)
        vector = ir.VectorType(element, lanes)

        def block_pointer(k):
            ary = context.make_array(signature.args[k])(context, builder, args[k])
            p = cgutils.get_item_pointer(context, builder, signature.args[k], ary, [args[3]], wraparound=False)
            return builder.bitcast(p, vector.as_pointer())

        def splat(x):
            one = builder.insert_element(ir.Constant(vector, None), x, ir.Constant(ir.IntType(32), 0))
            zeros = ir.Constant(ir.VectorType(ir.IntType(32), lanes), [0] * lanes)
            return builder.shuffle_vector(one, ir.Constant(vector, None), zeros)

        gv, fv = builder.load(block_pointer(0), align=1), builder.load(block_pointer(1), align=1)
        lo1v, hi1v, lo2v, hi2v, fillv = (splat(a) for a in args[4:])
        in1 = builder.and_(builder.icmp_unsigned(">=", fv, lo1v), builder.icmp_unsigned("<=", fv, hi1v))
        in2 = builder.and_(builder.icmp_unsigned(">=", fv, lo2v), builder.icmp_unsigned("<=", fv, hi2v))
        store = builder.store(builder.select(builder.or_(in1, in2), gv, fillv), block_pointer(2),
                              align=_VECTOR_BYTES)
        store.set_metadata("nontemporal", builder.module.add_metadata([ir.Constant(ir.IntType(32), 1)]))
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def _store_fence(typingctx):
    """sfence: streaming stores are weakly ordered; make them visible before returning."""
    def codegen(context, builder, signature, args):
        fence = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), []),
                                               "llvm.x86.sse.sfence")
        builder.call(fence, [])
        return context.get_dummy_value()

    return numba.types.void(), codegen


@_jit
def _select_streaming(g, f, out, lo1, hi1, lo2, hi2, fill):
    n = f.shape[0]
    lanes = _VECTOR_BYTES // out.itemsize
    head = min(n, ((-out.ctypes.data) % _VECTOR_BYTES) // out.itemsize)  # up to the first aligned block
    body_end = head + (n - head) // lanes * lanes
    _select(g[:head], f[:head], out[:head], lo1, hi1, lo2, hi2, fill)
    for i in range(head, body_end, lanes):
        _select_block_streaming(g, f, out, i, lo1, hi1, lo2, hi2, fill)
    _store_fence()
    _select(g[body_end:], f[body_end:], out[body_end:], lo1, hi1, lo2, hi2, fill)


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
def _select_streaming_parallel(g, f, out, lo1, hi1, lo2, hi2, fill, parts):
    n = f.shape[0]
    for p in numba.prange(parts):
        lo, hi = n * p // parts, n * (p + 1) // parts
        _select_streaming(g[lo:hi], f[lo:hi], out[lo:hi], lo1, hi1, lo2, hi2, fill)


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


def select(g, f, out, sel: Selection, workers: int = 1, streaming: bool = False) -> None:
    """out[i] = g[i] if f[i]'s bits are in the kept ranges else the masked value (out may be g or f),
    on `workers` of numba's threads; `streaming`: write with non-temporal stores (plain select only)."""
    lo1, hi1, lo2, hi2 = sel.raw_ranges
    if streaming and STREAMING and not (sel.grad_via_float32 or sel.relu):
        if workers > 1:
            with _launch:
                _select_streaming_parallel(g, f, out, lo1, hi1, lo2, hi2, sel.fill,
                                           min(workers, numba.config.NUMBA_NUM_THREADS))
        else:
            _select_streaming(g, f, out, lo1, hi1, lo2, hi2, sel.fill)
        return
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
