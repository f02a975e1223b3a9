"""Gather and Gatherb: elements (or 32-byte blocks) of UB picked by a table of byte offsets, as
the Atlas A2 vector unit has them (asc-devkit's Gather / Gatherb).

Gather(dst, src, srcOffset, srcBaseAddr, count) -- the count form -- and
Gather(dst, src, srcOffset, srcBaseAddr, mask, repeatTime, dstRepStride) -- the mask/repeat form:
element i of the work (repeat r, lane j: i = r * n + j, n = 256 / sizeof(T)) is read from the
byte address src + srcBaseAddr + srcOffset[i] and written to dst[i] (the count form) or to dst
lane j of repeat r at r * dstRepStride blocks (the mask/repeat form). srcOffset is a uint32
tensor of byte offsets; an offset (or base) that is not a multiple of sizeof(T) is refused (the
device reads misplaced data). Types: half, bfloat16, int16, uint16, float, int32, uint32.

src may be dst, or overlap it, as AscendC's general address-overlap rule for the repeat forms
allows (asc-devkit's C API constraints, which asc_gather refers to): a repeat reads its source
before it writes, so it may gather from the bytes it overwrites, but no repeat may read bytes an
earlier repeat wrote -- the count form is its whole repeats and then the tail as one more repeat.
A gather that does is refused (the device would read the new values). Upstream's add_rms_norm
broadcasts each row's rstd across its 32-byte block in place so, every repeat reading its own
blocks.

Gatherb(dst, src, offset, repeatTime, GatherRepeatParams(dstBlkStride, dstRepStride)): block k
of repeat r (8 blocks a repeat) is the 32 bytes at src + offset[8r + k] bytes, written to block
r * dstRepStride + k * dstBlkStride of dst; uint16 and uint32 (the bits are moved, any 2- or
4-byte type reinterpreted). Offsets must be multiples of 32 bytes.

Scatter(dst, src, dstOffset, dstBaseAddr, count) -- Ascend950's, the count form -- is the other
way: src[i] goes to the byte address dst + dstBaseAddr + dstOffset[i]. AscendC lists it for
Ascend 950PR/950DT and inference parts, not for Atlas A2 training cores (refused there), on 1-,
2-, 4- and 8-byte types (the 8-byte ones are not modelled). Its rules, each an
api_contract_violation here: the offsets distinct (which of two writes lands is unpredictable),
element-aligned, and at most 2^16 - 1 bytes for 8-bit elements, 2^17 - 1 for 16-bit ones. The
mask/repeat forms are not modelled.

Reads through the sanitizer: an offset pointing past src's buffer is a local_tensor_overflow
there (the device would read whatever UB holds); undefined source elements make exactly the
elements gathered from them undefined."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from opsnn.dtypes import bfloat16

from .errors import ApiContractError, EmulatorError
from .local_tensor import LocalTensor, read_local
from .repeat import BLOCK_BYTES, active_elements, element_offsets, gather, per_repeat, scatter

GATHER_TYPES = tuple(np.dtype(t) for t in (np.float16, bfloat16, np.int16, np.uint16, np.float32, np.int32,
                                           np.uint32))
SCATTER_TYPES = GATHER_TYPES + (np.dtype(np.int8), np.dtype(np.uint8))
_U32 = np.dtype(np.uint32)
_SCATTER_REACH = {1: (1 << 16) - 1, 2: (1 << 17) - 1}  # the largest byte offset of 8- and 16-bit elements
_BITS = {2: np.dtype(np.uint16), 4: np.dtype(np.uint32)}


@dataclass
class GatherRepeatParams:
    """AscendC's GatherRepeatParams(dstBlkStride, dstRepStride), strides in 32-byte blocks."""
    dstBlkStride: int = 1  # noqa: N815 - AscendC field names
    dstRepStride: int = 8  # noqa: N815


