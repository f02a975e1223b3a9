"""TransDataTo5HD: AscendC's NCHW -> NC1HWC0 scatter (the vector unit's block transpose).

``TransDataTo5HD(dstList, srcList, TransDataTo5HDParams(dstHighHalf, srcHighHalf, repeatTimes,
dstRepStride, srcRepStride))``: dstList and srcList each name 16 32-byte blocks of UB (16
LocalTensors, or 16 UB addresses from ``LocalTensor::GetPhyAddr`` -- `local_at` turns an address
back into a tensor). One repeat reads the 16 source blocks (512 bytes) and writes the 16
destination blocks, as AscendC documents it, with ``S[i]`` the block at srcList[i] and ``D[i]``
the one at dstList[i]:

- 16-bit types (half, int16, uint16): 16 elements a block; ``D[k][m] = S[m][k]`` -- a 16 x 16
  transpose;
- 32-bit types (float, int32, uint32): 8 elements a block; element k of the 16 source blocks makes
  two destination blocks, ``D[2k][m] = S[m][k]`` and ``D[2k + 1][m] = S[8 + m][k]`` (k, m < 8);
- 8-bit types (int8, uint8): 32 elements a block; ``D[k][16 dh + m] = S[m][16 sh + k]`` (k, m < 16)
  with sh = srcHighHalf, dh = dstHighHalf: the half of each source block read and the half of
  each destination block written (the other half of D[k] keeps its bytes). The two flags count
  only for 8-bit types.

Repeats: repeat r reads every source block ``r * srcRepStride`` blocks (32 bytes each) further on
and writes every destination block ``r * dstRepStride`` blocks further on. With repeatTimes == 1
AscendC's note applies: the one repeat's blocks lie one stride from the listed addresses (the
listed address plus dstRepStride / srcRepStride blocks), which is why kernels set both strides
to 0 for a single repeat. repeatTimes is 0..255 (0: nothing happens). Every address must be
32-byte aligned (AscendC requires it of the lists); an unaligned one is refused by name.

Within a repeat all 16 source blocks are read before any destination block is written, so a
destination that overlaps a source gets the source's old values; repeats run one after another.
The sanitizer sees each block as one access (overflow past its buffer, read-before-write) and
undefined source elements make exactly the destination elements they move to undefined."""
from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from opsnn.dtypes import dtype_name

from .core import CoreContext
from .errors import EmulatorError
from .local_tensor import LocalTensor, mark_undefined, read_local
from .repeat import BLOCK_BYTES, MAX_REPEAT_TIMES, _store

LIST_SIZE = 16  # AscendC's NCHW_CONV_ADDR_LIST_SIZE
TRANS_TYPES = tuple(np.dtype(t) for t in (np.int8, np.uint8, np.int16, np.uint16, np.float16, np.int32,
                                          np.uint32, np.float32))
_NAME = "TransDataTo5HD"


@dataclass
class TransDataTo5HDParams:
    """AscendC's TransDataTo5HDParams, in its field order (strides in 32-byte blocks)."""
    dstHighHalf: bool = False  # noqa: N815 - AscendC field names
    srcHighHalf: bool = False  # noqa: N815
    repeatTimes: int = 1  # noqa: N815
    dstRepStride: int = 0  # noqa: N815
    srcRepStride: int = 0  # noqa: N815


def local_at(ctx: CoreContext, ub_addr: int, dtype) -> LocalTensor:
    """The LocalTensor of type `dtype` at UB address `ub_addr` (what GetPhyAddr returned): in the
    core's buffer that holds the address, or, past every buffer's end, in the last buffer before
    it (the access is then that buffer's local_tensor_overflow).

    Raises
    ------
    EmulatorError
        No buffer starts at or before the address.
    """
    buffers = ctx.buffers
    starts = [b.ub_addr for b in buffers]
    i = bisect.bisect_right(starts, int(ub_addr)) - 1
    if i < 0:
        raise EmulatorError(f"UB address {int(ub_addr):#x} lies before every buffer TPipe::InitBuffer gave "
                            "this core (not a LocalTensor's GetPhyAddr)")
    buf = buffers[i]
    return LocalTensor(buf, dtype, int(ub_addr) - buf.ub_addr)


def _tensors(what: str, items: Sequence, dtype, ctx: CoreContext | None) -> list[LocalTensor]:
    if len(items) != LIST_SIZE:
        raise EmulatorError(f"{_NAME}: {what} has {len(items)} entries, AscendC's lists have {LIST_SIZE}")
    out = []
    for k, item in enumerate(items):
        if isinstance(item, LocalTensor):
            t = item
        elif ctx is not None and isinstance(item, (int, np.integer)):
            t = local_at(ctx, int(item), dtype)
        else:
            raise EmulatorError(f"{_NAME}: {what}[{k}] must be a LocalTensor (or a UB address with ctx given), "
                                f"got {type(item).__name__}")
        if t.ub_addr % BLOCK_BYTES:
            raise EmulatorError(f"{_NAME}: {what}[{k}] at UB {t.ub_addr:#x} is not 32-byte aligned (AscendC "
                                "requires every listed address to be)")
        out.append(t)
    return out


