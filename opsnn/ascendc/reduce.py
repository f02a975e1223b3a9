"""Reductions and the block broadcast of the Atlas A2 vector unit: WholeReduceSum/Max/Min and
RepeatReduceSum (one result per 256-byte repeat), BlockReduceSum/Max/Min (one result per 32-byte
block, 8 a repeat), PairReduceSum (one per two adjacent elements) and Brcb (each of 8 elements
fills one 32-byte block), in their mask/repeat form (repeat.py: a continuous or bit mask, or the
core's mask register and counter mode; strides in 32-byte blocks). ReduceSum/Max/Min over a whole
tensor are reduce_full.py.

What is modelled, and what is chosen where AscendC does not say:

- Types: half and float (Brcb: any 2- or 4-byte type, the bits copied).
- Summation order (AscendC documents it, ReduceDataBlock's "key features"): a pairwise tree over
  the lanes of the repeat (or block) in element order -- lane 2k + lane 2k+1, then pairs of
  those, ... -- each addition rounded to the operand type (half sums in half: the unit's adder
  width is not documented). Masked-off lanes do not take part (they enter the tree as -0.0, the
  exact identity: -0.0 + -0.0 stays -0.0).
- Max / Min: IEEE max/min; ties keep the first lane in element order (documented: the smallest
  index); a NaN among the active lanes wins, the first one's bits, and +0/-0 count as a tie (both
  not documented: chosen). The index written is that lane's position in its repeat.
- WholeReduceMax/Min write by ReduceOrder: ORDER_VALUE_INDEX (value, index), ORDER_INDEX_VALUE
  (index, value), ORDER_ONLY_VALUE, ORDER_ONLY_INDEX; the index is stored as the unsigned bits of
  one element (uint16 for half, uint32 for float) beside a value, and as a uint32 with
  ORDER_ONLY_INDEX whatever the type. dstRepStride counts one repeat's result (AscendC's table:
  4 bytes for half with an index, 8 for float with both, the value's size with ORDER_ONLY_VALUE,
  4 with ORDER_ONLY_INDEX). They leave the extreme of all their repeats, and its index counting
  lanes from the first repeat's, in MAX_MIN_CNT (spr.py; AscendC reads it back only for
  contiguous repeats).
- WholeReduceSum and RepeatReduceSum write one element a repeat at dst[r * dstRepStride]
  (RepeatReduceSum's dstBlkStride is not used on A2, as its A2 implementation passes none).
- PairReduceSum: repeat r's pair k (lanes 2k, 2k+1) to dst[r * dstRepStride * (n / 2) + k], n the
  lanes of a repeat (dstRepStride counts 128 bytes, documented); the sum of its active lanes; a
  pair with no active lane is not written (not documented: chosen).
- BlockReduce*: 8 results a repeat, dst[r * dstRepStride * 8 + b] (dstRepStride counts one
  repeat's 8 results: 16 bytes for half, 32 for float, documented); a block with no active lane
  writes +0.0 (Sum) or -inf / +inf (Max / Min) -- an assumption.
- Brcb(dst, src, repeatTimes, BrcbRepeatParams(dstBlkStride, dstRepStride)): repeat r reads
  src[8r .. 8r + 7]; element k fills the 32-byte block at (r * dstRepStride + k * dstBlkStride)
  blocks of dst.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

from . import spr
from .errors import EmulatorError
from .local_tensor import LocalTensor
from .repeat import (
    BLOCK_BYTES,
    MAX_REPEAT_TIMES,
    active_elements,
    element_offsets,
    gather,
    per_repeat,
    scatter,
)

_FLOATS = (np.dtype(np.float16), np.dtype(np.float32))
_INDEX = {2: np.dtype(np.uint16), 4: np.dtype(np.uint32)}
BLOCKS_PER_REPEAT = 8


class ReduceOrder(Enum):
    ORDER_VALUE_INDEX = 0
    ORDER_INDEX_VALUE = 1
    ORDER_ONLY_VALUE = 2
    ORDER_ONLY_INDEX = 3


@dataclass
class BrcbRepeatParams:
    """AscendC's BrcbRepeatParams: dst's strides in 32-byte blocks."""
    dstBlkStride: int = 1  # noqa: N815 - AscendC field names
    dstRepStride: int = 8  # noqa: N815


def tree_sum(lanes: np.ndarray) -> np.ndarray:
    """Pairwise sum along the last axis, each addition rounded to lanes' type (module docstring)."""
    with np.errstate(over="ignore", invalid="ignore"):
        while lanes.shape[-1] > 1:
            if lanes.shape[-1] % 2:
                pad = np.full(lanes.shape[:-1] + (1,), -0.0, lanes.dtype)
                lanes = np.concatenate([lanes, pad], axis=-1)
            lanes = lanes[..., 0::2] + lanes[..., 1::2]
    return lanes[..., 0]