def _element_offsets(name: str, t: np.dtype, byte_offsets: np.ndarray, base: int) -> np.ndarray:
    addresses = byte_offsets.astype(np.int64) + int(base)
    bad = addresses % t.itemsize != 0
    if bad.any():
        k = int(np.argmax(bad))
        raise EmulatorError(f"{name}: srcBaseAddr {base} + srcOffset[{k}] = {int(addresses[k])} bytes is not a "
                            f"multiple of sizeof({t}) = {t.itemsize} (the device reads misplaced data)")
    return addresses // t.itemsize


def _check(name: str, dst: LocalTensor, src: LocalTensor, offsets: LocalTensor, types) -> np.dtype:
    t = dst.dtype
    if t not in types or src.dtype != t:
        raise EmulatorError(f"{name} on {src.dtype} -> {dst.dtype}: one of {', '.join(map(str, types))}, "
                            "the same on both sides")
    if offsets.dtype != _U32:
        raise EmulatorError(f"{name}: the offsets are a uint32 tensor, got {offsets.dtype}")
    return t


def _check_overlap(name: str, dst: LocalTensor, src: LocalTensor, out_at: np.ndarray, src_at: np.ndarray,
                   repeat: np.ndarray) -> None:
    """Refuse a gather whose repeat reads bytes an earlier repeat wrote (module docstring).

    out_at, src_at: element offsets written in dst and read in src; repeat: each element's repeat."""
    if dst.buffer.storage is not src.buffer.storage:
        return
    size = dst.dtype.itemsize
    written = dst.buffer.base + dst.offset + out_at * size
    read = src.buffer.base + src.offset + src_at * size
    if written.max() + size <= read.min() or read.max() + size <= written.min():
        return
    order = np.lexsort((repeat, written))  # by address, then by repeat: the first of a run is the earliest
    addresses, first = np.unique(written[order], return_index=True)
    earliest = repeat[order][first]
    for step in (0, 1):  # a read may straddle two written elements when the operands' alignments differ
        k = np.searchsorted(addresses, read - size + 1) + step
        hit = k < addresses.size
        k = np.minimum(k, addresses.size - 1)
        bad = hit & (np.abs(addresses[k] - read) < size) & (earliest[k] < repeat)
        if bad.any():
            i = int(np.argmax(bad))
            at = int(read[i] - src.buffer.base - src.offset)
            raise EmulatorError(
                f"{name}: repeat {int(repeat[i])} reads src bytes [{at}, {at + size}) that repeat "
                f"{int(earliest[k[i]])} wrote (src and dst overlap; AscendC's address-overlap rule lets a repeat "
                "read only bytes no earlier repeat wrote: the device would read the new values)")


def Gather(dst: LocalTensor, src: LocalTensor, src_offset: LocalTensor, src_base_addr: int,  # noqa: N802
           *rest) -> None:
    """dst[i] = src's element at byte srcBaseAddr + srcOffset[i] (module docstring).

    ``Gather(dst, src, srcOffset, srcBaseAddr, count)`` or
    ``Gather(dst, src, srcOffset, srcBaseAddr, mask, repeatTime, dstRepStride)``."""
    name = "Gather"
    t = _check(name, dst, src, src_offset, GATHER_TYPES)
    if len(rest) == 1:
        count = int(rest[0])
        if count <= 0:
            return
        where = np.arange(count, dtype=np.int64)
        table = read_local(src_offset, count, name).copy()
        out_at = where
        repeat = where // per_repeat(t)  # the whole repeats, then the tail as one more
    elif len(rest) == 3:
        mask, repeat_times, dst_rep_stride = rest
        r, j = active_elements(t, mask, repeat_times, dst.ctx)
        if r.size == 0:
            return
        where = r * per_repeat(t) + j
        table = gather(src_offset, where, name)
        out_at = element_offsets(t, r, j, 1, dst_rep_stride)
        repeat = r
    else:
        raise EmulatorError(f"Gather takes (dst, src, srcOffset, srcBaseAddr, count) or (..., mask, repeatTime, "
                            f"dstRepStride), got {4 + len(rest)} arguments")
    src_at = _element_offsets(name, t, table, src_base_addr)
    _check_overlap(name, dst, src, out_at, src_at, repeat)
    values = gather(src, src_at, name)  # every read before any write: what each repeat does
    # an undefined offset makes its element undefined too: scatter marks what either read found
    scatter(dst, out_at, values, name)


