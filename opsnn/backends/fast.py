"""The fast CPU path: one fused select per tile, tiles spread over all cores.

- Same-dtype, same-shape, C-contiguous operands (the common case) are flat ranges: numba's loop
  streams them once (no temporaries at all), on the calling thread below PARALLEL_MIN bytes of
  output per thread and on numba's worker threads above; outputs beyond STREAM_MIN are written
  with non-temporal stores. That path is kept short: for small calls Python is all there is.
  The numpy engine walks flat ranges in cache-sized tiles on our pool.
- Anything else (broadcasting, strides, negative strides, torch's dtype promotion) is cut into
  N-d blocks of the broadcast shape; each block is staged into per-thread tile buffers (casting
  on the way), computed, and copied into `out` through its view. Extra memory: threads x tile.
"""
from __future__ import annotations

import functools
import importlib
import os

import numpy as np

from opsnn.backends import numpy_engine, pool, tiles
from opsnn.backends.keep_range import Selection, selection
from opsnn.backends.plan import Plan
from opsnn.dtypes import bfloat16

# Crossovers measured on a 2-core AMD EPYC VM (32 MiB L3), see benchmarks/bench_threshold_backward.py:
PARALLEL_MIN = 1 << 17  # bytes of output per thread from which a second thread pays for its ~2-5 us launch
C_PARALLEL_MIN = 1 << 14  # the same for the C lane's own pool, whose spinning workers start a part in
                          # well under 1 us (float16 at 32 K: 1.2 us on two threads, 1.9 us on one)
NUMPY_TILE = 1 << 14    # numpy engine: ~10 passes per tile, so keep a tile's buffers in L2
STAGE_TILE = 1 << 17    # staged blocks (both engines): 3 buffers of up to 1 MiB stay in a 4 MiB L2
STREAM_MIN = 12 << 20   # bytes of backward output (x3 moved) from which non-temporal stores beat plain
                        # ones: while the operands fit in L3, plain stores are 2-3x faster (4 MiB out:
                        # 72 vs 153 us); from 12-16 MiB out (36-48 MiB moved) streaming wins (16 MiB:
                        # 746 vs 1114 us). The forward moves 2 bytes per output byte: it streams from
                        # the same bytes moved (16 MiB f32 out: 488 us plain vs 667 streaming).
_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)
CHUNK = 1 << 20         # flat path, numpy engine: elements a thread takes at a time
TINY = 1024             # numpy engine: elements below which the plain formula beats the tiled engine
ENGINES = ("auto", "c", "numba", "numpy")  # "c": the C express lane required, numba for the rest
ENGINE_VARIABLE = "OPSNN_FAST_ENGINE"  # read once, at the first call (reading it costs ~0.5 us)


def threshold_backward(grad, feature, plan: Plan, out=None, *, engine=None, tile=None, threads=None):
    """grad/feature: numpy arrays broadcastable to plan.shape; returns out (allocated if None)."""
    sel = selection(plan)
    if engine is None and tile is None and threads is None:
        kernels = default_kernels()
        if kernels is not None:
            result = _flat_numba(kernels, grad, feature, out, plan.dtype, sel)
            if result is None and grad.shape != feature.shape:
                result = _periodic_numba(kernels, grad, feature, out, plan, sel)
            elif result is None and plan.semantics == "torch" and not sel.empty:
                result = _mixed_numba(kernels, grad, feature, out, plan)
            if result is None:
                result = _strided_2d_numba(kernels, grad, feature, out, plan, sel)
            if result is not None:
                return result
        elif (plan.semantics == "torch" and grad.size <= TINY and grad.dtype == feature.dtype == plan.dtype
              and grad.shape == feature.shape):
            # numpy engine, a handful of elements: the one-line formula beats setting up tiles
            result = numpy_engine.torch_formula(grad, feature, plan.threshold, plan.dtype.type(0))
            return _deliver(result, out if out is not None else result)
    return _run(plan, sel, grad, feature, out, engine, tile, threads)


