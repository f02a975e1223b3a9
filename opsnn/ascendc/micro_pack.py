"""AscendC::MicroAPI's Pack and UnPack (Ascend950): narrowing a register's integer lanes into one
half of another, widening one half into a whole register -- and the same for mask registers.
micro.py re-exports them. Upstream's norm kernels move bfloat16 / half through them:
``UnPack((RegTensor<uint32_t>&)wide, (RegTensor<uint16_t>&)narrow)`` before a Cast reads each
lane's low half, ``Pack((RegTensor<uint16_t>&)narrow, (RegTensor<uint32_t>&)wide)`` after one.

What AscendC documents, and what is modelled:

- Pack<T, U, part>(dst, src): each lane of src (U: 16, 32-bit integers) keeps its low half (8,
  16 bits: truncation), and the results, in lane order, fill the low half of dst (part LOWEST) or
  its high half (HIGHEST).
- UnPack<T, U, part>(dst, src): the lanes of src's low half (LOWEST) or high half (HIGHEST), each
  widened to twice its size -- zeros above an unsigned lane, copies of the sign bit above a
  signed one -- fill dst. Widths: 8 -> 16, 16 -> 32 bits.
- Pack<part>(dstMask, srcMask): the even bits of src into the low (LOWEST) or high (HIGHEST) half
  of dst; UnPack<part>(dstMask, srcMask): the bits of src's low or high half to the even bits of
  dst. (A b16 predicate becomes the b8 / b32 predicate of the same lanes.)
- Assumed (not documented): the half of dst a Pack does not fill, and the odd bits of an
  UnPack's mask, are zero.
- 64-bit lanes (Pack from int64 / uint64) are refused by name: no 64-bit registers here.
- Undefined values follow the lanes (or bits) they move with."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from opsnn.dtypes import dtype_name

from .errors import EmulatorError

if TYPE_CHECKING:
    from .micro_core import HighLowPart, MaskReg, RegTensor

_WIDTH = 256  # bytes of a register
_UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32}


def _micro():
    from . import micro_core as micro
    return micro


def _part(name: str, part) -> bool:
    """Whether `part` is HIGHEST (HighLowPart or its C++ value)."""
    m = _micro()
    return m.high_low_part(name, part) is m.HighLowPart.HIGHEST


def _int_lanes(name: str, reg: RegTensor, sizes: tuple[int, ...]) -> np.dtype:
    t = reg.dtype
    if t.kind not in "iu" or t.itemsize not in sizes:
        allowed = "/".join(f"{8 * s}" for s in sizes)
        raise EmulatorError(f"MicroAPI::{name} on {dtype_name(t)} lanes: {allowed}-bit integer lanes only")
    return t


def _masks(name: str, dst: MaskReg, src: MaskReg, highest: bool, pack: bool) -> None:
    m = _micro()
    src.ctx.counters.issue(f"MicroAPI::{name}")
    half = _WIDTH // 2
    bits = np.zeros(_WIDTH, dtype=bool)
    undef = np.zeros(_WIDTH, dtype=bool)
    if pack:
        where = slice(half, _WIDTH) if highest else slice(0, half)
        bits[where], undef[where] = src.bits[0::2], src.undef[0::2]
    else:
        where = slice(half, _WIDTH) if highest else slice(0, half)
        bits[0::2], undef[0::2] = src.bits[where], src.undef[where]
    origin = src.origin or f"MicroAPI::{name}{m._where(src.ctx)} used a mask register nothing set"
    dst.bits[:] = bits
    dst.undef[:] = undef
    dst.origin = origin if undef.any() else None


def _registers(name: str, dst: RegTensor, src: RegTensor, values: np.ndarray, lane_undef: np.ndarray) -> None:
    """dst's bytes from `values` (its lanes), their definedness per lane."""
    m = _micro()
    dst.data[:] = values.view(np.uint8)
    dst.undef[:] = np.repeat(lane_undef, values.dtype.itemsize)
    dst.origin = (src.origin or f"MicroAPI::{name}{m._where(src.ctx)} read lanes of a register nothing wrote"
                  if dst.undef.any() else None)


def Pack(dst, src, part: HighLowPart | int = 0) -> None:  # noqa: N802 - AscendC name
    """MicroAPI::Pack (module docstring): registers or mask registers."""
    m = _micro()
    highest = _part("Pack", part)
    if isinstance(dst, m.MaskReg) and isinstance(src, m.MaskReg):
        _masks("Pack", dst, src, highest, pack=True)
        return
    u = _int_lanes("Pack", src, (2, 4))
    t = _int_lanes("Pack", dst, (1, 2))
    if t.itemsize * 2 != u.itemsize:
        raise EmulatorError(f"MicroAPI::Pack {dtype_name(u)} -> {dtype_name(t)}: the destination lanes are half "
                            "the source's")
    src.ctx.counters.issue("MicroAPI::Pack")
    n = _WIDTH // u.itemsize
    low = src.data.view(_UINT[u.itemsize]).astype(_UINT[t.itemsize])  # each lane's low half
    low_undef = src.undef.reshape(n, u.itemsize)[:, :t.itemsize].any(axis=1)
    out = np.zeros(2 * n, dtype=_UINT[t.itemsize])
    undef = np.zeros(2 * n, dtype=bool)
    where = slice(n, 2 * n) if highest else slice(0, n)
    out[where], undef[where] = low, low_undef
    _registers("Pack", dst, src, out, undef)


def UnPack(dst, src, part: HighLowPart | int = 0) -> None:  # noqa: N802 - AscendC name
    """MicroAPI::UnPack (module docstring): registers or mask registers."""
    m = _micro()
    highest = _part("UnPack", part)
    if isinstance(dst, m.MaskReg) and isinstance(src, m.MaskReg):
        _masks("UnPack", dst, src, highest, pack=False)
        return
    u = _int_lanes("UnPack", src, (1, 2))
    t = _int_lanes("UnPack", dst, (2, 4))
    if u.itemsize * 2 != t.itemsize:
        raise EmulatorError(f"MicroAPI::UnPack {dtype_name(u)} -> {dtype_name(t)}: the destination lanes are twice "
                            "the source's")
    src.ctx.counters.issue("MicroAPI::UnPack")
    n = _WIDTH // t.itemsize
    where = slice(n, 2 * n) if highest else slice(0, n)
    lanes = src.data.view(u)[where]
    wide_type = np.dtype(f"{u.kind}{t.itemsize}")  # sign- or zero-extended by the source's signedness
    out = lanes.astype(wide_type)
    undef = src.undef.reshape(2 * n, u.itemsize).any(axis=1)[where]
    _registers("UnPack", dst, src, out, undef)


__all__ = ["Pack", "UnPack"]
