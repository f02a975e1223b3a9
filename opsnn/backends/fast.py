"""The fast CPU path: one fused select per tile, tiles spread over all cores.

- Same-dtype, same-shape, C-contiguous operands (the common case) are flat ranges: numba's loop
  streams them once on numba's worker threads (no temporaries at all; outputs beyond STREAM_MIN
  written with non-temporal stores); the numpy engine walks them in cache-sized tiles on our pool.
- Anything else (broadcasting, strides, negative strides, torch's dtype promotion) is cut into
  N-d blocks of the broadcast shape; each block is staged into per-thread tile buffers (casting
  on the way), computed, and copied into `out` through its view. Extra memory: threads x tile.
- Below PARALLEL_MIN bytes per thread everything runs on the calling thread.
"""
from __future__ import annotations

import importlib
import os
import sys

import numpy as np

from opsnn.backends import numpy_engine, pool, reference, tiles
from opsnn.backends.keep_range import Selection, selection
from opsnn.backends.plan import Plan

PARALLEL_MIN = 1 << 17  # bytes per thread below which threading costs more than it gains
NUMPY_TILE = 1 << 14    # numpy engine: ~10 passes per tile, so keep a tile's buffers in L2
STAGE_TILE = 1 << 17    # staged blocks (both engines): 3 buffers of up to 1 MiB stay in a 4 MiB L2
STREAM_MIN = 2 << 20    # bytes of output (one core's L2) from which numba writes with non-temporal stores
CHUNK = 1 << 20         # flat path, numpy engine: elements a thread takes at a time
TINY = 1024             # elements: below this the plain formula beats setting up the fused kernel
ENGINES = ("auto", "numba", "numpy")


def threshold_backward(grad, feature, plan: Plan, out=None, *, engine=None, tile=None, threads=None):
    """grad/feature: numpy arrays broadcastable to plan.shape; returns out (allocated if None)."""
    if (plan.semantics == "torch" and grad.size <= TINY and grad.dtype == feature.dtype == plan.dtype
            and grad.shape == feature.shape and engine is None):
        # a handful of elements: Python overhead is all there is, so use the one-line formula
        result = reference.torch_rule(grad, feature, plan.threshold, plan.dtype.type(0))
        return _deliver(result, out if out is not None else result)
    return _run(plan, selection(plan), grad, feature, out, engine, tile, threads)


def threshold(x, plan: Plan, out=None, *, engine=None, tile=None, threads=None):
    return _run(plan, selection(plan), x, x, out, engine, tile, threads)


def engine_kernels(engine: str | None):
    """The numba kernels module, or None for the numpy engine (also when numba is not installed)."""
    engine = engine or os.environ.get("OPSNN_FAST_ENGINE", "auto")
    if engine not in ENGINES:
        raise ValueError(f"unknown fast engine {engine!r}; known: {', '.join(ENGINES)}")
    if engine == "numpy":
        return None
    loaded = sys.modules.get("opsnn.backends.numba_kernels")
    if loaded is not None:
        return loaded
    try:
        return importlib.import_module("opsnn.backends.numba_kernels")
    except ImportError:
        if engine == "numba":
            raise
        return None


