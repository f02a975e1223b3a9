"""Add and Sub on Ascend950 (the arch35 vector unit, as the atvoss DAGs use them): dst = src0 + src1
and dst = src0 - src1, src1 a LocalTensor or a scalar of dst's type (Adds; a Sub of a scalar is
the Adds of its negation on hardware, the same bits here since negation is exact).

Arithmetic is binary.add_values / sub_values: IEEE in the instruction's type (float16 via
float64 rounded once, float32 natively; ties to even, subnormals kept), a NaN operand comes
out quieted (the first NaN operand), inf - inf is the default NaN; integers wrap. One type on
every side; float16 and float32 are what the arch35 DAGs compute in here."""
from __future__ import annotations

import numpy as np

from .arith import ARITH_TYPES
from .binary import add_values, sub_values
from .errors import EmulatorError
from .local_tensor import LocalTensor, close_local, open_local, read_local


def _arith(name: str, fn, dst: LocalTensor, src0: LocalTensor, src1, count: int) -> None:
    count = int(count)
    if count <= 0:
        return
    t = dst.dtype
    if t not in ARITH_TYPES or src0.dtype != t or (isinstance(src1, LocalTensor) and src1.dtype != t):
        raise EmulatorError(f"{name} of {src0.dtype} and {getattr(src1, 'dtype', type(src1))} into {t}")
    a = read_local(src0, count, name)
    if isinstance(src1, LocalTensor):
        b = read_local(src1, count, name)
    else:
        with np.errstate(all="ignore"):
            b = np.asarray(src1).astype(t)
    result = fn(a.copy(), b.copy())  # the operands may be the destination's own bytes
    out, direct = open_local(dst, count, name)
    out[...] = result
    close_local(dst, out, direct, name)


def Add(dst: LocalTensor, src0: LocalTensor, src1, count: int) -> None:  # noqa: N802 - AscendC name
    """dst = src0 + src1 over `count` elements; src1 a LocalTensor or a scalar (Adds)."""
    _arith("Add", add_values, dst, src0, src1, count)


def Sub(dst: LocalTensor, src0: LocalTensor, src1, count: int) -> None:  # noqa: N802 - AscendC name
    """dst = src0 - src1 over `count` elements; src1 a LocalTensor or a scalar."""
    _arith("Sub", sub_values, dst, src0, src1, count)
