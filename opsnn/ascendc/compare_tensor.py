"""Compare: tensor <mode> tensor into a packed bit mask (bit i = bit i%8 of byte i//8, as Compares
writes), one function for both SoC families, chosen by the core's platform (ctx.platform.family):

- Atlas A2 ("ascend910b"): Compare(dst, src0, src1, cmpMode, count) with src1 a LocalTensor;
  half or float with every CMPMODE, int32 with EQ only; only whole 256-byte repeats are compared
  (the tail's mask bits are left as they were; the sanitizer reports compare_count_unaligned), as
  Compares does. A comparison with NaN is false, NE included (compare.compare_a2).
- Ascend950 ("ascend950", the arch35 DAGs): src1 a LocalTensor or a scalar, every element type,
  any element count. A comparison with NaN is false, except NE, which is true (IEEE's unordered
  not-equal): upstream's HardtanhGrad DAG tests for NaN with Compare(x, x, NE), and its golden and
  ST cases expect a NaN self to keep the gradient, which only an unordered NE gives. (The A2
  compare is documented false for NE too; the two units differ.)"""
from __future__ import annotations

from types import MappingProxyType

import numpy as np

from .compare import CMPMODE, _count_or_repeat, compare_a2, compare_repeat, compare_scalar_bits
from .errors import EmulatorError
from .local_tensor import LocalTensor, read_local, write_local


def compare_values(a: np.ndarray, b, mode: CMPMODE) -> np.ndarray:
    if mode is CMPMODE.NE:  # the negation of the ordered EQ: true where either side is NaN
        return ~compare_values(a, b, CMPMODE.EQ)
    if isinstance(b, np.ndarray) and b.ndim:
        with np.errstate(invalid="ignore"):  # ml_dtypes warns "invalid value" on bfloat16 NaNs
            return _ORDERED_TT[mode](a, b)
    return compare_scalar_bits(a, b, mode)


_ORDERED_TT = MappingProxyType({CMPMODE.LT: np.less, CMPMODE.GT: np.greater, CMPMODE.EQ: np.equal,
                                CMPMODE.LE: np.less_equal, CMPMODE.GE: np.greater_equal})


def Compare(dst: LocalTensor, src0: LocalTensor, src1, cmp_mode: CMPMODE, *rest) -> None:  # noqa: N802
    """dst bit i = src0[i] <cmp_mode> src1[i] (src1 a LocalTensor) or src1 (a scalar, Ascend950 only).

    Parameters
    ----------
    dst : LocalTensor
        The mask (written as bytes, whatever its element type).
    src0, src1 : LocalTensor
        The operands (src1 may be a scalar on Ascend950).
    cmp_mode : CMPMODE
        LT, GT, EQ, LE, GE or NE.
    count : int
        Elements (on Atlas A2 only whole 256-byte repeats of them are compared). Or, in its
        place, mask, repeatTimes, BinaryRepeatParams: the Atlas A2 mask/repeat form
        (compare_repeat.py).
    """
    count = _count_or_repeat("Compare", rest)
    if count is None:
        if src0.ctx.platform.family == "ascend950":
            raise EmulatorError("Compare's mask/repeat form is modelled for Atlas A2 only")
        compare_repeat(dst, src0, src1, cmp_mode, *rest)
        return
    if src0.ctx.platform.family != "ascend950":
        compare_a2(dst, src0, src1, cmp_mode, count)
        return
    if not isinstance(cmp_mode, CMPMODE):
        raise EmulatorError(f"Compare mode must be a CMPMODE, got {cmp_mode!r}")
    count = int(count)
    if count <= 0:
        return
    t = src0.dtype
    a = read_local(src0, count, "Compare")
    if isinstance(src1, LocalTensor):
        if src1.dtype != t:
            raise EmulatorError(f"Compare of {t} with {src1.dtype}: the types must match")
        b = read_local(src1, count, "Compare")
    else:
        b = np.asarray(src1, dtype=t)
    bits = compare_values(a, b, cmp_mode)
    write_local(dst, np.packbits(bits, bitorder="little"), "Compare")  # bytes: dst's own type does not matter
