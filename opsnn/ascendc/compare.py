"""Compares (CompareScalar) and the Atlas A2 Compare: tensor vs scalar or tensor into a packed bit
mask, over whole 256-byte repeats."""
from __future__ import annotations

from enum import Enum
from types import MappingProxyType

import numpy as np

from . import findings as fk
from .compare_repeat import repeat_params, write_bits
from .errors import EmulatorError
from .local_tensor import LocalTensor, read_local, write_local
from .repeat import BinaryRepeatParams, UnaryRepeatParams, active_elements, element_offsets, gather, per_repeat

COMPARE_UNIT = 256  # bytes: the vector unit compares whole 256-byte repeats


class CMPMODE(Enum):
    LT = "LT"
    GT = "GT"
    EQ = "EQ"
    LE = "LE"
    GE = "GE"
    NE = "NE"


_ORDERED = MappingProxyType({
    CMPMODE.LT: np.less, CMPMODE.GT: np.greater, CMPMODE.EQ: np.equal,
    CMPMODE.LE: np.less_equal, CMPMODE.GE: np.greater_equal,
})
_FLOATS = (np.dtype(np.float16), np.dtype(np.float32))
_INT32 = np.dtype(np.int32)


def compare_scalar_bits(values: np.ndarray, scalar, mode: CMPMODE) -> np.ndarray:
    """Boolean result of `values <mode> scalar`; every comparison with NaN is false, NE included."""
    if mode is CMPMODE.NE:
        out = np.not_equal(values, scalar)
        if values.dtype.kind == "f":
            out &= ~np.isnan(values)
            out &= ~np.isnan(scalar)  # a scalar or, for Compare, the other tensor
        return out
    return _ORDERED[mode](values, scalar)


def check_a2_compare(name: str, t: np.dtype, mode) -> None:
    """EmulatorError unless the Atlas A2 compare unit takes (t, mode): half and float with every
    CMPMODE, int32 with EQ only (asc-devkit dav_c220 vcmpv / vcmpvs)."""
    if not isinstance(mode, CMPMODE):
        raise EmulatorError(f"{name} mode must be a CMPMODE (LT, GT, EQ, LE, GE, NE), got {mode!r}")
    if t not in _FLOATS and not (t == _INT32 and mode is CMPMODE.EQ):
        raise EmulatorError(f"{name} on {t} with {mode.name} is not supported on Atlas A2 "
                            "(half or float with every CMPMODE; int32 only with EQ)")


def whole_repeats(name: str, src: LocalTensor, count: int) -> int:
    """The elements an A2 compare of `count` elements compares: whole 256-byte repeats only; the
    sanitizer reports the rest (compare_count_unaligned)."""
    t = src.dtype
    per_repeat = COMPARE_UNIT // t.itemsize
    compared = count // per_repeat * per_repeat
    ctx = src.ctx
    if compared != count and ctx.sanitize:
        ctx.log.add(fk.COMPARE_COUNT_UNALIGNED, name, src.buffer.name, src.offset + compared * t.itemsize,
                    (count - compared) * t.itemsize,
                    f"count {count} x {t.itemsize} B is not a multiple of {COMPARE_UNIT} B: the last "
                    f"{count - compared} elements are not compared and their mask bits are not written")
    return compared


def Compares(dst: LocalTensor, src: LocalTensor, scalar: float | np.generic, cmp_mode: CMPMODE,  # noqa: N802
             *rest) -> None:
    """dst bit i (bit i%8 of byte i//8, LSB first) = src[i] <cmp_mode> scalar.

    Only whole 256-byte repeats are compared: the mask bits of a tail are left as they were (the
    hardware's behaviour), and the sanitizer reports compare_count_unaligned.

    Parameters
    ----------
    dst : LocalTensor
        The mask (read as bytes).
    src : LocalTensor
        half or float (int32 with EQ only).
    scalar : float or numpy scalar
        Compared in src's type; every comparison with NaN is false, NE included.
    cmp_mode : CMPMODE
        LT, GT, EQ, LE, GE or NE.
    *rest : int, or (mask, repeatTimes, UnaryRepeatParams)
        count, the elements; or the mask/repeat form's mask, repeatTimes and params
        (compares_repeat, over compare_repeat.py's bit addressing).
    """
    count = _count_or_repeat("Compares", rest)
    if count is None:
        compares_repeat(dst, src, scalar, cmp_mode, *rest)
        return
    t = src.dtype
    check_a2_compare("Compares", t, cmp_mode)
    compared = whole_repeats("Compares", src, int(count))
    if compared == 0:
        return
    s = np.asarray(scalar, dtype=t)
    bits = compare_scalar_bits(read_local(src, compared, "Compares"), s, cmp_mode)
    write_local(dst.ReinterpretCast(np.uint8), np.packbits(bits, bitorder="little"), "Compares")


