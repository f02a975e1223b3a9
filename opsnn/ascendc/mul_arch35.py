"""Mul on Ascend950: dst = src0 * src1 for every arch35 element type (int64 and bfloat16
included; integers wrap), src1 a LocalTensor or a scalar (Muls).

NaN results follow arith.Mul's host-independent rule: a NaN operand comes out quieted (the
first NaN operand), an invalid product (inf * 0) is the quiet NaN with the product's sign."""
from __future__ import annotations

import numpy as np

from opsnn.dtypes import bfloat16

from .errors import EmulatorError
from .local_tensor import LocalTensor, close_local, open_local, read_local

_MANTISSA = {np.dtype(np.float16): 10, bfloat16: 7, np.dtype(np.float32): 23, np.dtype(np.float64): 52}


def mul_values(a: np.ndarray, b, out: np.ndarray) -> np.ndarray:
    t = out.dtype
    with np.errstate(over="ignore", invalid="ignore"):
        np.multiply(a, b, out=out)
    if t.kind != "f" and t != bfloat16:
        return out
    nan = np.isnan(out)
    if nan.any():
        ut = np.dtype(f"u{t.itemsize}")
        mant = _MANTISSA[t]
        quiet, sign = ut.type(1 << (mant - 1)), ut.type(1 << (8 * t.itemsize - 1))
        default = ut.type(((1 << (8 * t.itemsize - 1 - mant)) - 1) << mant) | quiet
        va, vb = (np.broadcast_to(np.asarray(v, t), out.shape) for v in (a, b))
        ba, bb = va.view(ut), vb.view(ut)
        invalid = default | ((ba ^ bb) & sign)
        pick = np.where(np.isnan(va), ba, np.where(np.isnan(vb), bb, invalid))
        out.view(ut)[nan] = (pick | quiet)[nan]
    return out


def Mul(dst: LocalTensor, src0: LocalTensor, src1, count: int) -> None:  # noqa: N802 - AscendC name
    """src1: a LocalTensor or a scalar (Muls)."""
    count = int(count)
    if count <= 0:
        return
    t = dst.dtype
    if src0.dtype != t or (isinstance(src1, LocalTensor) and src1.dtype != t):
        raise EmulatorError(f"Mul of {src0.dtype} and {getattr(src1, 'dtype', type(src1))} into {t}")
    a = read_local(src0, count, "Mul")
    b = read_local(src1, count, "Mul") if isinstance(src1, LocalTensor) else np.asarray(src1, dtype=t)
    out, direct = open_local(dst, count, "Mul")
    if not direct or np.shares_memory(out, a) or (isinstance(b, np.ndarray) and np.shares_memory(out, b)):
        result = mul_values(a.copy(), b.copy() if isinstance(b, np.ndarray) else b, np.empty(count, t))
        out[...] = result
    else:
        mul_values(a, b, out)
    close_local(dst, out, direct, "Mul")
