"""The Atlas A2 instructions that accumulate into dst: Axpy (dst = scalar * src + dst),
MulAddDst (dst = src0 * src1 + dst) and FusedMulAdd (dst = src0 * dst + src1; its count form, one
type on every side: half, float, and on Ascend950 bfloat16), in AscendC's two forms:

- ``Axpy(dst, src, scalar, count)``, ``Axpy(dst, src, scalar, mask, repeatTime, UnaryRepeatParams)``;
- ``MulAddDst(dst, src0, src1, count)``, ``MulAddDst(dst, src0, src1, mask, repeatTime, BinaryRepeatParams)``.

Types (AscendC's table for A2): half -> half, float -> float, and half sources into a float dst
(64 elements a repeat then, each operand addressed in its own type). The scalar is converted to
the source type first.

Rounding: whether the unit fuses the multiply and the add is not documented. The model rounds
twice, as the instruction pair Muls / Mul then Add would: the product rounded to dst's type (half
sources are widened to float first, exactly), then the sum rounded to dst's type. NaNs follow
ieee.py's rule (the product's NaN first, then dst's)."""
from __future__ import annotations

import numpy as np

from opsnn.dtypes import bfloat16 as BF16

from .binary import add_values, mul_values
from .errors import EmulatorError
from .ieee import F16, F32
from .local_tensor import LocalTensor, close_local, open_local, read_local
from .repeat import BinaryRepeatParams, UnaryRepeatParams, active_elements, element_offsets, gather, scatter
from .scalar_ops import to_scalar
from .vector_form import check_types, count_form

_PAIRS = ((F16, F16), (F32, F32), (F32, F16))  # (dst, src)


def _check(name: str, dst: LocalTensor, *srcs: LocalTensor) -> np.dtype:
    u = srcs[0].dtype
    if (dst.dtype, u) not in _PAIRS or any(s.dtype != u for s in srcs):
        got = ", ".join(str(s.dtype) for s in srcs)
        raise EmulatorError(f"{name} on {got} -> {dst.dtype}: half -> half, float -> float or half -> float")
    return u


def _accumulate(acc: np.ndarray, *factors: np.ndarray) -> np.ndarray:
    """acc + product(factors), each step rounded to acc's type (module docstring)."""
    t = acc.dtype
    wide = [f.astype(t) if f.dtype != t else f for f in factors]  # half -> float: exact
    return add_values(mul_values(wide[0], wide[1]), acc)


def _forms(name: str, dst: LocalTensor, srcs: tuple, scalar, rest: tuple, params_type) -> None:
    u = _check(name, dst, *srcs)
    t = dst.dtype
    operands = list(srcs)
    if len(rest) == 1:
        count = int(rest[0])
        if count <= 0:
            return
        values = [read_local(s, count, name).copy() for s in operands]
        if scalar is not None:
            values.append(to_scalar(scalar, u))
        out, direct = open_local(dst, count, name)
        out[...] = _accumulate(out.copy(), *values)
        close_local(dst, out, direct, name)
        return
    if len(rest) != 3:
        raise EmulatorError(f"{name} takes count, or mask, repeatTime and repeatParams, after its operands")
    mask, repeat_times, params = rest
    if not isinstance(params, params_type):
        raise EmulatorError(f"{name}: repeatParams must be a {params_type.__name__}, got {type(params).__name__}")
    wide = t if t.itemsize >= u.itemsize else u
    r, j = active_elements(wide, mask, repeat_times, dst.ctx)
    if r.size == 0:
        return
    strides = params.strides()
    values = [gather(s, element_offsets(u, r, j, *st), name) for s, st in zip(operands, strides[1:], strict=False)]
    if scalar is not None:
        values.append(to_scalar(scalar, u))
    at = element_offsets(t, r, j, *strides[0])
    acc = gather(dst, at, name)
    scatter(dst, at, _accumulate(acc, *values), name)


def Axpy(dst: LocalTensor, src: LocalTensor, scalar, *rest) -> None:  # noqa: N802 - AscendC name
    """dst = scalar * src + dst (module docstring)."""
    _forms("Axpy", dst, (src,), scalar, rest, UnaryRepeatParams)


def FusedMulAdd(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, count: int) -> None:  # noqa: N802
    """dst = src0 * dst + src1 over `count` elements, rounded as the module docstring says (the
    product, then the sum). Its mask/repeat forms are not modelled."""
    name = "FusedMulAdd"
    types = (F16, F32, BF16) if dst.ctx.platform.family == "ascend950" else (F16, F32)
    check_types(name, types, dst, src0, src1)
    count_form(name, lambda d, a, b: add_values(mul_values(a, d), b), dst, (dst, src0, src1), count)


def MulAddDst(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *rest) -> None:  # noqa: N802 - AscendC name
    """dst = src0 * src1 + dst (module docstring)."""
    _forms("MulAddDst", dst, (src0, src1), None, rest, BinaryRepeatParams)


__all__ = ["Axpy", "MulAddDst"]
