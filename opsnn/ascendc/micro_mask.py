"""MicroAPI's logic on mask registers (AscendC's Reg maskreg interface): Not / And / Or / Xor of
MaskRegs under a predicate mask, Select between two MaskRegs, Move -- also named MaskNot, MaskAnd,
MaskOr, MaskXor, MaskSel, MaskMov.

What is modelled, bit by bit (a MaskReg holds one bit per byte of a vector register): the result
of Not / And / Or / Xor is kept where the predicate's bit is set and cleared where it is not (the
zeroing of every predicated MicroAPI op); Select takes src0's bit where the predicate is set, else
src1's; Move copies (under a predicate: zeroing). A bit computed from an undefined bit is undefined."""
from __future__ import annotations

import numpy as np

from .errors import EmulatorError
from .micro_core import MaskReg, _issue


def _logic(name: str, dst: MaskReg, srcs: list[MaskReg], pred: MaskReg | None, fn) -> None:
    for m in (dst, *srcs, *([pred] if pred is not None else [])):
        if not isinstance(m, MaskReg):
            raise EmulatorError(f"MicroAPI::{name} takes MaskRegs, got {type(m).__name__}")
    _issue(name, dst.ctx)
    bits = fn(*(s.bits for s in srcs))
    undef = np.logical_or.reduce([s.undef for s in srcs])
    if pred is not None:
        bits = bits & pred.bits
        undef = (undef & pred.bits) | pred.undef
    origin = next((m.origin for m in (*srcs, pred) if m is not None and m.origin), None)
    dst.bits, dst.undef = np.array(bits, dtype=bool), np.array(undef, dtype=bool)
    dst.origin = origin if dst.undef.any() else None


def Not(dst: MaskReg, src: MaskReg, mask: MaskReg) -> None:  # noqa: N802 - AscendC name
    _logic("Not", dst, [src], mask, np.logical_not)


def And(dst: MaskReg, src0: MaskReg, src1: MaskReg, mask: MaskReg) -> None:  # noqa: N802
    _logic("And", dst, [src0, src1], mask, np.logical_and)


def Or(dst: MaskReg, src0: MaskReg, src1: MaskReg, mask: MaskReg) -> None:  # noqa: N802
    _logic("Or", dst, [src0, src1], mask, np.logical_or)


def Xor(dst: MaskReg, src0: MaskReg, src1: MaskReg, mask: MaskReg) -> None:  # noqa: N802
    _logic("Xor", dst, [src0, src1], mask, np.logical_xor)


def Select(dst: MaskReg, src0: MaskReg, src1: MaskReg, sel: MaskReg) -> None:  # noqa: N802
    """dst's bit = src0's where sel's bit is set, else src1's."""
    _issue("Select", dst.ctx)
    bits = np.where(sel.bits, src0.bits, src1.bits)
    undef = np.where(sel.bits, src0.undef, src1.undef) | sel.undef
    origin = next((m.origin for m in (src0, src1, sel) if m.origin), None)
    dst.bits, dst.undef, dst.origin = bits, undef, origin if undef.any() else None


def Move(dst: MaskReg, src: MaskReg, mask: MaskReg | None = None) -> None:  # noqa: N802
    _logic("Move", dst, [src], mask, lambda b: b.copy())


MaskNot, MaskAnd, MaskOr, MaskXor, MaskSel, MaskMov = Not, And, Or, Xor, Select, Move

__all__ = ["And", "MaskAnd", "MaskMov", "MaskNot", "MaskOr", "MaskSel", "MaskXor", "Move", "Not", "Or", "Select",
           "Xor"]
