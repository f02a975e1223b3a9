"""ReduceSum, ReduceMax, ReduceMin: every element of a tensor to one value (AscendC's basic-API
"Reduce" interface, with its sharedTmpBuffer), and the high-level Sum (each row's last axis), on
Atlas A2.

Forms, told apart by the number of arguments:

- count form: ``ReduceSum(dst, src, work, count[, isSetMask])``,
  ``ReduceMax(dst, src, work, count[, calIndex])`` -- the first `count` elements;
- mask/repeat form: ``ReduceSum(dst, src, work, mask, repeatTime, srcRepStride)``,
  ``ReduceMax(dst, src, work, mask, repeatTime, srcRepStride[, calIndex])`` -- `repeatTime`
  repeats of 256 bytes (any number, not only 0..255), srcBlkStride 1, the mask (continuous or
  [low, high] bits) the same in every repeat.

Types: half and float, one type for dst, src and work.

What AscendC documents for Atlas A2, and what is modelled:

- ReduceSum's order (documented): each repeat is summed by the pairwise tree of reduce.tree_sum.
  The count form then adds the repeat sums one after another (((s0 + s1) + s2) + ...); the
  mask/repeat form sums them by the tree too: the repeat sums in groups of one repeat's lanes
  (128 half, 64 float), then the group sums. Every addition is rounded to the type (the unit's
  accumulator width is not documented). The count form leaves the sum in ACC_VAL (GetAccVal);
  with isSetMask false its count is the one SetVectorMask gave in counter mode.
- ReduceMax/Min: the extreme of all active elements; ties give the smallest index (documented);
  a NaN wins, the first one (not documented: chosen, as WholeReduceMax does). dst[0] is the value;
  with calIndex dst[1] holds the index's bits as the type (uint16 for half, uint32 for float:
  read it through reinterpret_cast). The index counts elements from src's start: in the mask/repeat
  form repeat r's lane j is index r * srcRepStride * (32 / sizeof(T)) + j (AscendC's formula).
  MAX_MIN_CNT gets the value and index (spr.py).
- sharedTmpBuffer gets what the documented algorithm writes there, at the documented places, so
  a buffer smaller than AscendC's size formula is a local_tensor_overflow: the mask/repeat
  ReduceSum writes the repeat sums (then the group sums over them); the count-form ReduceSum does
  not use it (documented); ReduceMax/Min write each round's (value, index) pairs of the
  full repeats, every round at offset 0 without calIndex, each round after the previous one's
  32-byte-aligned end with it (the index of an earlier round is still needed). dst may overlap
  the buffer (documented): the buffer is written first.
- A count or repeatTime of 0, or an all-zero mask, does nothing (documented NOP on A2).
- Sum(dst, src, [sharedTmpBuffer,] SumParams(outter, inner, n)): dst[row] = the sum of the first
  n of row's inner elements, as AscendC's A2 implementation sums them: the tree in each repeat,
  then the tree over groups of one repeat's lanes of those sums, again until one is left
  (sharedTmpBuffer, as T, gets each level; without it the framework's own space is used). It
  leaves normal mode, the mask all ones when a row fits one repeat, else the register holding the
  last level's count (what AscendC's implementation leaves).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import spr
from .core import FULL_MASK, MaskState
from .errors import EmulatorError
from .local_tensor import LocalTensor, read_local
from .reduce import extreme, tree_sum
from .repeat import BLOCK_BYTES, _store, active_elements, element_offsets, gather, per_repeat, scatter

_FLOATS = (np.dtype(np.float16), np.dtype(np.float32))
_INDEX = {2: np.uint16, 4: np.uint32}


def _check(name: str, dst: LocalTensor, src: LocalTensor, work: LocalTensor) -> np.dtype:
    t = src.dtype
    if t not in _FLOATS or dst.dtype != t or work.dtype != t:
        raise EmulatorError(f"{name} on {src.dtype} -> {dst.dtype} (sharedTmpBuffer {work.dtype}): half or float, "
                            "one type for dst, src and sharedTmpBuffer")
    return t


def _nothing_active(mask) -> bool:
    if isinstance(mask, (int, np.integer)):
        return int(mask) == 0
    return all(int(w) == 0 for w in mask)


def _count_lanes(name: str, src: LocalTensor, count: int):
    """(lanes[R, n], active[R, n], index[R, n]) of the first `count` elements, -0.0 past them."""
    t = src.dtype
    n = per_repeat(t)
    repeats = -(-count // n)
    lanes = np.full(repeats * n, -0.0, t)
    lanes[:count] = read_local(src, count, name)
    active = np.arange(repeats * n) < count
    index = np.arange(repeats * n, dtype=np.int64)
    return lanes.reshape(repeats, n), active.reshape(repeats, n), index.reshape(repeats, n)


def _repeat_lanes(name: str, src: LocalTensor, mask, repeats: int, src_rep_stride: int):
    """The same over `repeats` repeats of the mask/repeat form (srcBlkStride 1)."""
    t = src.dtype
    if src.ctx.vector_mask.counter:
        raise EmulatorError(f"{name}'s mask/repeat form in counter mode: it sets its own normal-mode mask "
                            "(SetMaskNorm before it)")
    if int(src_rep_stride) < 0 or repeats < 0:
        raise EmulatorError(f"{name}: repeatTime {repeats}, srcRepStride {src_rep_stride}: both must be >= 0")
    _, lane = active_elements(t, mask, 1, src.ctx)  # checks the mask
    n = per_repeat(t)
    r = np.repeat(np.arange(repeats, dtype=np.int64), lane.size)
    j = np.tile(lane, repeats)
    offsets = element_offsets(t, r, j, 1, src_rep_stride)
    lanes = np.full((repeats, n), -0.0, t)
    active = np.zeros((repeats, n), bool)
    lanes[r, j] = gather(src, offsets, name)
    active[r, j] = True
    index = (np.arange(repeats, dtype=np.int64)[:, None] * int(src_rep_stride) * (BLOCK_BYTES // t.itemsize)
             + np.arange(n, dtype=np.int64)[None, :])
    return lanes, active, index


def _write_work(name: str, work: LocalTensor, start: int, values: np.ndarray) -> None:
    """Intermediate results into sharedTmpBuffer: judged by the sanitizer (overflow), not counted
    as an instruction of their own. The undefined inputs stay pending for dst's write."""
    pending = list(work.ctx.undefined_inputs)
    _store(work[start], np.asarray(values, work.dtype), name)
    work.ctx.undefined_inputs[:] = pending