def threshold(x, plan: Plan, out=None, *, engine=None, tile=None, threads=None):
    sel = selection(plan)
    if engine is None and tile is None and threads is None:
        kernels = default_kernels()
        if kernels is not None:
            result = _flat_numba(kernels, x, x, out, plan.dtype, sel)
            if result is not None:
                return result
    return _run(plan, sel, x, x, out, engine, tile, threads)


def stream_moved_min() -> int:
    """Bytes moved from which outputs are written with non-temporal stores (the crossover is a
    matter of bytes moved against the cache: STREAM_MIN of backward output, 3 arrays moved)."""
    return 3 * STREAM_MIN


def streams(out_bytes: int, arrays: int) -> bool:
    """Whether an output of out_bytes, with `arrays` arrays moved per element, is written with
    non-temporal stores."""
    return out_bytes * arrays >= stream_moved_min()


def _engine_name(engine: str | None) -> str:
    engine = engine or os.environ.get(ENGINE_VARIABLE, "auto")
    if engine not in ENGINES:
        raise ValueError(f"unknown fast engine {engine!r}; known: {', '.join(ENGINES)}")
    return engine


# A required engine that cannot be imported: the first call says what to do, in one line.
_MISSING = {
    "opsnn.backends._select": ("c", "the C express lane (opsnn.backends._select), which this installation does not "
                               "have: install a C compiler and the Python headers (e.g. apt install gcc python3-dev) "
                               "and reinstall opsnn"),
    "opsnn.backends.numba_kernels": ("numba", "numba (opsnn.backends.numba_kernels), which cannot be imported: "
                                     "pip install 'opsnn[fast]'"),
}


def _import_engine(module: str, required: bool):
    """The module, or None where it cannot be imported (ImportError if `required`). import_module,
    not a sys.modules lookup: while another thread is still importing the module, it waits for that
    import to finish instead of returning the half-built module."""
    try:
        return importlib.import_module(module)
    except ImportError:
        if required:
            engine, needs = _MISSING[module]
            raise ImportError(f"{ENGINE_VARIABLE}={engine} needs {needs}, or unset {ENGINE_VARIABLE}") from None
        return None


def engine_kernels(engine: str | None):
    """The numba kernels module, or None for the numpy engine (also when numba is not installed)."""
    engine = _engine_name(engine)
    return None if engine == "numpy" else _import_engine("opsnn.backends.numba_kernels", engine == "numba")


def engine_lane(engine: str | None):
    """The C express lane's module (opsnn.backends._select), or None: with "numba" or "numpy", or
    where it was not built (no C compiler at install; "c" then raises ImportError)."""
    engine = _engine_name(engine)
    return _import_engine("opsnn.backends._select", engine == "c") if engine in ("auto", "c") else None


@functools.cache
def compiled_lane():
    """engine_lane() for the environment's engine, resolved once per process (cache_clear() to re-read)."""
    return engine_lane(None)


@functools.cache  # a cache of the environment and of an import: both are the same on every call
def default_kernels():
    """engine_kernels() for the environment's engine, resolved once per process (cache_clear() to re-read)."""
    return engine_kernels(None)


THREADS_VARIABLE = "OPSNN_NUM_THREADS"


@functools.cache
def threads_allowed() -> int:
    """Threads a call may use: $OPSNN_NUM_THREADS, else the first number of $OMP_NUM_THREADS (as
    torch and the BLAS libraries read it), else the cores this process may run on. Read once."""
    for name in (THREADS_VARIABLE, "OMP_NUM_THREADS"):
        text = os.environ.get(name, "").split(",")[0].strip()
        if not text:
            continue
        try:
            count = int(text)
        except ValueError:
            count = 0
        if count >= 1:
            return min(count, 1024)
        if name == THREADS_VARIABLE:
            raise ValueError(f"{name}={os.environ[name]!r}: expected a positive integer")
    return pool.cpu_count()


@functools.cache
def thread_limit() -> int:
    """threads_allowed(), and for numba no more than its own NUMBA_NUM_THREADS."""
    kernels = default_kernels()
    return min(threads_allowed(), kernels.max_threads()) if kernels is not None else threads_allowed()