def _permutation(itemsize: int, src_high: bool, dst_high: bool) -> tuple[np.ndarray, np.ndarray, int]:
    """(dst_pos, src_pos, per): flat element positions (block * per + element) such that one
    repeat does D.flat[dst_pos] = S.flat[src_pos]; per = elements a block."""
    per = BLOCK_BYTES // itemsize
    if itemsize == 2:
        k, m = np.meshgrid(np.arange(16), np.arange(16), indexing="ij")
        return (k * per + m).ravel(), (m * per + k).ravel(), per
    if itemsize == 4:
        k, h, m = np.meshgrid(np.arange(8), np.arange(2), np.arange(8), indexing="ij")
        return ((2 * k + h) * per + m).ravel(), ((8 * h + m) * per + k).ravel(), per
    k, m = np.meshgrid(np.arange(16), np.arange(16), indexing="ij")
    sh, dh = 16 * int(bool(src_high)), 16 * int(bool(dst_high))
    return (k * per + dh + m).ravel(), (m * per + sh + k).ravel(), per


def TransDataTo5HD(dst_list: Sequence, src_list: Sequence, params: TransDataTo5HDParams,  # noqa: N802
                   dtype=None, ctx: CoreContext | None = None) -> None:
    """One TransDataTo5HD instruction (module docstring).

    Parameters
    ----------
    dst_list, src_list : sequence of 16 LocalTensor, or of 16 int
        The destination and source blocks; UB addresses (GetPhyAddr) need `ctx` and `dtype`.
    params : TransDataTo5HDParams
        Half flags (8-bit types), repeatTimes and the repeat strides.
    dtype : numpy dtype-like, optional
        The element type T (default: the first listed tensor's).
    ctx : CoreContext, optional
        The core whose UB the addresses are in.
    """
    if not isinstance(params, TransDataTo5HDParams):
        raise EmulatorError(f"{_NAME}: params must be a TransDataTo5HDParams, got {type(params).__name__}")
    if dtype is None:
        first = next((t for t in list(dst_list) + list(src_list) if isinstance(t, LocalTensor)), None)
        if first is None:
            raise EmulatorError(f"{_NAME}: UB addresses need the element type (dtype=)")
        dtype = first.dtype
    t = np.dtype(dtype)
    if t not in TRANS_TYPES:
        takes = ", ".join(dtype_name(a) for a in TRANS_TYPES)
        raise EmulatorError(f"{_NAME} on {dtype_name(t)}: takes {takes}")
    dsts = [d.ReinterpretCast(t) for d in _tensors("dstList", dst_list, t, ctx)]
    srcs = [s.ReinterpretCast(t) for s in _tensors("srcList", src_list, t, ctx)]
    repeat_times = int(params.repeatTimes)
    if not 0 <= repeat_times <= MAX_REPEAT_TIMES:
        raise EmulatorError(f"{_NAME} repeatTimes {repeat_times}: 0..{MAX_REPEAT_TIMES}")
    d_rep, s_rep = int(params.dstRepStride), int(params.srcRepStride)
    if not (0 <= d_rep <= 0xFFFF and 0 <= s_rep <= 0xFFFF):
        raise EmulatorError(f"{_NAME} strides must be 0..65535, got dstRepStride {d_rep}, srcRepStride {s_rep}")
    core = dsts[0].ctx
    core.counters.issue(_NAME)
    if repeat_times == 0:
        return
    dst_pos, src_pos, per = _permutation(t.itemsize, params.srcHighHalf, params.dstHighHalf)
    written = np.unique(dst_pos)
    pending = core.undefined_inputs
    for r in range(repeat_times):
        step = 1 if repeat_times == 1 else r  # AscendC's note: a single repeat lies one stride on
        values = np.empty(LIST_SIZE * per, dtype=t)
        undefined = np.zeros(LIST_SIZE * per, dtype=bool)
        origins: list[str] = []
        for i, s in enumerate(srcs):
            first = len(pending)
            values[i * per:(i + 1) * per] = read_local(s[step * s_rep * per], per, _NAME)
            for entry in pending[first:]:
                undefined[i * per + max(entry[1], 0):i * per + min(entry[2], per)] = True
                origins.append(entry[3])
            del pending[first:]
        out = np.empty(LIST_SIZE * per, dtype=t)
        out_undefined = np.zeros(LIST_SIZE * per, dtype=bool)
        out[dst_pos] = values[src_pos]
        out_undefined[dst_pos] = undefined[src_pos]
        for i, d in enumerate(dsts):
            block = d[step * d_rep * per]
            cols = written[(written >= i * per) & (written < (i + 1) * per)] - i * per
            lo, hi = int(cols[0]), int(cols[-1]) + 1  # one run: a whole block, or one half (8-bit)
            _store(block[lo], out[i * per + lo:i * per + hi], _NAME)
            bad = np.flatnonzero(out_undefined[i * per + lo:i * per + hi])
            if bad.size:
                mark_undefined(block[lo], bad, origins[0])