def _write_dst(name: str, dst: LocalTensor, values: list) -> None:
    scatter(dst, np.arange(len(values), dtype=np.int64), np.array(values, dtype=dst.dtype), name)


# --- ReduceSum ----------------------------------------------------------------------------------

def ReduceSum(dst: LocalTensor, src: LocalTensor, work: LocalTensor, *rest) -> None:  # noqa: N802
    """dst[0] = the sum of src's elements (module docstring: the two orders, ACC_VAL, work).

    ``ReduceSum(dst, src, work, count[, isSetMask])`` or
    ``ReduceSum(dst, src, work, mask, repeatTime, srcRepStride)``."""
    name = "ReduceSum"
    t = _check(name, dst, src, work)
    if len(rest) in (1, 2):
        count = int(rest[0])
        if len(rest) == 2 and not rest[1]:
            state = src.ctx.vector_mask
            if not state.counter:
                raise EmulatorError("ReduceSum<T, false> takes its count from SetVectorMask in counter mode "
                                    "(SetMaskCount first): the core is in normal mode")
            count = state.low
        if count <= 0:
            return
        lanes, _, _ = _count_lanes(name, src, count)
        with np.errstate(over="ignore", invalid="ignore"):
            total = np.add.accumulate(tree_sum(lanes), dtype=t)[-1]  # repeat by repeat, in order
        _write_dst(name, dst, [total])
        src.ctx.spr[spr.ACC_VAL] = spr.bits_of(total)
        return
    if len(rest) != 3:
        raise EmulatorError(f"ReduceSum takes (dst, src, work, count[, isSetMask]) or (dst, src, work, mask, "
                            f"repeatTime, srcRepStride), got {3 + len(rest)} arguments")
    mask, repeats, src_rep_stride = rest
    repeats = int(repeats)
    if repeats == 0 or _nothing_active(mask):
        return
    lanes, _, _ = _repeat_lanes(name, src, mask, repeats, src_rep_stride)
    n = per_repeat(t)
    sums = tree_sum(lanes)
    _write_work(name, work, 0, sums)
    groups = -(-repeats // n)
    if groups > n:
        raise EmulatorError(f"ReduceSum's mask/repeat form over {repeats} repeats: AscendC's algorithm sums at most "
                            f"{n * n} repeats of {t}")
    padded = np.full(groups * n, -0.0, t)
    padded[:repeats] = sums
    group_sums = tree_sum(padded.reshape(groups, n))
    _write_work(name, work, 0, group_sums)
    if groups == 1:
        total = group_sums[0]
    else:
        last = np.full(n, -0.0, t)
        last[:groups] = group_sums
        total = tree_sum(last)
    _write_dst(name, dst, [total])


# --- ReduceMax / ReduceMin ----------------------------------------------------------------------

def work_rounds(pairs: int, per_rep: int, per_block: int, cal_index: bool) -> list[tuple[int, int]]:
    """(start, elements) of each round's output in sharedTmpBuffer (AscendC's layout for
    ReduceMax/Min: round 1 writes a (value, index) pair per repeat, each later round one pair per
    repeat of the previous round's output)."""
    rounds = [(0, 2 * pairs)]
    while rounds[-1][1] > 2:
        start, size = rounds[-1]
        nxt = 2 * -(-size // per_rep)
        rounds.append(((start + -(-size // per_block) * per_block) if cal_index else 0, nxt))
    return rounds


def _pairs(values: np.ndarray, index: np.ndarray, t: np.dtype) -> np.ndarray:
    """[v0, i0, v1, i1, ...] with each index's bits stored as the type."""
    out = np.empty(2 * values.size, t)
    out[0::2] = values
    out[1::2] = index.astype(_INDEX[t.itemsize]).view(t)
    return out


def _reduce_extreme(name: str, largest: bool, dst: LocalTensor, src: LocalTensor, work: LocalTensor,
                    rest: tuple) -> None:
    t = _check(name, dst, src, work)
    if len(rest) in (1, 2):
        count, cal_index = int(rest[0]), bool(rest[1]) if len(rest) == 2 else False
        if count <= 0:
            return
        lanes, active, index = _count_lanes(name, src, count)
        full = max(count // per_repeat(t), 1)  # the repeats AscendC's first round covers (the rest: its tail step)
    elif len(rest) in (3, 4):
        mask, repeats, src_rep_stride = rest[:3]
        cal_index = bool(rest[3]) if len(rest) == 4 else False
        repeats = int(repeats)
        if repeats == 0 or _nothing_active(mask):
            return
        lanes, active, index = _repeat_lanes(name, src, mask, repeats, src_rep_stride)
        full = repeats
    else:
        raise EmulatorError(f"{name} takes (dst, src, work, count[, calIndex]) or (dst, src, work, mask, repeatTime, "
                            f"srcRepStride[, calIndex]), got {3 + len(rest)} arguments")
    n = per_repeat(t)
    values, lane = extreme(lanes[:full], active[:full], largest)
    rounds = work_rounds(full, n, BLOCK_BYTES // t.itemsize, cal_index)
    level = _pairs(values, lane, t)
    _write_work(name, work, 0, level)
    for start, size in rounds[1:]:
        v = level[0::2]
        groups = size // 2
        grid = np.full(groups * (n // 2), -np.inf if largest else np.inf, t)
        grid[:v.size] = v
        on = np.zeros(grid.size, bool)
        on[:v.size] = True
        gv, gk = extreme(grid.reshape(groups, n // 2), on.reshape(groups, n // 2), largest)
        level = _pairs(gv, 2 * gk, t)
        _write_work(name, work, start, level)
    value, at = extreme(lanes.reshape(1, -1), active.reshape(1, -1), largest)
    value, where = value[0], int(index.reshape(-1)[at[0]])
    out = [value, np.array(where).astype(_INDEX[t.itemsize]).view(t)] if cal_index else [value]
    _write_dst(name, dst, out)
    src.ctx.spr[spr.MAX_MIN_CNT] = spr.bits_of(value) | (where & 0xFFFF_FFFF) << 32


def ReduceMax(dst: LocalTensor, src: LocalTensor, work: LocalTensor, *rest) -> None:  # noqa: N802
    """dst[0] = the largest element, dst[1] its index's bits with calIndex (module docstring).

    ``ReduceMax(dst, src, work, count[, calIndex])`` or
    ``ReduceMax(dst, src, work, mask, repeatTime, srcRepStride[, calIndex])``."""
    _reduce_extreme("ReduceMax", True, dst, src, work, rest)


def ReduceMin(dst: LocalTensor, src: LocalTensor, work: LocalTensor, *rest) -> None:  # noqa: N802
    """dst[0] = the smallest element, dst[1] its index's bits with calIndex; the forms of ReduceMax."""
    _reduce_extreme("ReduceMin", False, dst, src, work, rest)


# --- Sum (high level) ---------------------------------------------------------------------------

@dataclass
class SumParams:
    """AscendC's SumParams: rows, the 32-byte-aligned row length, the valid elements of a row."""
    outter: int = 1
    inner: int = 0
    n: int = 0


def Sum(dst: LocalTensor, src: LocalTensor, *rest) -> None:  # noqa: N802 - AscendC name
    """dst[row] = the sum of row's first n elements, tree of trees (module docstring).

    ``Sum(dst, src, [sharedTmpBuffer,] SumParams)``."""
    name = "Sum"
    work = rest[0] if len(rest) == 2 else None
    params = rest[-1]
    if not isinstance(params, SumParams) or len(rest) not in (1, 2):
        raise EmulatorError("Sum takes (dst, src, [sharedTmpBuffer,] SumParams(outter, inner, n))")
    t = src.dtype
    if t not in _FLOATS or dst.dtype != t:
        raise EmulatorError(f"Sum on {src.dtype} -> {dst.dtype}: half or float, one type")
    rows, inner, n = int(params.outter), int(params.inner), int(params.n)
    per = per_repeat(t)
    if n <= 0 or rows <= 0:
        return
    if n > inner or inner * t.itemsize % BLOCK_BYTES:
        raise EmulatorError(f"Sum: inner {inner} must be n ({n}) rounded up to 32 bytes of {t}")
    values = read_local(src, rows * inner, name).reshape(rows, inner)[:, :n]
    level = np.full((rows, -(-n // per) * per), -0.0, t)
    level[:, :n] = values
    last_count = n
    while True:
        level = tree_sum(level.reshape(rows, -1, per))  # one sum a repeat, each row
        if level.shape[1] == 1:
            break
        if work is not None:  # the rows take turns in it: the last row's levels stay
            _write_work(name, work.ReinterpretCast(t), 0, level[-1])
        last_count = level.shape[1]
        padded = np.full((rows, -(-last_count // per) * per), -0.0, t)
        padded[:, :last_count] = level
        level = padded
    _write_dst(name, dst, list(level[:, 0]))
    single = n <= per
    dst.ctx.vector_mask = MaskState(False, FULL_MASK if single else 0, FULL_MASK if single else last_count)