def _run(plan, sel: Selection, grad, feature, out, engine, tile, threads):
    if out is None:
        out = np.empty(plan.shape, plan.dtype)
    n = out.size
    if n == 0:
        return out
    if sel.empty:  # no grad survives the comparison: inputs need not be read at all
        np.copyto(out, sel.fill.view(plan.dtype))
        return out
    kernels = engine_kernels(engine)
    target = out
    if _overlaps(out, grad) or _overlaps(out, feature):
        target = np.empty(plan.shape, plan.dtype)  # a shifted alias would read what it just wrote
    workers = threads or min(pool.cpu_count(), max(1, n * out.itemsize // PARALLEL_MIN))
    if _flat(plan, grad, feature, target):
        bits = sel.bits
        g, f, o = _flat_bits(grad, bits), _flat_bits(feature, bits), _flat_bits(target, bits)
        streaming = n * out.itemsize >= STREAM_MIN
        if kernels is not None and (workers == 1 or kernels.parallel_ok()):
            kernels.select(g, f, o, sel, workers, streaming)  # numba parallelises the flat case itself
            return _deliver(target, out)
        if kernels is not None:  # a forked child: serial numba loops on our pool
            pool.run_parallel(lambda r, _: kernels.select(g[r[0]:r[1]], f[r[0]:r[1]], o[r[0]:r[1]], sel, 1, streaming),
                              tiles.split(n, workers), workers)
            return _deliver(target, out)
        chunks = tiles.split(n, max(workers, -(-n // CHUNK)) if workers > 1 else 1)
        tile = tile or NUMPY_TILE
        pool.run_parallel(lambda r, scratch: _numpy_range(g, f, o, r, sel, tile, scratch), chunks, workers,
                          lambda: numpy_engine.Scratch(sel, min(tile, n)))
    else:
        shape = plan.shape
        views = (np.broadcast_to(grad, shape), np.broadcast_to(feature, shape), target)
        blocks = tiles.blocks(shape, tile or STAGE_TILE)
        size = max(target[blocks[0] + (Ellipsis,)].size, 1)  # the first block is a largest one
        pool.run_parallel(lambda idx, buffers: _staged(views, idx, plan, sel, kernels, buffers), blocks, workers,
                          lambda: _StageBuffers(plan.dtype, sel, size, kernels is None))
    return _deliver(target, out)


def _deliver(target, out):
    if target is not out:
        np.copyto(out, target)
    return out


def _flat(plan, grad, feature, out) -> bool:
    dtype, shape = plan.dtype, plan.shape
    return (grad.dtype == dtype and feature.dtype == dtype and grad.shape == shape and feature.shape == shape
            and grad.flags.c_contiguous and feature.flags.c_contiguous and out.flags.c_contiguous)


def _flat_bits(a, bits):
    return (a if a.ndim == 1 else a.reshape(-1)).view(bits)


def _overlaps(out, x) -> bool:
    """True if writing out could clobber x before it is read; an exact alias (out=grad) is safe."""
    if not np.may_share_memory(out, x):
        return False
    same_view = (x.shape == out.shape and x.strides == out.strides and x.itemsize == out.itemsize
                 and x.__array_interface__["data"][0] == out.__array_interface__["data"][0])
    return not same_view


def _numpy_range(g, f, o, bounds, sel, tile, scratch):
    lo, hi = bounds
    for start in range(lo, hi, tile):
        stop = min(start + tile, hi)
        numpy_engine.select_tile(g[start:stop], f[start:stop], o[start:stop], sel, scratch)


class _StageBuffers:
    """One worker's tile buffers for the staged path: grad, feature, out (and numpy scratch)."""

    def __init__(self, dtype, sel, size, numpy_scratch: bool):
        self.grad, self.feature, self.out = (np.empty(size, dtype) for _ in range(3))
        self.scratch = numpy_engine.Scratch(sel, size) if numpy_scratch else None


def _staged(views, idx, plan, sel, kernels, buffers: _StageBuffers):
    idx = idx + (Ellipsis,)  # a view even for 0-d arrays
    grad_v, feature_v, out_v = views
    g = _stage(grad_v[idx], buffers.grad, plan.dtype)
    f = _stage(feature_v[idx], buffers.feature, plan.dtype)
    block = out_v[idx]
    o = block.reshape(-1) if block.flags.c_contiguous else buffers.out[: block.size]
    gb, fb, ob = g.view(sel.bits), f.view(sel.bits), o.view(sel.bits)
    if kernels is not None:
        kernels.select(gb, fb, ob, sel)
    else:
        numpy_engine.select_tile(gb, fb, ob, sel, buffers.scratch)
    if not block.flags.c_contiguous:
        np.copyto(block, o.reshape(block.shape))


def _stage(view, buffer, dtype):
    """A 1-D contiguous array of `dtype` holding the block: the view itself when it already is one."""
    if view.dtype == dtype and view.flags.c_contiguous:
        return view.reshape(-1)
    staged = buffer[: view.size]
    with np.errstate(over="ignore", invalid="ignore"):  # torch's promotion casts overflow to inf too
        np.copyto(staged.reshape(view.shape), view, casting="unsafe")
    return staged