def _count_or_repeat(name: str, rest: tuple):
    """The count of a count-form call, None for the mask/repeat form (mask, repeatTimes, params)."""
    if len(rest) == 1:
        return rest[0]
    if len(rest) == 3:
        return None
    raise EmulatorError(f"{name} takes count, or mask, repeatTimes, repeatParams, after the mode; got "
                        f"{len(rest)} argument(s)")


def compare_a2(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, cmp_mode: CMPMODE, count: int) -> None:
    """Compare on Atlas A2: dst bit i = src0[i] <cmp_mode> src1[i] over whole 256-byte repeats
    (compare_tensor.Compare's docstring)."""
    t = src0.dtype
    check_a2_compare("Compare", t, cmp_mode)
    if not isinstance(src1, LocalTensor) or src1.dtype != t:
        got = src1.dtype if isinstance(src1, LocalTensor) else type(src1).__name__
        raise EmulatorError(f"Compare on Atlas A2 takes src1 as a LocalTensor of src0's type {t}, got {got} "
                            "(a scalar: Compares)")
    compared = whole_repeats("Compare", src0, int(count))
    if compared == 0:
        return
    a = read_local(src0, compared, "Compare")
    b = read_local(src1, compared, "Compare")
    bits = compare_scalar_bits(a, b, cmp_mode)  # elementwise: NaN on either side is false, NE too
    write_local(dst.ReinterpretCast(np.uint8), np.packbits(bits, bitorder="little"), "Compare")


CompareScalar = Compares


def compares_repeat(dst: LocalTensor, src: LocalTensor, scalar, cmp_mode: CMPMODE, mask, repeat_times: int,
                    params) -> None:
    """Compares(dst, src, scalar, cmpMode, mask, repeatTimes, UnaryRepeatParams)."""
    t = src.dtype
    check_a2_compare("Compares", t, cmp_mode)
    strides = repeat_params("Compares", params, UnaryRepeatParams)
    r, j = active_elements(t, mask, repeat_times, src.ctx)
    if r.size == 0:
        return
    values = gather(src, element_offsets(t, r, j, *strides[1]), "Compares")
    bits = compare_scalar_bits(values, np.asarray(scalar, dtype=t), cmp_mode)
    write_bits("Compares", dst, r * per_repeat(t) + j, bits)


def compare_repeat(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, cmp_mode: CMPMODE, mask,
                   repeat_times: int, params) -> None:
    """Compare(dst, src0, src1, cmpMode, mask, repeatTimes, BinaryRepeatParams) on Atlas A2."""
    t = src0.dtype
    check_a2_compare("Compare", t, cmp_mode)
    if not isinstance(src1, LocalTensor) or src1.dtype != t:
        raise EmulatorError(f"Compare takes src1 as a LocalTensor of src0's type {t}")
    strides = repeat_params("Compare", params, BinaryRepeatParams)
    r, j = active_elements(t, mask, repeat_times, src0.ctx)
    if r.size == 0:
        return
    a = gather(src0, element_offsets(t, r, j, *strides[1]), "Compare")
    b = gather(src1, element_offsets(t, r, j, *strides[2]), "Compare")
    write_bits("Compare", dst, r * per_repeat(t) + j, compare_scalar_bits(a, b, cmp_mode))
