"""The fast CPU path: one compiled engine for every layout, the numpy engine where it was not built.

- The C engine (opsnn/engine/_select.c, built at install where a C compiler is): a Lane per
  selection runs any layout in one pass: same-shape C-contiguous operands as flat ranges,
  broadcasting, strides (tiles for transposed views), 0-d operands, and other dtypes cast to the
  plan's on the way (numpy's casts, through numpy's iterator); on the calling thread or its own
  small pool; outputs far beyond the cache written with non-temporal stores. No compilation at
  run time.
- The numpy engine (no C compiler at install, or OPSNN_FAST_ENGINE=numpy): flat ranges in
  cache-sized tiles on our pool; anything else cut into N-d blocks of the broadcast shape, each
  staged into per-thread tile buffers (casting on the way), computed and copied into `out`.
"""
from __future__ import annotations

import numpy as np

from opsnn.engine import lanes, machine
from opsnn.op_common import pool, tiles

from . import ascend_rules, keep_range, numpy_engine
from .keep_range import Selection, selection
from .plan import Plan, memo_store

# The C engine's crossovers (threads, parallel_min, stream_min) and the numpy engine's tiles come
# from machine.tuning(): this machine's caches, a calibration (`opsnn tune`) or OPSNN_TUNING.
PARALLEL_MIN = 1 << 17  # numpy engine: bytes of output per thread from which our Python pool pays (~2-5 us)
CHUNK = 1 << 20         # flat path, numpy engine: elements a thread takes at a time
TINY = 1024             # numpy engine: elements below which the plain formula beats the tiled engine


def threshold_backward(grad, feature, plan: Plan, out=None, *, engine=None, tile=None, threads=None):
    """grad/feature: numpy arrays broadcastable to plan.shape (any dtypes: cast to plan.dtype);
    returns out (allocated if None). engine/tile/threads: force an engine, the numpy engine's tile
    (elements), the threads (both engines)."""
    sel = selection(plan)
    if not sel.empty and tile is None:
        lane = plan_lane(plan, sel, 2 if grad is feature else 3, engine, threads)
        if lane is not None:
            result = lanes.run(lane, grad, feature, plan.dtype, out)
            if result is not None:
                return result
        elif (engine is None and threads is None and plan.semantics == "torch" and plan.fill is None
              and grad.size <= TINY and grad.dtype == feature.dtype == plan.dtype and grad.shape == feature.shape):
            # numpy engine, a handful of elements: the one-line formula beats setting up tiles
            result = numpy_engine.torch_formula(grad, feature, plan.threshold, plan.dtype.type(0))
            return _deliver(result, out if out is not None else result)
    return _run(plan, sel, grad, feature, out, tile, threads)


def threshold(x, plan: Plan, out=None, *, engine=None, tile=None, threads=None):
    return threshold_backward(x, x, plan, out, engine=engine, tile=tile, threads=threads)


_FORWARD_PARAMS: dict = {}  # (dtype, semantics, scalars by type and bits) -> params (a pure function)


def ascend_forward_params(dtype: np.dtype, threshold, value, semantics: str):
    """keep_range.ascend_forward_params, memoised per dtype, semantics and scalars (by type and bits)."""
    from opsnn.activation.threshold_v2.scalar_to_tensor import convert_scalar
    key = (dtype, semantics, keep_range.scalar_key(threshold), keep_range.scalar_key(value))
    params = _FORWARD_PARAMS.get(key, False)
    if params is False:
        params = memo_store(_FORWARD_PARAMS, key, keep_range.ascend_forward_params(dtype, threshold, value, semantics,
                                                                                   convert_scalar))
    return params


def ascend_forward_lane(dtype: np.dtype, threshold, value, semantics: str):
    """The Lane of aclnnThreshold's rule (rank up to 8, as aclnn takes), or None where the C engine
    is not in use or every element (or none) is kept."""
    if compiled_lane() is None:
        return None
    params = ascend_forward_params(dtype, threshold, value, semantics)
    if params is None or params[:4] == keep_range.NOTHING_KEPT:
        return None
    return lanes.lane(dtype, params, arrays=2, max_rank=ascend_rules.MAX_RANK)


def threshold_ascend(x: np.ndarray, threshold, value, semantics: str, out=None):
    """aclnnThreshold's result on the C engine (x checked by the caller), or None where the engine
    is not in use or declines (the functional model answers then)."""
    lane = ascend_forward_lane(x.dtype, threshold, value, semantics)
    if lane is not None:
        return lane(x, x, out)
    if compiled_lane() is None:
        return None
    params = ascend_forward_params(x.dtype, threshold, value, semantics)  # memoised: every or no element kept
    target = np.empty(x.shape, x.dtype) if out is None else out
    if params is None:
        np.copyto(target, x)
    else:
        target.view(f"u{x.dtype.itemsize}")[...] = params[keep_range.FILL]
    return target


