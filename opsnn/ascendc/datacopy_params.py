"""The Atlas A2 block forms of the copies: DataCopy with DataCopyParams (bursts of whole 32-byte
blocks) and DataCopyPad with DataCopyExtParams / DataCopyParams (bursts of any byte length, GM
strides in bytes, UB strides in 32-byte blocks, each UB burst starting 32-byte aligned, optional
padding), as AscendC's documentation describes them.

A burst's UB footprint is its padded length rounded up to 32 bytes. Padding (GM -> UB): with
isPad, leftPadding elements of paddingValue before the data and rightPadding after it; without
isPad the bytes between the data's end and the next 32-byte boundary are not written (the device
leaves what it leaves there: the sanitizer calls a later read of them ub_read_before_write).

Ascend950's PaddingMode::Compact (DataCopyPad<T, PaddingMode::Compact>): the bursts lie back to
back in UB, each at the byte after the previous one (the UB stride and left/right padding are
ignored, as AscendC documents); only the end of the last burst is rounded up to 32 bytes, filled
with paddingValue under isPad and left unwritten otherwise."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

from . import findings as fk
from .core import CoreContext
from .errors import EmulatorError
from .global_tensor import GlobalTensor, gm_read, gm_write
from .local_tensor import LocalTensor, read_local, write_local

BLOCK = 32  # bytes


class DataCopyMVType(Enum):
    """The DMA path a loop mode applies to (SetLoopModePara)."""
    UB_TO_OUT = 0
    OUT_TO_UB = 1


@dataclass(frozen=True)
class LoopModeParams:
    """SetLoopModePara's two loops around a burst copy (strides in bytes, between the starts of
    one iteration's data and the next)."""
    loop1Size: int = 0  # noqa: N815 - AscendC's field names
    loop2Size: int = 0  # noqa: N815
    loop1SrcStride: int = 0  # noqa: N815
    loop1DstStride: int = 0  # noqa: N815
    loop2SrcStride: int = 0  # noqa: N815
    loop2DstStride: int = 0  # noqa: N815


def SetLoopModePara(ctx: CoreContext, params: LoopModeParams, path: DataCopyMVType) -> None:  # noqa: N802
    """Ascend950's loop mode: until ResetLoopModePara, every burst copy (DataCopy with
    DataCopyParams, DataCopyPad with DataCopyExtParams) on `path` runs loop2Size x loop1Size times,
    iteration (i2, i1) moved by i1 * loop1*Stride + i2 * loop2*Stride bytes on each side. A loop size
    of 0 runs once (the register's 0 is not documented)."""
    ctx.counters.issue("SetLoopModePara")
    ctx.spr[f"LOOP_MODE_{path.name}"] = params


def ResetLoopModePara(ctx: CoreContext, path: DataCopyMVType) -> None:  # noqa: N802 - AscendC name
    """The end of SetLoopModePara's loop mode on `path`."""
    ctx.counters.issue("ResetLoopModePara")
    ctx.spr.pop(f"LOOP_MODE_{path.name}", None)


def _looped(copy):
    """Run a burst copy under the core's loop mode for its path, if one is set."""
    def run(dst, src, *args) -> None:
        local = dst if isinstance(dst, LocalTensor) else src
        path = DataCopyMVType.OUT_TO_UB if isinstance(dst, LocalTensor) else DataCopyMVType.UB_TO_OUT
        loop = local.ctx.spr.get(f"LOOP_MODE_{path.name}") if isinstance(local, LocalTensor) else None
        if loop is None or not (isinstance(dst, LocalTensor) ^ isinstance(src, LocalTensor)):
            copy(dst, src, *args)
            return
        for i2 in range(max(int(loop.loop2Size), 1)):
            for i1 in range(max(int(loop.loop1Size), 1)):
                s_off = i1 * int(loop.loop1SrcStride) + i2 * int(loop.loop2SrcStride)
                d_off = i1 * int(loop.loop1DstStride) + i2 * int(loop.loop2DstStride)
                copy(_at(dst, d_off), _at(src, s_off), *args)
    run.__name__, run.__doc__ = copy.__name__, copy.__doc__
    return run


def _at(side, byte_offset: int):
    return _ub_at(side, byte_offset) if isinstance(side, LocalTensor) else _gm_at(side, byte_offset)


