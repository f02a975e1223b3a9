"""GatherMask: the elements of src0 a bit pattern selects, packed one after another into dst
(asc-devkit's GatherMask, Atlas A2: vreducev2).

``GatherMask(dst, src0, src1Pattern, reduceMode, mask, GatherMaskParams(src0BlockStride,
repeatTimes, src0RepeatStride, src1RepeatStride))`` returns rsvdCnt, the number of elements kept
(C++'s uint64_t& out-parameter), and leaves it in GATHER_MASK_COUNT (GetGatherMaskRemainCount).

- src1Pattern an int 1..7: a fixed pattern, the same in every repeat, by lane j of the repeat:
  1 even lanes, 2 odd lanes, 3..6 lane j % 4 == 0..3, 7 every lane.
- src1Pattern a LocalTensor (uint16 for 2-byte T, uint32 for 4-byte T): its bits, least
  significant first, consumed one a lane from the start of each repeat's pattern, which lies
  src1RepeatStride blocks after the previous repeat's (0: every repeat reads the same bits).
- reduceMode false (normal mode): repeatTimes repeats of 256 bytes of src0 (src0BlockStride,
  src0RepeatStride in blocks); mask is not used.
- reduceMode true (counter mode, A2's "configuration one"): each of repeatTimes repeats works on
  `mask` elements -- with mask above one repeat's lanes (n = 256 / sizeof(T)) they run on through
  the following 256-byte repeats of src0, so repeat i covers hardware repeats i * ceil(mask / n)
  onwards (AscendC documents mask <= n per repeat, or repeatTimes 1: the mix of both is the
  model's extrapolation); the pattern's bits run on through a repeat's `mask` lanes.

Types: half, bfloat16, int16, uint16 (uint16 pattern); float, int32, uint32 (uint32 pattern).
dst gets the kept elements in order, from its start; nothing past them is written. src0 and dst
may be the same tensor (upstream kernels compact in place): every source is read first."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from opsnn.dtypes import bfloat16

from . import spr
from .errors import EmulatorError
from .local_tensor import LocalTensor
from .repeat import BLOCK_BYTES, element_offsets, gather, per_repeat, scatter

_TYPES = {2: tuple(np.dtype(t) for t in (np.float16, bfloat16, np.int16, np.uint16)),
          4: tuple(np.dtype(t) for t in (np.float32, np.int32, np.uint32))}
_PATTERN = {2: np.dtype(np.uint16), 4: np.dtype(np.uint32)}


@dataclass
class GatherMaskParams:
    """AscendC's GatherMaskParams (field order of its constructor)."""
    src0BlockStride: int = 1  # noqa: N815 - AscendC field names
    repeatTimes: int = 0  # noqa: N815
    src0RepeatStride: int = 8  # noqa: N815
    src1RepeatStride: int = 8  # noqa: N815


def fixed_pattern(pattern: int, lanes: np.ndarray) -> np.ndarray:
    """The bits of fixed pattern 1..7 for lane indices `lanes`."""
    if pattern == 7:
        return np.ones(lanes.shape, bool)
    if pattern in (1, 2):
        return lanes % 2 == pattern - 1
    if pattern in (3, 4, 5, 6):
        return lanes % 4 == pattern - 3
    raise EmulatorError(f"GatherMask src1Pattern {pattern}: the fixed patterns are 1..7")


def GatherMask(dst: LocalTensor, src0: LocalTensor, src1_pattern, reduce_mode: bool, mask: int,  # noqa: N802
               params: GatherMaskParams) -> int:
    """Pack the elements of src0 the pattern selects into dst; returns how many (module docstring)."""
    name = "GatherMask"
    t = src0.dtype
    size = t.itemsize
    if size not in _TYPES or t not in _TYPES[size] or dst.dtype != t:
        raise EmulatorError(f"GatherMask on {t} -> {dst.dtype}: half, bfloat16, int16, uint16, float, int32 or "
                            "uint32, the same on both sides")
    n = per_repeat(t)
    repeats = int(params.repeatTimes)
    per = int(mask) if reduce_mode else n
    if reduce_mode and per <= 0:
        raise EmulatorError("GatherMask in counter mode (reduceMode true) with mask 0: mask counts the elements "
                            "of each repeat, 1..2**32-1")
    ctx = src0.ctx
    if repeats <= 0:
        ctx.spr[spr.GATHER_MASK_COUNT] = 0
        return 0
    i = np.repeat(np.arange(repeats, dtype=np.int64), per)  # the repeat of each element of the work
    e = np.tile(np.arange(per, dtype=np.int64), repeats)  # its place in the repeat
    hw_repeat = i * -(-per // n) + e // n
    pending = ctx.undefined_inputs
    first = len(pending)
    values = gather(src0, element_offsets(t, hw_repeat, e % n, params.src0BlockStride, params.src0RepeatStride),
                    name)
    from_values = len(pending)  # the entry gather left for the sources (one at most)
    if isinstance(src1_pattern, LocalTensor):
        if src1_pattern.dtype != _PATTERN[size]:
            raise EmulatorError(f"GatherMask on {t}: the pattern tensor is {_PATTERN[size]}, got {src1_pattern.dtype}")
        bit = i * int(params.src1RepeatStride) * BLOCK_BYTES * 8 + e
        pattern = src1_pattern.ReinterpretCast(np.uint8)
        byte_at = bit // 8
        touched = np.unique(byte_at)
        raw = gather(pattern, touched, name)
        keep = ((raw[np.searchsorted(touched, byte_at)] >> (bit % 8).astype(np.uint8)) & 1).astype(bool)
    else:
        keep = fixed_pattern(int(src1_pattern), e % n)
    kept = int(keep.sum())
    # undefined reads, as positions among the kept elements (scatter's convention): a source
    # element's own, a pattern's for every result
    for k in range(first, len(pending)):
        entry = pending[k]
        if k < from_values:
            moved = np.cumsum(keep) - 1
            where = np.intersect1d(entry[1], np.flatnonzero(keep))
            pending[k] = (name, moved[where], None, entry[3], kept)
        else:
            pending[k] = (name, np.arange(kept), None, entry[3], kept)
    scatter(dst, np.arange(kept, dtype=np.int64), values[keep], name)
    ctx.spr[spr.GATHER_MASK_COUNT] = kept
    return kept


def GetGatherMaskRemainCount(ctx) -> int:  # noqa: N802 - AscendC name
    """How many elements the core's last GatherMask kept."""
    return spr.read(ctx, spr.GATHER_MASK_COUNT, "GetGatherMaskRemainCount")
