"""torch's binary elementwise CPU loop, as far as bits depend on it: which elements go through the
vectorised body and which through the scalar one. Kernels whose two bodies disagree (NaN handling
in hardtanh_backward; NaN narrowing to bfloat16 in leaky_relu_backward) need it to match torch bit
for bit. TensorIterator coalesces the dims, splits the range over threads (GRAIN_SIZE), and runs
each inner row segment two vectors at a time from its start, the remainder scalar. Measured on
torch 2.13, x86 (the AVX2 build of the kernels runs on AVX2 and AVX512 machines: 64 bytes per
vectorised step). torch is never imported here; its thread count is read from it where loaded."""
from __future__ import annotations

import contextlib
import contextvars
import functools
import math
import os
import sys
from typing import NamedTuple

import numpy as np

TORCH_GRAIN_SIZE = 32768  # at::internal::GRAIN_SIZE: below it TensorIterator runs on one thread
TORCH_STEP_BYTES = 64  # two 32-byte vectors per step of vectorized_loop


def _env_threads(name: str) -> int:
    text = os.environ.get(name)
    if not text:  # the usual case, without the cost of a ValueError
        return 0
    try:
        n = int(text)
    except ValueError:
        return 0
    return max(n, 0)


@functools.cache  # the topology and this process's CPUs: read once (every call read 8 sysfs files: ~70 us)
def _physical_cores() -> int:
    """The physical cores among the CPUs this process may run on (SMT siblings counted once)."""
    try:
        cpus = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1
    cores = set()
    for cpu in cpus:
        try:
            topology = f"/sys/devices/system/cpu/cpu{cpu}/topology/"
            with open(topology + "physical_package_id") as f1, open(topology + "core_id") as f2:
                cores.add((f1.read().strip(), f2.read().strip()))
        except OSError:
            return len(cpus)
    return len(cores) or len(cpus)


def torch_threads() -> int:
    """at::get_num_threads(): torch's own answer where torch is already loaded in this process (a
    torch.set_num_threads() seen, and the environment as torch read it at its start: a library
    may change OMP_NUM_THREADS later, as dask's distributed does), else as torch would start it:
    OMP_NUM_THREADS, else MKL_NUM_THREADS, else the physical cores. torch is never imported here."""
    torch = sys.modules.get("torch")
    if torch is not None and callable(getattr(torch, "get_num_threads", None)):
        return int(torch.get_num_threads())
    return _env_threads("OMP_NUM_THREADS") or _env_threads("MKL_NUM_THREADS") or _physical_cores()


def _operand_strides(shape: tuple[int, ...], out_shape: tuple[int, ...]) -> list[int]:
    """Element strides of a C-contiguous operand broadcast to out_shape (0 on broadcast dims)."""
    shape = (1,) * (len(out_shape) - len(shape)) + tuple(shape)
    strides, step = [], 1
    for d, o in zip(reversed(shape), reversed(out_shape), strict=True):
        strides.append(0 if d == 1 and o != 1 else step)
        step *= d
    return strides[::-1]


def _threads(threads: int | None) -> int:
    """A caller's thread count, or torch's where it gives none."""
    return torch_threads() if threads is None else max(int(threads), 1)