def extreme(lanes: np.ndarray, active: np.ndarray, largest: bool) -> tuple[np.ndarray, np.ndarray]:
    """(value, first index) of the max/min along the last axis over active lanes; NaN wins."""
    fill = -np.inf if largest else np.inf
    v = np.where(active, lanes, lanes.dtype.type(fill))
    nan = np.isnan(v) & active
    best = np.nanmax(np.where(nan, fill, v), axis=-1) if largest else np.nanmin(np.where(nan, fill, v), axis=-1)
    hit = (v == best[..., None]) & active
    idx = np.where(nan.any(axis=-1), np.argmax(nan, axis=-1), np.argmax(hit, axis=-1))
    value = np.take_along_axis(lanes, idx[..., None], axis=-1)[..., 0]
    return value, idx


def _lanes(name: str, src: LocalTensor, mask, repeat_times: int, src_blk: int, src_rep: int):
    """(lanes[repeats, per_repeat], active[repeats, per_repeat]) of src under the mask."""
    t = src.dtype
    if t not in _FLOATS:
        raise EmulatorError(f"{name} on {t}: half or float")
    repeat, index = active_elements(t, mask, repeat_times, src.ctx)
    n = per_repeat(t)
    repeats = int(repeat[-1]) + 1 if repeat.size else 0
    lanes = np.full((repeats, n), -0.0, t)
    active = np.zeros((repeats, n), bool)
    if repeat.size:
        lanes[repeat, index] = gather(src, element_offsets(t, repeat, index, src_blk, src_rep), name)
        active[repeat, index] = True
    return lanes, active


def _store(name: str, dst: LocalTensor, offsets: np.ndarray, values: np.ndarray) -> None:
    if dst.dtype != values.dtype:
        raise EmulatorError(f"{name}: dst of {dst.dtype} for a {values.dtype} source: the types must match")
    if offsets.size:
        scatter(dst, offsets, values, name)


def WholeReduceSum(dst: LocalTensor, src: LocalTensor, mask, repeat_times: int,  # noqa: N802
                   dst_rep_stride: int, src_blk_stride: int, src_rep_stride: int) -> None:
    """dst[r * dstRepStride] = the sum of repeat r's active elements (tree order: module docstring)."""
    lanes, _ = _lanes("WholeReduceSum", src, mask, repeat_times, src_blk_stride, src_rep_stride)
    sums = tree_sum(lanes)
    _store("WholeReduceSum", dst, np.arange(sums.size, dtype=np.int64) * int(dst_rep_stride), sums)