def Scatter(dst: LocalTensor, src: LocalTensor, dst_offset: LocalTensor, dst_base_addr: int,  # noqa: N802
            *rest) -> None:
    """dst's element at byte dstBaseAddr + dstOffset[i] = src[i], i < count (module docstring)."""
    name = "Scatter"
    platform = dst.ctx.platform
    if platform.family != "ascend950":
        raise EmulatorError(f"Scatter: not on {platform.name} (AscendC lists Ascend 950PR/950DT and inference "
                            "parts, not Atlas A2 training cores)")
    if len(rest) != 1:
        raise EmulatorError("Scatter: the mask/repeat forms are not modelled; the count form "
                            "Scatter(dst, src, dstOffset, dstBaseAddr, count) is")
    t = _check(name, dst, src, dst_offset, SCATTER_TYPES)
    count = int(rest[0])
    if count <= 0:
        return
    table = read_local(dst_offset, count, name).astype(np.int64)
    addresses = table + int(dst_base_addr)
    reach = _SCATTER_REACH.get(t.itemsize)
    if reach is not None and (table > reach).any():
        k = int(np.argmax(table > reach))
        raise ApiContractError(f"Scatter: dstOffset[{k}] = {int(table[k])} bytes; for {t.itemsize * 8}-bit "
                               f"elements an offset is at most {reach}")
    if (addresses % t.itemsize).any():
        k = int(np.argmax(addresses % t.itemsize != 0))
        raise ApiContractError(f"Scatter: dstBaseAddr {dst_base_addr} + dstOffset[{k}] = {int(addresses[k])} "
                               f"bytes is not a multiple of sizeof({t}) = {t.itemsize} (the data lands misplaced)")
    if np.unique(addresses).size != count:
        raise ApiContractError("Scatter: two elements have one destination (the offsets must be distinct; which "
                               "write lands is unpredictable)")
    values = read_local(src, count, name).copy()
    scatter(dst, addresses // t.itemsize, values, name)


def Gatherb(dst: LocalTensor, src: LocalTensor, offset: LocalTensor, repeat_times: int,  # noqa: N802
            params: GatherRepeatParams) -> None:
    """Block k of repeat r of dst = the 32 bytes at src + offset[8r + k] (module docstring)."""
    name = "Gatherb"
    t = dst.dtype
    if t.itemsize not in _BITS or src.dtype.itemsize != t.itemsize:
        raise EmulatorError(f"Gatherb on {src.dtype} -> {dst.dtype}: a 2- or 4-byte type (uint16 / uint32), the "
                            "same size on both sides")
    if offset.dtype != _U32:
        raise EmulatorError(f"Gatherb: the offsets are a uint32 tensor, got {offset.dtype}")
    repeat_times = int(repeat_times)
    if repeat_times <= 0:
        return
    blocks = repeat_times * 8
    table = read_local(offset, blocks, name).astype(np.int64)
    if (table % BLOCK_BYTES).any():
        k = int(np.argmax(table % BLOCK_BYTES != 0))
        raise EmulatorError(f"Gatherb: offset[{k}] = {int(table[k])} bytes is not a multiple of 32")
    bits = _BITS[t.itemsize]
    per_block = BLOCK_BYTES // t.itemsize
    lane = np.arange(per_block, dtype=np.int64)
    src_at = (table[:, None] // t.itemsize + lane[None, :]).reshape(-1)
    r = np.arange(repeat_times, dtype=np.int64)[:, None]
    k = np.arange(8, dtype=np.int64)[None, :]
    dst_blocks = (r * int(params.dstRepStride) + k * int(params.dstBlkStride)).reshape(-1)
    dst_at = (dst_blocks[:, None] * per_block + lane[None, :]).reshape(-1)
    values = gather(src.ReinterpretCast(bits), src_at, name)
    scatter(dst.ReinterpretCast(bits), dst_at, values, name)