class PaddingMode(Enum):
    """DataCopyPad's UB layout on Ascend950: Normal (every burst 32-byte aligned) or Compact."""
    Normal = 0
    Compact = 1


@dataclass(frozen=True)
class DataCopyParams:
    """DataCopy: blockCount bursts of blockLen 32-byte blocks, srcStride / dstStride blocks apart
    (the gap between one burst's end and the next one's start). DataCopyPad reads blockLen in bytes
    and the GM-side stride in bytes, as DataCopyExtParams."""
    blockCount: int = 1  # noqa: N815 - AscendC's field names
    blockLen: int = 0  # noqa: N815
    srcStride: int = 0  # noqa: N815
    dstStride: int = 0  # noqa: N815


@dataclass(frozen=True)
class DataCopyExtParams:
    blockCount: int = 1  # noqa: N815
    blockLen: int = 0  # noqa: N815 - bytes
    srcStride: int = 0  # noqa: N815 - GM: bytes; UB: 32-byte blocks
    dstStride: int = 0  # noqa: N815
    rsv: int = 0


@dataclass(frozen=True)
class DataCopyPadExtParams:
    isPad: bool = False  # noqa: N815
    leftPadding: int = 0  # noqa: N815 - elements
    rightPadding: int = 0  # noqa: N815 - elements
    paddingValue: object = 0  # noqa: N815 - a scalar of the copy's type, or its bits as an int


def _check_ub_aligned(lt: LocalTensor, instruction: str, nbytes: int, unit: int = BLOCK) -> None:
    ctx = lt.ctx
    if ctx.sanitize and lt.ub_addr % unit:
        ctx.log.add(fk.DATACOPY_UNALIGNED, instruction, lt.buffer.name, lt.offset, nbytes,
                    f"UB address {lt.ub_addr:#x} is not {unit}-byte aligned")


def _ub_at(lt: LocalTensor, byte_offset: int) -> LocalTensor:
    return LocalTensor(lt.buffer, lt.dtype, lt.offset + byte_offset)


def _gm_at(gt: GlobalTensor, byte_offset: int) -> GlobalTensor:
    sub = GlobalTensor(gt.dtype)
    sub.ptr = gt._bound()._with(gt._bound().addr + byte_offset, gt.dtype)
    return sub


def _counts(params) -> tuple[int, int, int, int]:
    n, length, s, d = (int(params.blockCount), int(params.blockLen), int(params.srcStride), int(params.dstStride))
    if n < 0 or length < 0 or s < 0 or d < 0:
        raise EmulatorError(f"copy params must be >= 0, got {params}")
    return n, length, s, d


@_looped
def DataCopyBlocks(dst, src, params: DataCopyParams) -> None:  # noqa: N802 - AscendC's DataCopy(dst, src, params)
    """DataCopy(dst, src, DataCopyParams): bursts of whole 32-byte blocks, GM <-> UB or UB -> UB."""
    if dst.dtype != src.dtype:
        raise EmulatorError(f"DataCopy between {src.dtype} and {dst.dtype}: the types must match")
    n, blocks, s_gap, d_gap = _counts(params)
    burst = blocks * BLOCK
    for side in (dst, src):  # UB sides only: GM has no alignment rule
        if isinstance(side, LocalTensor):
            _check_ub_aligned(side, "DataCopy", burst)
    item = dst.dtype.itemsize
    for i in range(n):
        s_off, d_off = i * (blocks + s_gap) * BLOCK, i * (blocks + d_gap) * BLOCK
        if isinstance(src, GlobalTensor):
            data = gm_read(_gm_at(src, s_off), burst, "DataCopy")
        else:
            # to UB, the bytes keep their definedness (no sink); to GM, undefined ones are an error
            data = read_local(_ub_at(src, s_off), burst // item, "DataCopy",
                              sink=False if isinstance(dst, LocalTensor) else None).view(np.uint8).copy()
        if isinstance(dst, GlobalTensor):
            gm_write(_gm_at(dst, d_off), data, "DataCopy")
        else:
            write_local(_ub_at(dst, d_off), data, "DataCopy")


def _padding_bytes(pad: DataCopyPadExtParams, dtype: np.dtype, count: int) -> np.ndarray:
    value = pad.paddingValue
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and dtype.kind == "f":
        bits = np.array([int(value) & ((1 << (8 * dtype.itemsize)) - 1)], dtype=f"u{dtype.itemsize}")
        one = bits.view(dtype)
    else:
        one = np.array([value]).astype(dtype)
    return np.repeat(one, count).view(np.uint8)