def _whole_extreme(name: str, largest: bool, dst, src, mask, repeat_times, dst_rep_stride, src_blk_stride,
                   src_rep_stride, order) -> None:
    if not isinstance(order, ReduceOrder):
        raise EmulatorError(f"{name} order must be a ReduceOrder, got {order!r}")
    lanes, active = _lanes(name, src, mask, repeat_times, src_blk_stride, src_rep_stride)
    value, idx = extreme(lanes, active, largest)
    if value.size:  # MAX_MIN_CNT: the extreme over every repeat, its index counting repeats of lanes
        best, at = extreme(lanes.reshape(1, -1), active.reshape(1, -1), largest)
        src.ctx.spr[spr.MAX_MIN_CNT] = spr.bits_of(best[0]) | (int(at[0]) & 0xFFFF_FFFF) << 32
    if order is ReduceOrder.ORDER_ONLY_INDEX:  # a uint32 a repeat, whatever the type
        _store(name, dst, np.empty(0, np.int64), value)  # checks dst's type
        if idx.size:
            scatter(dst.ReinterpretCast(np.uint32), np.arange(idx.size, dtype=np.int64) * int(dst_rep_stride),
                    idx.astype(np.uint32), name)
        return
    index = idx.astype(_INDEX[src.dtype.itemsize]).view(src.dtype)
    if order is ReduceOrder.ORDER_VALUE_INDEX:
        out = np.stack([value, index], axis=-1)
    elif order is ReduceOrder.ORDER_INDEX_VALUE:
        out = np.stack([index, value], axis=-1)
    else:
        out = value[:, None]
    width = out.shape[1]
    offsets = (np.arange(out.shape[0], dtype=np.int64)[:, None] * int(dst_rep_stride) * width
               + np.arange(width, dtype=np.int64)[None, :])
    _store(name, dst, offsets.reshape(-1), out.reshape(-1))


def WholeReduceMax(dst: LocalTensor, src: LocalTensor, mask, repeat_times: int, dst_rep_stride: int,  # noqa: N802
                   src_blk_stride: int, src_rep_stride: int,
                   order: ReduceOrder = ReduceOrder.ORDER_VALUE_INDEX) -> None:
    """The max of each repeat's active elements and its index in the repeat, written by `order`."""
    _whole_extreme("WholeReduceMax", True, dst, src, mask, repeat_times, dst_rep_stride, src_blk_stride,
                   src_rep_stride, order)


def WholeReduceMin(dst: LocalTensor, src: LocalTensor, mask, repeat_times: int, dst_rep_stride: int,  # noqa: N802
                   src_blk_stride: int, src_rep_stride: int,
                   order: ReduceOrder = ReduceOrder.ORDER_VALUE_INDEX) -> None:
    """The min of each repeat's active elements and its index in the repeat, written by `order`."""
    _whole_extreme("WholeReduceMin", False, dst, src, mask, repeat_times, dst_rep_stride, src_blk_stride,
                   src_rep_stride, order)


def RepeatReduceSum(dst: LocalTensor, src: LocalTensor, repeat_times: int, mask, dst_blk_stride: int,  # noqa: N802
                    src_blk_stride: int, dst_rep_stride: int, src_rep_stride: int) -> None:
    """WholeReduceSum under AscendC's other argument order (dstBlkStride unused on A2)."""
    lanes, _ = _lanes("RepeatReduceSum", src, mask, repeat_times, src_blk_stride, src_rep_stride)
    sums = tree_sum(lanes)
    _store("RepeatReduceSum", dst, np.arange(sums.size, dtype=np.int64) * int(dst_rep_stride), sums)


def PairReduceSum(dst: LocalTensor, src: LocalTensor, repeat_times: int, mask, dst_rep_stride: int,  # noqa: N802
                  src_blk_stride: int, src_rep_stride: int) -> None:
    """dst[r * dstRepStride * n/2 + k] = lane 2k + lane 2k+1 of repeat r (module docstring)."""
    lanes, active = _lanes("PairReduceSum", src, mask, repeat_times, src_blk_stride, src_rep_stride)
    r = lanes.shape[0]
    half = per_repeat(src.dtype) // 2
    with np.errstate(over="ignore", invalid="ignore"):
        sums = lanes[:, 0::2] + lanes[:, 1::2]
    live = active[:, 0::2] | active[:, 1::2]
    offsets = (np.arange(r, dtype=np.int64)[:, None] * int(dst_rep_stride) * half
               + np.arange(half, dtype=np.int64)[None, :])
    _store("PairReduceSum", dst, offsets[live], sums[live])


