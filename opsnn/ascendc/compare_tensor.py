"""Compare (Ascend950): tensor <mode> tensor, or tensor <mode> scalar, for every element type,
any element count, into a packed bit mask (bit i = bit i%8 of byte i//8, as Compares writes).

Every comparison with NaN is false, NE included (the vector unit's ordered compares)."""
from __future__ import annotations

from types import MappingProxyType

import numpy as np

from opsnn.dtypes import bfloat16

from .compare import CMPMODE, compare_scalar_bits
from .errors import EmulatorError
from .local_tensor import LocalTensor, read_local, write_local


def compare_values(a: np.ndarray, b, mode: CMPMODE) -> np.ndarray:
    if isinstance(b, np.ndarray) and b.ndim:
        # a NaN compares false, NE included; ml_dtypes warns "invalid value" on bfloat16 NaNs
        with np.errstate(invalid="ignore"):
            if mode is CMPMODE.NE:
                out = np.not_equal(a, b)
                if a.dtype.kind == "f" or a.dtype == bfloat16:
                    out &= ~(np.isnan(a) | np.isnan(b))
                return out
            return _ORDERED_TT[mode](a, b)
    return compare_scalar_bits(a, b, mode)


_ORDERED_TT = MappingProxyType({CMPMODE.LT: np.less, CMPMODE.GT: np.greater, CMPMODE.EQ: np.equal,
                                CMPMODE.LE: np.less_equal, CMPMODE.GE: np.greater_equal})


def Compare(dst: LocalTensor, src0: LocalTensor, src1, cmp_mode: CMPMODE, count: int) -> None:  # noqa: N802
    """dst bit i = src0[i] <cmp_mode> src1[i] (src1 a LocalTensor) or src1 (a scalar)."""
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