@_looped
def DataCopyPadBlocks(dst, src, params, pad: DataCopyPadExtParams | None = None,  # noqa: N802
                      mode: PaddingMode = PaddingMode.Normal) -> None:
    """DataCopyPad(dst, src, DataCopyExtParams | DataCopyParams[, pad][, mode]): GM -> UB (with
    optional padding) or UB -> GM, bursts of blockLen bytes (module docstring: the modes)."""
    if dst.dtype != src.dtype:
        raise EmulatorError(f"DataCopyPad between {src.dtype} and {dst.dtype}: the types must match")
    n, length, s_gap, d_gap = _counts(params)
    item = dst.dtype.itemsize
    if length % item:
        raise EmulatorError(f"DataCopyPad: blockLen {length} bytes is not a whole number of {dst.dtype} elements")
    to_ub = isinstance(dst, LocalTensor) and isinstance(src, GlobalTensor)
    if not to_ub and not (isinstance(dst, GlobalTensor) and isinstance(src, LocalTensor)):
        raise EmulatorError(f"DataCopyPad from {type(src).__name__} to {type(dst).__name__}: GM -> UB or UB -> GM only")
    if not to_ub and pad is not None:
        raise EmulatorError("DataCopyPad UB -> GM takes no padding parameters")
    if mode is PaddingMode.Compact:
        _compact_blocks(dst, src, n, length, s_gap if to_ub else d_gap, pad, to_ub)
        return
    if to_ub:
        pad = pad or DataCopyPadExtParams()
        left, right = int(pad.leftPadding), int(pad.rightPadding)
        if left * item > BLOCK or right * item > BLOCK:
            raise EmulatorError(f"DataCopyPad: leftPadding {left} / rightPadding {right} elements exceed one "
                                f"32-byte block of {dst.dtype}")
        footprint = -(-(length + (left + right) * item) // BLOCK) * BLOCK
        _check_ub_aligned(dst, "DataCopyPad", footprint)
        for i in range(n):
            data = gm_read(_gm_at(src, i * (length + s_gap)), length, "DataCopyPad")
            base = i * (footprint + d_gap * BLOCK)
            if pad.isPad and left:
                write_local(_ub_at(dst, base), _padding_bytes(pad, dst.dtype, left), "DataCopyPad")
            write_local(_ub_at(dst, base + left * item), data, "DataCopyPad")
            if pad.isPad and right:
                write_local(_ub_at(dst, base + left * item + length), _padding_bytes(pad, dst.dtype, right),
                            "DataCopyPad")
    else:
        footprint = -(-length // BLOCK) * BLOCK
        _check_ub_aligned(src, "DataCopyPad", footprint)
        for i in range(n):
            data = read_local(_ub_at(src, i * (footprint + s_gap * BLOCK)), length // item, "DataCopyPad")
            gm_write(_gm_at(dst, i * (length + d_gap)), data.view(np.uint8).copy(), "DataCopyPad")


def _compact_blocks(dst, src, n: int, length: int, gm_gap: int, pad: DataCopyPadExtParams | None,
                    to_ub: bool) -> None:
    """PaddingMode::Compact: n bursts back to back in UB, `gm_gap` bytes apart in GM (GM -> UB when
    `to_ub`, else UB -> GM; DataCopyPadBlocks checked the sides and the padding)."""
    item = dst.dtype.itemsize
    total = n * length
    footprint = -(-total // BLOCK) * BLOCK
    if to_ub:
        _check_ub_aligned(dst, "DataCopyPad", footprint)
        for i in range(n):
            write_local(_ub_at(dst, i * length), gm_read(_gm_at(src, i * (length + gm_gap)), length, "DataCopyPad"),
                        "DataCopyPad")
        if pad is not None and pad.isPad and footprint > total:
            write_local(_ub_at(dst, total), _padding_bytes(pad, dst.dtype, (footprint - total) // item),
                        "DataCopyPad")
    else:
        _check_ub_aligned(src, "DataCopyPad", footprint)
        for i in range(n):
            data = read_local(_ub_at(src, i * length), length // item, "DataCopyPad")
            gm_write(_gm_at(dst, i * (length + gm_gap)), data.view(np.uint8).copy(), "DataCopyPad")
