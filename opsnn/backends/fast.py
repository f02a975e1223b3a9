"""The fast CPU path: one fused select per tile, tiles spread over all cores.

- Same-dtype, same-shape, C-contiguous operands (the common case) are flat ranges, one per thread;
  numba's loop streams each range once (no temporaries at all), the numpy engine walks it in
  cache-sized tiles.
- Anything else (broadcasting, strides, negative strides, torch's dtype promotion) is cut into
  N-d blocks of the broadcast shape; each block is staged into per-thread tile buffers (casting
  on the way), computed, and copied into `out` through its view. Extra memory: threads x tile.
- Below PARALLEL_MIN elements per thread everything runs on the calling thread.
"""
from __future__ import annotations

import importlib
import os

import numpy as np

from opsnn.backends import numpy_engine, pool, reference, tiles
from opsnn.backends.keep_range import Selection, selection
from opsnn.backends.plan import Plan

PARALLEL_MIN = 1 << 17  # elements per thread below which threading costs more than it gains
NUMPY_TILE = 1 << 14    # numpy engine: ~10 passes per tile, so keep a tile's buffers in L2
STAGE_TILE = 1 << 15    # staged blocks (both engines)
ENGINES = ("auto", "numba", "numpy")


TINY = 64  # elements: below this the plain formula beats setting up the fused kernel


def threshold_backward(grad, feature, plan: Plan, out=None, *, engine=None, tile=None, threads=None):
    """grad/feature: numpy arrays broadcastable to plan.shape; returns out (allocated if None)."""
    if (out is None and plan.semantics == "torch" and grad.size <= TINY and grad.dtype == feature.dtype
            and grad.shape == feature.shape and engine is None):
        # a handful of elements: Python overhead is all there is, so use the one-line formula
        return reference.torch_rule(grad, feature, plan.threshold, plan.dtype.type(0))
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
    parts = threads or min(pool.cpu_count(), max(1, n // PARALLEL_MIN))
    if _flat(plan, grad, feature, target):
        bits = sel.bits
        g, f, o = (a.reshape(-1).view(bits) for a in (grad, feature, target))
        ranges = tiles.split(n, parts)
        pool.run_parallel(lambda r: _flat_range(g, f, o, r, sel, kernels, tile), ranges)
    else:
        shape = plan.shape
        views = (np.broadcast_to(grad, shape), np.broadcast_to(feature, shape), target)
        blocks = tiles.blocks(shape, tile or STAGE_TILE)
        groups = [blocks[lo:hi] for lo, hi in _split_list(len(blocks), parts)]
        pool.run_parallel(lambda group: _staged(views, group, plan, sel, kernels, tile), groups)
    if target is not out:
        np.copyto(out, target)
    return out


def _flat(plan, grad, feature, out) -> bool:
    return all(a.dtype == plan.dtype and a.shape == plan.shape and a.flags.c_contiguous for a in (grad, feature, out))


def _overlaps(out, x) -> bool:
    """True if writing out could clobber x before it is read; an exact alias (out=grad) is safe."""
    if not np.may_share_memory(out, x):
        return False
    same_view = (x.shape == out.shape and x.strides == out.strides and x.itemsize == out.itemsize
                 and x.__array_interface__["data"][0] == out.__array_interface__["data"][0])
    return not same_view


def _split_list(n, parts):
    bounds = [n * i // parts for i in range(parts + 1)]
    return [(lo, hi) for lo, hi in zip(bounds, bounds[1:], strict=False) if hi > lo]


def _flat_range(g, f, o, bounds, sel, kernels, tile):
    lo, hi = bounds
    if kernels is not None:
        kernels.select(g[lo:hi], f[lo:hi], o[lo:hi], sel)
        return
    tile = tile or NUMPY_TILE
    scratch = numpy_engine.Scratch(sel, min(tile, hi - lo))
    for start in range(lo, hi, tile):
        stop = min(start + tile, hi)
        numpy_engine.select_tile(g[start:stop], f[start:stop], o[start:stop], sel, scratch)


def _staged(views, group, plan, sel, kernels, tile):
    grad_v, feature_v, out_v = views
    size = max(out_v[idx + (Ellipsis,)].size for idx in group)
    buffers = [np.empty(size, plan.dtype) for _ in range(3)]
    scratch = numpy_engine.Scratch(sel, size) if kernels is None else None
    for idx in group:
        idx = idx + (Ellipsis,)  # a view even for 0-d arrays
        g = _stage(grad_v[idx], buffers[0], plan.dtype)
        f = _stage(feature_v[idx], buffers[1], plan.dtype)
        block = out_v[idx]
        o = block.reshape(-1) if block.flags.c_contiguous else buffers[2][: block.size]
        gb, fb, ob = g.view(sel.bits), f.view(sel.bits), o.view(sel.bits)
        if kernels is not None:
            kernels.select(gb, fb, ob, sel)
        else:
            numpy_engine.select_tile(gb, fb, ob, sel, scratch)
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