def plan_lane(plan: Plan, sel: Selection, arrays: int, engine=None, threads=None):
    """The C engine's Lane for a plan (memoised), or None for the numpy engine (also where the C
    engine was not built and `engine` does not require it; "c" then raises ImportError)."""
    compiled = compiled_lane() if engine is None else engine_lane(engine)
    if compiled is None:
        return None
    return lanes.lane(plan.dtype, tuple(sel.params.tolist()), arrays, lanes.ANY_RANK, threads or threads_allowed(),
                      compiled)


def stream_moved_min() -> int:
    """Bytes moved (all arrays) from which outputs are written with non-temporal stores."""
    return machine.tuning().stream_min


def streams(out_bytes: int, arrays: int) -> bool:
    """Whether an output of out_bytes, with `arrays` arrays moved per element, is written with
    non-temporal stores."""
    return out_bytes * arrays >= stream_moved_min()


# which engine (OPSNN_FAST_ENGINE) and its module: opsnn.engine.lanes decides for every operator
ENGINES, ENGINE_VARIABLE = lanes.ENGINES, lanes.ENGINE_VARIABLE
engine_lane = lanes.engine_module
compiled_lane = lanes.compiled  # a name of this module, so that tests can re-resolve it


THREADS_VARIABLE = machine.THREADS_VARIABLE


def threads_allowed() -> int:
    """Threads a call may use (machine.thread_rule: $OPSNN_NUM_THREADS, else the first number of
    $OMP_NUM_THREADS, else the cores this process may run on; OPSNN_TUNING's threads first)."""
    return machine.tuning().threads


def _run(plan, sel: Selection, grad, feature, out, tile, threads):
    """The numpy engine (and every call with nothing kept)."""
    if out is None:
        out = np.empty(plan.shape, plan.dtype)
    n = out.size
    if n == 0:
        return out
    if sel.empty:  # no grad survives the comparison: inputs need not be read at all
        np.copyto(out, sel.fill.view(plan.dtype))
        return out
    target = out
    if _overlaps(out, grad) or _overlaps(out, feature):
        target = np.empty(plan.shape, plan.dtype)  # a shifted alias would read what it just wrote
    workers = threads or min(threads_allowed(), max(1, n * out.itemsize // PARALLEL_MIN))
    if _flat(plan, grad, feature, target):
        bits = sel.bits
        g, f, o = _flat_bits(grad, bits), _flat_bits(feature, bits), _flat_bits(target, bits)
        chunks = tiles.split(n, max(workers, -(-n // CHUNK)) if workers > 1 else 1)
        tile = tile or machine.tuning().numpy_tile
        pool.run_parallel(lambda r, scratch: _numpy_range(g, f, o, r, sel, tile, scratch), chunks, workers,
                          lambda: numpy_engine.Scratch(sel, min(tile, n)))
    else:
        shape = plan.shape
        views = (np.broadcast_to(grad, shape), np.broadcast_to(feature, shape), target)
        blocks = tiles.blocks(shape, tile or machine.tuning().stage_tile)
        size = max(target[blocks[0] + (Ellipsis,)].size, 1)  # the first block is a largest one
        pool.run_parallel(lambda idx, buffers: _staged(views, idx, plan, sel, buffers), blocks, workers,
                          lambda: _StageBuffers(plan.dtype, sel, size))
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
    """One worker's tile buffers for the staged path: grad, feature, out, and numpy scratch."""

    def __init__(self, dtype, sel, size):
        self.grad, self.feature, self.out = (np.empty(size, dtype) for _ in range(3))
        self.scratch = numpy_engine.Scratch(sel, size)


def _staged(views, idx, plan, sel, buffers: _StageBuffers):
    idx = idx + (Ellipsis,)  # a view even for 0-d arrays
    grad_v, feature_v, out_v = views
    g = _stage(grad_v[idx], buffers.grad, plan.dtype)
    f = _stage(feature_v[idx], buffers.feature, plan.dtype)
    block = out_v[idx]
    o = block.reshape(-1) if block.flags.c_contiguous else buffers.out[: block.size]
    numpy_engine.select_tile(g.view(sel.bits), f.view(sel.bits), o.view(sel.bits), sel, buffers.scratch)
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
