"""AscendC::MicroAPI's Pack and UnPack (Ascend950): narrowing a register's integer lanes into one
half of another, widening one half into a whole register -- and the same for mask registers; and
the register forms of Interleave / DeInterleave. micro.py re-exports them. Upstream's norm
kernels move bfloat16 / half through them:
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
- DeInterleave<T>(dst0, dst1, src0, src1): the lanes of src0 then src1, as one sequence of twice a
  register's lanes: its even lanes into dst0, its odd lanes into dst1. Interleave<T>(dst0, dst1,
  src0, src1), its inverse: src0's and src1's lanes alternately (src0 first), the first register's
  worth into dst0 and the rest into dst1. Both read their sources before writing (a destination
  may be a source).
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


def _rearrange(name: str, t: np.dtype, src0: RegTensor, src1: RegTensor, interleave: bool):
    """The two results of Interleave / DeInterleave on lanes of type t: (values, undefined) each."""
    m = _micro()
    if not (isinstance(src0, m.RegTensor) and isinstance(src1, m.RegTensor)):
        raise EmulatorError(f"MicroAPI::{name} of mask registers is not modelled (the register form is)")
    if src0.dtype.itemsize != src1.dtype.itemsize:
        raise EmulatorError(f"MicroAPI::{name}: the sources' lanes differ in size")
    size = np.dtype(t).itemsize
    src0.ctx.counters.issue(f"MicroAPI::{name}")
    lanes = np.concatenate([src0.data.view(_UINT[size]), src1.data.view(_UINT[size])])
    undef = np.concatenate([src0.lane_undef(size), src1.lane_undef(size)])
    if interleave:
        order = np.stack([np.arange(lanes.size // 2), lanes.size // 2 + np.arange(lanes.size // 2)], 1).reshape(-1)
    else:
        order = np.concatenate([np.arange(0, lanes.size, 2), np.arange(1, lanes.size, 2)])
    lanes, undef = lanes[order], undef[order]
    n = lanes.size // 2
    return (lanes[:n], undef[:n]), (lanes[n:], undef[n:])


def _fill(dst: RegTensor, lanes: tuple[np.ndarray, np.ndarray], origin: str | None) -> None:
    """dst's bytes from (values, undefined per lane); `origin` names undefined ones if any."""
    values, undef = lanes
    dst.data[:] = values.view(np.uint8)
    dst.undef[:] = np.repeat(undef, values.dtype.itemsize)
    dst.origin = origin if dst.undef.any() else None


def _two(name: str, dst0: RegTensor, dst1: RegTensor, src0: RegTensor, src1: RegTensor, interleave: bool):
    if dst0 is dst1:
        raise EmulatorError(f"MicroAPI::{name}: dst0 and dst1 must be different registers")
    first, second = _rearrange(name, dst0.dtype, src0, src1, interleave)
    _fill(dst0, first, src0.origin or src1.origin)
    _fill(dst1, second, src0.origin or src1.origin)


def DeInterleave(dst0: RegTensor, dst1: RegTensor, src0: RegTensor, src1: RegTensor) -> None:  # noqa: N802
    """MicroAPI::DeInterleave (module docstring)."""
    _two("DeInterleave", dst0, dst1, src0, src1, interleave=False)


def Interleave(dst0: RegTensor, dst1: RegTensor, src0: RegTensor, src1: RegTensor) -> None:  # noqa: N802
    """MicroAPI::Interleave (module docstring)."""
    _two("Interleave", dst0, dst1, src0, src1, interleave=True)


def _half_of_two(name: str, interleave: bool):
    """The C++ bridge's form: one result register per call. The first call computes both results,
    writes the second into its destination and keeps the first for the next call's."""
    def first_call(dst1: RegTensor, src0: RegTensor, src1: RegTensor) -> None:
        first, second = _rearrange(name, dst1.dtype, src0, src1, interleave)
        _fill(dst1, second, src0.origin or src1.origin)
        src0.ctx.spr[f"MICRO_{name.upper()}_FIRST"] = (first, src0.origin or src1.origin)

    def second_call(dst0: RegTensor) -> None:
        pending = dst0.ctx.spr.pop(f"MICRO_{name.upper()}_FIRST", None)
        if pending is None:
            raise EmulatorError(f"MicroAPI::{name}: its second half without its first")
        _fill(dst0, *pending)
    return first_call, second_call


DeInterleaveSecond, DeInterleaveFirst = _half_of_two("DeInterleave", interleave=False)
InterleaveSecond, InterleaveFirst = _half_of_two("Interleave", interleave=True)

__all__ = ["DeInterleave", "DeInterleaveFirst", "DeInterleaveSecond", "Interleave", "InterleaveFirst",
           "InterleaveSecond", "Pack", "UnPack"]
