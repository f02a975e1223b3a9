"""CreateVecIndex and ArithProgression: arithmetic sequences written into UB, computed the way
AscendC's Atlas A2 implementations compute them, so their rounding in half (and past 2**24 in
float, or on overflow in int16) is the device's:

- CreateVecIndex(dst, firstValue, count) / (dst, firstValue, mask, repeatTime, dstBlkStride,
  dstRepStride): the first 32-byte block is written by the scalar unit, element k as
  T(float(firstValue) + float(k)) (with a bit mask: every active lane of the first repeat so);
  every further block of the first repeat is the previous block
  plus (32 / sizeof(T)) (an Adds, rounded to T), and every further repeat the previous repeat plus
  (256 / sizeof(T)). The mask/repeat form writes only the active lanes (each at its place by
  dstBlkStride / dstRepStride), with the value of its lane index in the sequence. half, float,
  int16, int32.
- ArithProgression(dst, firstValue, diffValue, count): the first block element k as
  T(first + diff * k) (in float for half, in T's C++ arithmetic otherwise), then blocks + diff *
  (32 / sizeof(T)), repeats + diff * (256 / sizeof(T)) (each an Adds). Like the implementation it
  writes whole 32-byte blocks past `count` when count exceeds one block (a dst sized to count
  elements that are not a multiple of a block overflows, on the device too), and leaves the mask
  register as it does: the first block's lanes set when count fits one repeat, all ones after
  whole repeats, the tail's lanes (rounded up to a block) after a partial one. half, float,
  int16, int32.
"""
from __future__ import annotations

import numpy as np

from .binary import add_values
from .core import FULL_MASK, MaskState
from .errors import EmulatorError
from .local_tensor import LocalTensor
from .repeat import BLOCK_BYTES, active_elements, element_offsets, per_repeat, scatter
from .scalar_ops import to_scalar

INDEX_TYPES = tuple(np.dtype(t) for t in (np.float16, np.float32, np.int16, np.int32))


def _scalar_to(t: np.dtype, value: np.ndarray) -> np.ndarray:
    """A float32 scalar result stored as T by SetValue (integers: truncated toward zero)."""
    with np.errstate(all="ignore"):
        return np.asarray(value).astype(t)


def chained(t: np.dtype, first_block: np.ndarray, block_step, repeat_step, repeats: int) -> np.ndarray:
    """(repeats, n) values: the first block, each later block of repeat 0 = the previous + block_step,
    each later repeat = the previous + repeat_step, every addition rounded to T (Adds)."""
    n = per_repeat(t)
    per_block = BLOCK_BYTES // t.itemsize
    row = np.empty(n, t)
    row[:per_block] = first_block
    step = to_scalar(block_step, t)
    for b in range(1, n // per_block):
        row[b * per_block:(b + 1) * per_block] = add_values(row[(b - 1) * per_block:b * per_block], step)
    out = np.empty((repeats, n), t)
    out[0] = row
    step = to_scalar(repeat_step, t)
    for r in range(1, repeats):
        out[r] = add_values(out[r - 1], step)
    return out


def _check(name: str, dst: LocalTensor) -> np.dtype:
    if dst.dtype not in INDEX_TYPES:
        raise EmulatorError(f"{name} on {dst.dtype}: half, float, int16 or int32")
    return dst.dtype


def CreateVecIndex(dst: LocalTensor, first_value, *rest) -> None:  # noqa: N802 - AscendC name
    """dst = firstValue, firstValue + 1, ... (module docstring: how each value is rounded).

    ``CreateVecIndex(dst, firstValue, count)`` or
    ``CreateVecIndex(dst, firstValue, mask, repeatTime, dstBlkStride, dstRepStride)``."""
    name = "CreateVecIndex"
    t = _check(name, dst)
    n = per_repeat(t)
    per_block = BLOCK_BYTES // t.itemsize
    first = np.float32(to_scalar(first_value, t).astype(np.float32))
    with np.errstate(all="ignore"):
        block0 = _scalar_to(t, first + np.arange(per_block, dtype=np.float32))
    if len(rest) == 1:
        count = int(rest[0])
        if count <= 0:
            return
        values = chained(t, block0, per_block, n, -(-count // n)).reshape(-1)[:count]
        scatter(dst, np.arange(count, dtype=np.int64), values, name)
        return
    if len(rest) != 4:
        raise EmulatorError(f"CreateVecIndex takes (dst, firstValue, count) or (dst, firstValue, mask, repeatTime, "
                            f"dstBlkStride, dstRepStride), got {2 + len(rest)} arguments")
    mask, repeat_times, blk, rep = rest
    r, j = active_elements(t, mask, repeat_times, dst.ctx)
    if r.size == 0:
        return
    grid = chained(t, block0, per_block, n, int(r[-1]) + 1)
    if not isinstance(mask, (int, np.integer)):  # bit mode: the first repeat's lanes by the scalar unit
        with np.errstate(all="ignore"):
            grid[0] = _scalar_to(t, first + np.arange(n, dtype=np.float32))
        for k in range(1, grid.shape[0]):
            grid[k] = add_values(grid[k - 1], to_scalar(n, t))
    scatter(dst, element_offsets(t, r, j, blk, rep), grid[r, j], name)


def ArithProgression(dst: LocalTensor, first_value, diff_value, count: int) -> None:  # noqa: N802
    """dst[k] = firstValue + k * diffValue for k < count (module docstring: rounding, the blocks
    past count it writes, the mask it leaves)."""
    name = "ArithProgression"
    t = _check(name, dst)
    count = int(count)
    if count <= 0:
        return
    n = per_repeat(t)
    per_block = BLOCK_BYTES // t.itemsize
    first, diff = to_scalar(first_value, t), to_scalar(diff_value, t)
    k = np.arange(min(count, per_block))
    with np.errstate(all="ignore"):
        if t == np.float16:
            head = _scalar_to(t, np.float32(first) + np.float32(diff) * k.astype(np.float32))
        elif t.kind == "f":
            head = (first + diff * k.astype(t)).astype(t)
        else:  # C++ int arithmetic: int32 math, stored as T
            head = (np.int64(first) + np.int64(diff) * k).astype(np.int32).astype(t)
    if count <= per_block:
        scatter(dst, np.arange(count, dtype=np.int64), head, name)
        return
    with np.errstate(all="ignore"):
        block_step = np.float32(diff) * np.float32(per_block)
        repeat_step = np.float32(diff) * np.float32(n)
    written = -(-count // per_block) * per_block  # whole blocks (AscendC's tail is rounded up)
    values = chained(t, head, block_step, repeat_step, -(-written // n)).reshape(-1)[:written]
    scatter(dst, np.arange(written, dtype=np.int64), values, name)
    ctx = dst.ctx
    tail = count % n
    if count <= n:
        low = (1 << per_block) - 1  # its last Adds ran under the first block's lanes
    elif tail == 0:
        low = FULL_MASK
    else:
        lanes = -(-tail // per_block) * per_block
        low = (1 << min(lanes, 64)) - 1
        high = (1 << max(lanes - 64, 0)) - 1
        ctx.vector_mask = MaskState(ctx.vector_mask.counter, high, low)
        return
    ctx.vector_mask = MaskState(ctx.vector_mask.counter, FULL_MASK if low == FULL_MASK else 0, low)