def _block_reduce(name: str, kind: str, dst, src, repeat_times, mask, dst_rep_stride, src_blk_stride,
                  src_rep_stride) -> None:
    lanes, active = _lanes(name, src, mask, repeat_times, src_blk_stride, src_rep_stride)
    r = lanes.shape[0]
    lanes = lanes.reshape(r, BLOCKS_PER_REPEAT, -1)
    active = active.reshape(r, BLOCKS_PER_REPEAT, -1)
    if kind == "sum":
        out = tree_sum(lanes)
        out[~active.any(axis=-1)] = 0.0
    else:
        out, _ = extreme(lanes, active, kind == "max")
        out[~active.any(axis=-1)] = -np.inf if kind == "max" else np.inf
    offsets = (np.arange(r, dtype=np.int64)[:, None] * int(dst_rep_stride) * BLOCKS_PER_REPEAT
               + np.arange(BLOCKS_PER_REPEAT, dtype=np.int64)[None, :])
    _store(name, dst, offsets.reshape(-1), out.reshape(-1))


def BlockReduceSum(dst: LocalTensor, src: LocalTensor, repeat: int, mask, dst_rep_stride: int,  # noqa: N802
                   src_blk_stride: int, src_rep_stride: int) -> None:
    """dst[r * 8 * dstRepStride + b] = the sum of block b of repeat r (tree order)."""
    _block_reduce("BlockReduceSum", "sum", dst, src, repeat, mask, dst_rep_stride, src_blk_stride, src_rep_stride)


def BlockReduceMax(dst: LocalTensor, src: LocalTensor, repeat: int, mask, dst_rep_stride: int,  # noqa: N802
                   src_blk_stride: int, src_rep_stride: int) -> None:
    """dst[r * 8 * dstRepStride + b] = the max of block b of repeat r."""
    _block_reduce("BlockReduceMax", "max", dst, src, repeat, mask, dst_rep_stride, src_blk_stride, src_rep_stride)


def BlockReduceMin(dst: LocalTensor, src: LocalTensor, repeat: int, mask, dst_rep_stride: int,  # noqa: N802
                   src_blk_stride: int, src_rep_stride: int) -> None:
    """dst[r * 8 * dstRepStride + b] = the min of block b of repeat r."""
    _block_reduce("BlockReduceMin", "min", dst, src, repeat, mask, dst_rep_stride, src_blk_stride, src_rep_stride)


def Brcb(dst: LocalTensor, src: LocalTensor, repeat_times: int, params: BrcbRepeatParams) -> None:  # noqa: N802
    """Each of src's 8 elements a repeat fills one 32-byte block of dst (module docstring)."""
    t = src.dtype
    if t.itemsize not in (2, 4) or dst.dtype.itemsize != t.itemsize:
        raise EmulatorError(f"Brcb on {t} -> {dst.dtype}: a 2- or 4-byte type, the same size on both sides")
    repeat_times = int(repeat_times)
    if not 0 <= repeat_times <= MAX_REPEAT_TIMES:
        raise EmulatorError(f"Brcb repeatTimes {repeat_times}: 0..{MAX_REPEAT_TIMES}")
    blk, rep = int(params.dstBlkStride), int(params.dstRepStride)
    if blk < 0 or rep < 0:
        raise EmulatorError(f"Brcb strides must be >= 0, got dstBlkStride {blk}, dstRepStride {rep}")
    if repeat_times == 0:
        return
    per_block = BLOCK_BYTES // t.itemsize
    r = np.arange(repeat_times, dtype=np.int64)[:, None, None]
    k = np.arange(BLOCKS_PER_REPEAT, dtype=np.int64)[None, :, None]
    j = np.arange(per_block, dtype=np.int64)[None, None, :]
    offsets = (r * rep + k * blk) * per_block + j
    pending = src.ctx.undefined_inputs
    first = len(pending)
    values = gather(src.ReinterpretCast(_INDEX[t.itemsize]), np.arange(repeat_times * BLOCKS_PER_REPEAT), "Brcb")
    # an undefined source element makes only the block it fills undefined (dst position p comes from
    # source element p // per_block), not the whole result
    for n, entry in enumerate(pending[first:]):
        positions = (np.asarray(entry[1])[:, None] * per_block + np.arange(per_block)).ravel()
        pending[first + n] = (entry[0], positions, None, entry[3], offsets.size)
    out = np.broadcast_to(values.reshape(repeat_times, BLOCKS_PER_REPEAT, 1), offsets.shape)
    scatter(dst.ReinterpretCast(_INDEX[t.itemsize]), offsets.reshape(-1), out.reshape(-1), "Brcb")