# numba's OpenMP threads do not survive fork(): a forked child runs numba's serial loops only
# (on our pool where it wants threads). Set by a fork hook rather than compared against getpid()
# on every call; the express lane reads it too.
in_forked_child = False


def _after_fork() -> None:
    global in_forked_child
    in_forked_child = True


os.register_at_fork(after_in_child=_after_fork)


def numba_workers(out_bytes: int) -> int:
    """How many of numba's threads a call with out_bytes of output runs on: one per PARALLEL_MIN
    bytes, at most thread_limit(); 1 in a forked child."""
    return 1 if in_forked_child else min(thread_limit(), max(1, out_bytes // PARALLEL_MIN))


def _flat_numba(kernels, grad, feature, out, dtype, sel: Selection):
    """The common case on numba's loops with as little Python as possible; None where it does not apply
    (the caller then takes the general path)."""
    if grad.dtype != dtype or feature.dtype != dtype or grad.shape != feature.shape or sel.empty:
        return None
    grad_flags, feature_flags = grad.flags, feature.flags
    if not (grad_flags.c_contiguous and feature_flags.c_contiguous):
        return None
    aligned = grad_flags.aligned and feature_flags.aligned
    flat = grad.ndim == 1
    g, f = (grad, feature) if flat else (grad.ravel(), feature.ravel())
    if out is None:
        if sel.builtin:
            o = np.empty(g.shape[0], dtype)
            result = o if flat else o.reshape(grad.shape)
        else:
            o = np.empty(g.shape[0], sel.bits)
            result = o.view(dtype) if flat else o.view(dtype).reshape(grad.shape)
    elif (out_flags := out.flags).c_contiguous:
        aligned = aligned and out_flags.aligned
        result = out
        o = out if flat else out.ravel()
        if not sel.builtin:
            o = o.view(sel.bits)
    else:
        return None
    if not sel.builtin:  # numba has no float16/bfloat16 arrays: their bits
        g, f = g.view(sel.bits), f.view(sel.bits)
    nbytes = o.nbytes
    workers = min(thread_limit(), nbytes // PARALLEL_MIN)
    if workers < 2:
        if aligned:  # exactly the entry point's array type (contiguity checked above)
            clobbered = kernels.serial_entry(o.dtype)(g, f, o, sel.params, False)
        else:
            clobbered = kernels.run(g, f, o, sel.params, False)
    elif not in_forked_child:
        with kernels.launch_lock:
            clobbered = kernels.run_parallel(g, f, o, sel.params, workers, streams(nbytes, 2 if grad is feature else 3))
    else:
        return None  # a forked child: numba's OpenMP pool cannot cross fork(); the general path uses ours
    return None if clobbered else result  # a shifted alias of an input: the general path copies first


_F16 = np.dtype(np.float16)
_BITS_KIND = {_F16: 1, bfloat16: 2}  # numba_kernels.HALF_BITS, BFLOAT_BITS: read from their uint16 bits


def _mixed_numba(kernels, grad, feature, out, plan):
    """torch's promotion (operands of other dtypes than the result) on numba's cast-as-you-go loop;
    None where it does not apply: a float16/bfloat16 result (compared in float32, rounded back),
    broadcasting, non-contiguous operands or out."""
    dtype = plan.dtype
    if not (dtype.kind in "iu" or dtype == _F32 or dtype == _F64) or grad.shape != feature.shape:
        return None
    kinds = []
    operands = []
    for a in (grad, feature):
        flags = a.flags
        if not (flags.c_contiguous and flags.aligned and a.dtype.isnative):
            return None
        kind = _BITS_KIND.get(a.dtype, 0)
        if (kind == 0 and a.dtype.kind not in "biuf") or (kind and dtype != _F32):
            return None  # halves only into float32: numpy's half -> double keeps a signalling NaN's
                         # payload unquieted, a float32 -> double conversion on the CPU would not
        flat = a.reshape(-1)
        operands.append(flat.view(np.uint16) if kind else flat)
        kinds.append(kind)
    if out is None:
        out = np.empty(plan.shape, dtype)
    elif not (out.flags.c_contiguous and out.flags.aligned):
        return None
    o = out.reshape(-1)
    workers = numba_workers(o.nbytes)
    with kernels.launch_lock:
        clobbered = kernels.run_mixed(operands[0], operands[1], o, plan.threshold, kinds[0], kinds[1], workers)
    return None if clobbered else out


def _strided_2d_numba(kernels, grad, feature, out, plan, sel: Selection):
    """Two-dimensional results whose operands or out are strided (transposed views, slices, broadcasts
    that are not a row) on numba's blocked 2-d loop, no staging copies; None where it does not apply."""
    dtype, shape = plan.dtype, plan.shape
    if len(shape) != 2 or sel.empty or grad.dtype != dtype or feature.dtype != dtype or not all(shape):
        return None
    if out is None:
        out = np.empty(shape, dtype)
    elif np.may_share_memory(out, grad) or np.may_share_memory(out, feature):
        return None  # the general path copies first where it must
    views = [np.broadcast_to(a, shape).view(sel.bits) for a in (grad, feature)]
    o = out.view(sel.bits)
    workers = numba_workers(o.nbytes)
    with kernels.launch_lock:
        kernels.run_2d(views[0], views[1], o, sel.params, workers)
    return out


PERIOD_MIN = 128  # elements: shorter repeated rows cost more per row than the staged path


def _periodic_numba(kernels, grad, feature, out, plan, sel: Selection):
    """A row broadcast (feature (C,) against grad (N, C), or the reverse) as rows of numba's flat loop:
    no staging copies. None where it does not apply."""
    dtype, shape = plan.dtype, plan.shape
    if grad.dtype != dtype or feature.dtype != dtype or sel.empty or not shape:
        return None
    full, part = (grad, feature) if grad.shape == shape else (feature, grad)
    row_shape = part.shape[next((i for i, d in enumerate(part.shape) if d != 1), part.ndim):]
    if (full.shape != shape or part.size < PERIOD_MIN or shape[len(shape) - len(row_shape):] != row_shape
            or not (full.flags.c_contiguous and part.flags.c_contiguous)):
        return None
    if out is None:
        out = np.empty(shape, dtype)
    elif not out.flags.c_contiguous or _overlaps(out, full) or np.may_share_memory(out, part):
        return None
    cast = (lambda a: a.reshape(-1)) if sel.builtin else (lambda a: a.reshape(-1).view(sel.bits))
    o, g, f = cast(out), cast(grad), cast(feature)
    g_period, f_period = part is grad, part is feature
    workers = min(thread_limit(), o.nbytes // PARALLEL_MIN, o.shape[0] // part.size)
    if workers < 2:
        kernels.run_periodic(g, f, o, sel.params, g_period, f_period)
    elif not in_forked_child:
        with kernels.launch_lock:
            kernels.run_periodic_parallel(g, f, o, sel.params, g_period, f_period, workers)
    else:
        return None
    return out


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
    workers = threads or min(thread_limit(), max(1, n * out.itemsize // PARALLEL_MIN))
    if _flat(plan, grad, feature, target):
        bits = sel.bits
        g, f, o = _flat_bits(grad, bits), _flat_bits(feature, bits), _flat_bits(target, bits)
        streaming = streams(n * out.itemsize, 2 if grad is feature else 3)
        if kernels is not None and workers == 1:
            kernels.run(g, f, o, sel.params, streaming)
        elif kernels is not None and not in_forked_child:
            with kernels.launch_lock:
                kernels.run_parallel(g, f, o, sel.params, workers, streaming)
        elif kernels is not None:  # a forked child: serial numba loops on our pool
            pool.run_parallel(lambda r, _: kernels.run(g[r[0]:r[1]], f[r[0]:r[1]], o[r[0]:r[1]], sel.params,
                                                       streaming), tiles.split(n, workers), workers)
        else:
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
        kernels.run(gb, fb, ob, sel.params, False)
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
