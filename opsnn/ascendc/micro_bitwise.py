"""AscendC::MicroAPI's bit operations on integer lanes (Ascend950): And, Or, Xor, Not, the shifts
by a scalar, ShiftLefts and ShiftRights, and by a register, ShiftLeft and ShiftRight. micro.py
re-exports them (Python kernels call ``micro.And(...)``, the bridge ``MicroAPI.And``).

Lanes are 8-, 16- or 32-bit integers, signed or not; a kernel often sees a float register as
uint32 lanes (C++'s ``(RegTensor<uint32_t>&)reg``) to clear or move bits. Masks and merge modes
are micro.py's: ZEROING writes 0 to the inactive lanes -- which is how upstream's norm kernels zero
a register's tail: ``ShiftLefts(reg, reg, 0, tailMask)`` keeps the tail mask's lanes and clears the
rest.

ShiftLefts is a logical shift (zeros in); ShiftRights is arithmetic on signed lanes (copies of the
sign bit in) and logical on unsigned ones, as the LocalTensor ShiftRight (scalar_ops.py). The
shift must lie in 0 .. bits - 1: AscendC says a negative one is not supported and leaves one of
the lane's width or more undocumented, so both are refused by name rather than guessed."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from opsnn.dtypes import dtype_name

from .errors import EmulatorError

if TYPE_CHECKING:
    from .micro_core import MaskMergeMode, MaskReg, RegTensor

# The register helpers are micro_core's (micro.py re-exports this module's instructions).

INT_LANES = tuple(np.dtype(t) for t in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32))


def _micro():
    from . import micro_core as micro
    return micro


def _run(name: str, fn, dst: RegTensor, srcs: list[RegTensor], mask: MaskReg, mode) -> None:
    m = _micro()
    m._elementwise(name, fn, INT_LANES, dst, srcs, mask, m.MaskMergeMode.ZEROING if mode is None else mode)


def And(dst: RegTensor, src0: RegTensor, src1: RegTensor, mask: MaskReg,  # noqa: N802 - AscendC name
        mode: MaskMergeMode | None = None) -> None:
    """MicroAPI::And: dst = src0 & src1 on the active lanes."""
    _run("And", np.bitwise_and, dst, [src0, src1], mask, mode)


def Or(dst: RegTensor, src0: RegTensor, src1: RegTensor, mask: MaskReg,  # noqa: N802 - AscendC name
       mode: MaskMergeMode | None = None) -> None:
    """MicroAPI::Or: dst = src0 | src1 on the active lanes."""
    _run("Or", np.bitwise_or, dst, [src0, src1], mask, mode)


def Xor(dst: RegTensor, src0: RegTensor, src1: RegTensor, mask: MaskReg,  # noqa: N802 - AscendC name
        mode: MaskMergeMode | None = None) -> None:
    """MicroAPI::Xor: dst = src0 ^ src1 on the active lanes."""
    _run("Xor", np.bitwise_xor, dst, [src0, src1], mask, mode)


def Not(dst: RegTensor, src: RegTensor, mask: MaskReg,  # noqa: N802 - AscendC name
        mode: MaskMergeMode | None = None) -> None:
    """MicroAPI::Not: dst = ~src on the active lanes."""
    _run("Not", np.invert, dst, [src], mask, mode)


def _shift_amount(name: str, scalar, t: np.dtype) -> int:
    n = int(scalar)
    if not 0 <= n < 8 * t.itemsize:
        raise EmulatorError(f"MicroAPI::{name} by {n} on {dtype_name(t)} lanes: the shift must be "
                            f"0..{8 * t.itemsize - 1} (a negative shift is not supported, a wider one not "
                            "documented)")
    return n


def ShiftLefts(dst: RegTensor, src: RegTensor, scalar, mask: MaskReg,  # noqa: N802 - AscendC name
               mode: MaskMergeMode | None = None) -> None:
    """MicroAPI::ShiftLefts: dst = src << scalar on the active lanes (zeros shifted in)."""
    n = _shift_amount("ShiftLefts", scalar, src.dtype)
    _run("ShiftLefts", lambda x: np.left_shift(x, x.dtype.type(n)), dst, [src], mask, mode)


def ShiftRights(dst: RegTensor, src: RegTensor, scalar, mask: MaskReg,  # noqa: N802 - AscendC name
                mode: MaskMergeMode | None = None) -> None:
    """MicroAPI::ShiftRights: dst = src >> scalar on the active lanes (arithmetic on signed lanes,
    logical on unsigned ones)."""
    n = _shift_amount("ShiftRights", scalar, src.dtype)
    _run("ShiftRights", lambda x: np.right_shift(x, x.dtype.type(n)), dst, [src], mask, mode)


def _by_register(name: str, dst: RegTensor, src: RegTensor, shifts: RegTensor, mask: MaskReg, mode,
                 left: bool) -> None:
    t = src.dtype
    signed = np.dtype(f"i{t.itemsize}")
    if shifts.dtype != signed:
        raise EmulatorError(f"MicroAPI::{name} on {dtype_name(t)} lanes: the shifts are {dtype_name(signed)}, "
                            f"not {dtype_name(shifts.dtype)}")
    amounts = shifts.lanes(signed)
    active = _micro()._mask_lanes(name, mask, t.itemsize)[0]
    if (amounts[active] < 0).any():
        raise EmulatorError(f"MicroAPI::{name}: a negative shift ({int(amounts[active].min())}) is undefined")
    bits = 8 * t.itemsize

    def shift(x, by):
        by = by.view(signed).astype(np.int64)
        inside = np.minimum(by, bits - 1).astype(t)
        out = np.left_shift(x, inside) if left else np.right_shift(x, inside)
        past = by >= bits
        if left or t.kind == "u":
            return np.where(past, t.type(0), out)
        return np.where(past, np.where(x < 0, t.type(-1), t.type(0)), out)

    m = _micro()
    m._elementwise(name, shift, INT_LANES, dst, [src, shifts.view_as(t)], mask,
                   m.MaskMergeMode.ZEROING if mode is None else mode)


def ShiftLeft(dst: RegTensor, src: RegTensor, shifts: RegTensor, mask: MaskReg,  # noqa: N802 - AscendC name
              mode: MaskMergeMode | None = None) -> None:
    """MicroAPI::ShiftLeft: dst = src << shifts, lane by lane (zeros in; 0 past the width)."""
    _by_register("ShiftLeft", dst, src, shifts, mask, mode, left=True)


def ShiftRight(dst: RegTensor, src: RegTensor, shifts: RegTensor, mask: MaskReg,  # noqa: N802 - AscendC name
               mode: MaskMergeMode | None = None) -> None:
    """MicroAPI::ShiftRight: dst = src >> shifts, lane by lane (arithmetic on signed lanes)."""
    _by_register("ShiftRight", dst, src, shifts, mask, mode, left=False)


__all__ = ["And", "Not", "Or", "ShiftLeft", "ShiftLefts", "ShiftRight", "ShiftRights", "Xor"]