def _thread_ranges(numel: int, threads: int | None) -> list[tuple[int, int]]:
    """How TensorIterator splits numel elements over torch's threads (at::parallel_for)."""
    threads = _threads(threads)
    if numel < TORCH_GRAIN_SIZE or threads == 1:
        return [(0, numel)]
    tasks = min(threads, -(-numel // TORCH_GRAIN_SIZE))
    size = -(-numel // tasks)
    return [(b, min(numel, b + size)) for b in range(0, numel, size)]


def torch_scalar_runs(numel: int, itemsize: int, threads: int | None = None) -> tuple[tuple[int, int], ...]:
    """Where torch's CPU loop runs the scalar body for operands of one shape and dtype, all
    C-contiguous (TensorIterator sees one row of numel elements): each thread range's tail past
    its last whole vectorised step; the rest (torch_vector_lanes' True) is vectorised. Inside
    `place(...)`: the chunk's C-order elements that the whole arrays' loop runs scalar."""
    if (where := _PLACE.get()) is not None:
        return _placed_runs(where, numel, itemsize, threads)
    if numel < TORCH_GRAIN_SIZE:  # one range whatever the threads (and no need to ask for them)
        return _scalar_runs(numel, itemsize, 1)
    return _scalar_runs(numel, itemsize, _threads(threads))


@functools.lru_cache(maxsize=256)  # an express call asks once per call: ~1.5 us computed, 0.1 remembered
def _scalar_runs(numel: int, itemsize: int, threads: int) -> tuple[tuple[int, int], ...]:
    step = max(TORCH_STEP_BYTES // itemsize, 1)
    return tuple((b + (e - b) // step * step, e) for b, e in _thread_ranges(numel, threads) if (e - b) % step)


def torch_vector_lanes(grad_shape, x_shape, itemsize: int, threads: int | None = None) -> np.ndarray:
    """Bool array of the broadcast shape: True where torch's CPU loop runs the vectorised body
    for hardtanh_backward(grad, x) with C-contiguous operands of one dtype of `itemsize` bytes.
    Inside `place(...)` (a chunk of a larger array, opsnn.dask): the chunk's part of the whole
    array's answer."""
    out_shape = tuple(broadcast_shapes(tuple(grad_shape), tuple(x_shape)))
    where = _PLACE.get()
    if where is not None:
        return _placed_lanes(where, out_shape, itemsize, threads)
    numel = math.prod(out_shape)
    lanes = np.zeros(numel, dtype=bool)
    inner = _vector_rows(out_shape, grad_shape, x_shape)
    if inner is None:
        return lanes.reshape(out_shape)
    step = max(TORCH_STEP_BYTES // itemsize, 1)
    ranges = _thread_ranges(numel, threads)
    # whole rows: the first floor(inner / step) * step columns; then the rows a range cuts
    col = np.arange(numel, dtype=np.int64) % inner
    lanes[:] = col < inner // step * step
    for begin, end in ranges:
        pos = begin
        while pos < end:
            c = pos % inner
            seg = min(inner - c, end - pos)
            if c or seg != inner:  # a segment that is not a whole row: its own vector prefix
                lanes[pos:pos + seg] = False
                lanes[pos:pos + seg // step * step] = True
                pos += seg
            else:  # whole rows up to the range's last one
                whole = (end - pos) // inner
                pos += max(whole, 1) * inner
    return lanes.reshape(out_shape)


def torch_vector_mask(operands, dtype, itemsize: int | None = None, threads: int | None = None) -> np.ndarray:
    """Bool array of the broadcast shape: True where torch's CPU loop runs the vectorised body for
    these operands as they lie in memory (their strides), computing in `dtype` (the common dtype:
    an operand of another dtype is first converted, as TensorIterator does on CPU, keeping its
    strides where it is dense and C-contiguous otherwise). `itemsize`: the kernel's bytes per
    element for the 64-byte step (default dtype's). What TensorIterator does, in its order: the
    dims sorted by the inputs' strides (reorder_dimensions), coalesced, the inner row vectorised
    where every input is contiguous in it or one is a broadcast scalar (else the basic loop: all
    scalar), the range over threads; a new output is dense in that order. Negative strides (which
    torch cannot express) are read as a C-contiguous operand. Inside `place(...)`: as
    torch_vector_lanes (the whole arrays C-contiguous)."""
    dtype = np.dtype(dtype)
    itemsize = itemsize or dtype.itemsize
    shapes = [tuple(a.shape) for a in operands]
    if _PLACE.get() is not None or all(a.flags.c_contiguous for a in operands):
        return torch_vector_lanes(*shapes, itemsize, threads) if len(shapes) == 2 else \
            _lanes_in_order(tuple(broadcast_shapes(*shapes)), [_c_strides(s) for s in shapes], itemsize, threads)
    return _lanes_in_order(tuple(broadcast_shapes(*shapes)), [_element_strides(a, dtype) for a in operands],
                           itemsize, threads)


def _c_strides(shape) -> tuple:
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step if n > 1 else 0)
        step *= n
    return tuple(strides[::-1])


def _element_strides(a: np.ndarray, dtype: np.dtype) -> tuple:
    """a's strides in elements as TensorIterator sees it: a converted operand keeps its layout
    only where it is dense (Tensor.to's preserve_format), as does any with a negative stride."""
    if any(s < 0 for s in a.strides) or (a.dtype != dtype and not _dense(a)):
        return _c_strides(a.shape)
    return tuple(s // a.itemsize if n > 1 else 0 for s, n in zip(a.strides, a.shape, strict=True))


def _dense(a: np.ndarray) -> bool:
    """Non-overlapping and dense: the elements fill a block of memory with no gap."""
    span = sum((n - 1) * abs(s) for n, s in zip(a.shape, a.strides, strict=True) if n > 1)
    return a.size <= 1 or (span // a.itemsize + 1 == a.size and all(s % a.itemsize == 0 for s in a.strides))


def _lanes_in_order(out_shape: tuple, strides: list, itemsize: int, threads) -> np.ndarray:
    """torch_vector_mask's answer from the operands' element strides (C axis order, each over its
    own shape)."""
    nd, numel = len(out_shape), math.prod(out_shape)
    if numel < 2:
        return np.zeros(out_shape, bool)
    st = []  # per input, fastest dim first, over the broadcast shape (0: broadcast)
    for s in strides:
        s = (0,) * (nd - len(s)) + tuple(s)
        st.append([0 if out_shape[d] == 1 else s[d] for d in range(nd)][::-1])
    shape = list(out_shape[::-1])
    perm = list(range(nd))  # TensorIterator's perm_, fastest first

    def should_swap(d0: int, d1: int) -> int:
        for s in st:  # the inputs in order (a new output has no strides yet)
            s0, s1 = s[d0], s[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    for i in range(1, nd):  # insertion sort with ambiguous comparisons (reorder_dimensions)
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    sizes = [shape[d] for d in perm]
    pst = [[s[d] for d in perm] for s in st]
    out_st, step = [], 1  # the new output: dense in the sorted order
    for n in sizes:
        out_st.append(step)
        step *= n
    all_st = [out_st, *pst]
    prev = 0  # coalesce_dimensions
    csize, cst = sizes[:1], [s[:1] for s in all_st]
    for d in range(1, nd):
        if csize[prev] == 1 or sizes[d] == 1 or all(csize[prev] * c[prev] == s[d] for c, s in zip(cst, all_st,
                                                                                                 strict=True)):
            if csize[prev] == 1:
                for c, s in zip(cst, all_st, strict=True):
                    c[prev] = s[d]
            csize[prev] *= sizes[d]
        else:
            prev += 1
            csize.append(sizes[d])
            for c, s in zip(cst, all_st, strict=True):
                c.append(s[d])
    inner = [c[0] for c in cst[1:]]
    vectorised = cst[0][0] == 1 and (all(s == 1 for s in inner) or (len(inner) == 2 and sorted(inner) == [0, 1]))
    if not vectorised:
        return np.zeros(out_shape, bool)
    mult, m = [0] * nd, 1  # each C axis's weight in the iteration's linear order
    for d in perm:
        mult[nd - 1 - d] = m
        m *= shape[d]
    lin = np.zeros(out_shape, np.int64)
    for axis in range(nd):
        view = [1] * nd
        view[axis] = out_shape[axis]
        lin = lin + (np.arange(out_shape[axis], dtype=np.int64) * mult[axis]).reshape(view)
    return _segment_prefix(lin, numel, csize[0], itemsize, threads)


def _segment_prefix(lin: np.ndarray, numel: int, inner: int, itemsize: int, threads) -> np.ndarray:
    """True at the iteration positions `lin` that a row segment's vectorised prefix covers: each
    thread range runs its part of a row of `inner` elements two vectors at a time from its start."""
    step = max(TORCH_STEP_BYTES // itemsize, 1)
    begins, ends = (np.array(side, np.int64) for side in zip(*_thread_ranges(numel, threads), strict=True))
    r = np.searchsorted(begins, lin, side="right") - 1
    row = lin - lin % inner
    seg_start = np.maximum(row, begins[r])
    seg_end = np.minimum(row + inner, ends[r])
    return (lin - seg_start) < (seg_end - seg_start) // step * step


def _vector_rows(out_shape: tuple, grad_shape, x_shape) -> int | None:
    """The row length of TensorIterator's coalesced view where its inner loop vectorises (all
    operands contiguous, or one of them a broadcast scalar); None where every element runs scalar."""
    if math.prod(out_shape) < 2:
        return None
    # TensorIterator's view: dims fastest first, then coalesced
    shape = list(out_shape[::-1])
    strides = [_operand_strides(s, out_shape)[::-1] for s in (out_shape, tuple(grad_shape), tuple(x_shape))]
    prev = 0
    for dim in range(1, len(shape)):
        if shape[prev] == 1 or shape[dim] == 1 or all(st[prev] * shape[prev] == st[dim] for st in strides):
            if shape[prev] == 1:
                for st in strides:
                    st[prev] = st[dim]
            shape[prev] *= shape[dim]
        else:
            prev += 1
            shape[prev] = shape[dim]
            for st in strides:
                st[prev] = st[dim]
    out_s, *in_s = (st[0] for st in strides)
    contiguous = out_s == 1 and all(s == 1 for s in in_s)
    one_scalar = out_s == 1 and sorted(in_s) == [0, 1]  # VectorizedLoop2d's single stride-0 operand
    return shape[0] if contiguous or one_scalar else None  # else basic_loop: every element scalar


def _lanes_at(out_shape, grad_shape, x_shape, itemsize: int, threads, flat: np.ndarray) -> np.ndarray:
    """torch_vector_lanes at the flat (C-order) positions `flat` of the broadcast shape, in flat's
    shape: each thread range runs its part of a row (a segment) two vectors at a time from the
    segment's start, the remainder scalar."""
    inner = _vector_rows(out_shape, grad_shape, x_shape)
    if inner is None:
        return np.zeros(flat.shape, dtype=bool)
    step = max(TORCH_STEP_BYTES // itemsize, 1)
    begins, ends = (np.array(side, np.int64) for side in zip(*_thread_ranges(math.prod(out_shape), threads),
                                                                strict=True))
    r = np.searchsorted(begins, flat, side="right") - 1
    row = flat - flat % inner
    seg_start = np.maximum(row, begins[r])
    seg_end = np.minimum(row + inner, ends[r])
    return (flat - seg_start) < (seg_end - seg_start) // step * step


def broadcast_shapes(*shapes) -> tuple:
    from opsnn.op_common.operands import broadcast_shape  # any rank (numpy's takes 32)
    return broadcast_shape(*shapes)


# -- a chunk's place in a larger array (opsnn.dask) ------------------------------------------------

class Place(NamedTuple):
    grad_shape: tuple  # the whole operands' shapes
    x_shape: tuple
    region: tuple      # the chunk's (start, stop) on each axis of the whole broadcast shape


_PLACE: contextvars.ContextVar[Place | None] = contextvars.ContextVar("opsnn_torch_place", default=None)


@contextlib.contextmanager
def place(grad_shape, x_shape, region):
    """Within this context (this thread's), the operands an operator sees are the chunk `region`
    ((start, stop) per axis of the broadcast shape) of whole operands of grad_shape and x_shape,
    C-contiguous: torch_vector_lanes and torch_scalar_runs answer as torch's loop would over the
    whole arrays, so a chunked computation gives the whole call's bits."""
    token = _PLACE.set(Place(tuple(grad_shape), tuple(x_shape), tuple(tuple(r) for r in region)))
    try:
        yield
    finally:
        _PLACE.reset(token)


def _placed_lanes(where: Place, out_shape: tuple, itemsize: int, threads) -> np.ndarray:
    whole = tuple(broadcast_shapes(where.grad_shape, where.x_shape))
    chunk = tuple(stop - start for start, stop in where.region)
    if chunk != out_shape or len(whole) != len(chunk):
        raise ValueError(f"a chunk of shape {out_shape} at {where.region} is not a part of {whole}")
    flat = np.zeros(chunk, np.int64)
    stride = 1
    for axis in range(len(whole) - 1, -1, -1):  # C-order positions of the chunk's elements in the whole
        start, stop = where.region[axis]
        shape = [1] * len(whole)
        shape[axis] = stop - start
        flat += (np.arange(start, stop, dtype=np.int64) * stride).reshape(shape)
        stride *= whole[axis]
    return _lanes_at(whole, where.grad_shape, where.x_shape, itemsize, threads, flat)


def _placed_runs(where: Place, numel: int, itemsize: int, threads) -> tuple[tuple[int, int], ...]:
    """torch_scalar_runs for a chunk: the runs of its C-order elements torch runs scalar."""
    chunk = tuple(stop - start for start, stop in where.region)
    scalar = ~_placed_lanes(where, chunk, itemsize, threads).reshape(-1)
    if scalar.size != numel:
        raise ValueError(f"a chunk of {numel} elements at {where.region} is not a part of the whole")
    edges = np.flatnonzero(np.diff(np.concatenate(([False], scalar, [False]))))
    return tuple(zip(edges[::2].tolist(), edges[1::2].tolist(), strict=True))
