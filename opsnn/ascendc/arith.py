"""Duplicate (fill a LocalTensor with a scalar, both forms) and Mul (elementwise product of two LocalTensors),
as the Ascend910B vector unit has them.

Mul follows IEEE-754 in the operand type, with its NaN results made independent of the host
CPU (x86 and ARM disagree on the sign of inf * 0's NaN): a NaN operand comes through with its
quiet bit set (the first NaN operand when both are), and an invalid product (inf * 0) gives the
quiet NaN with the sign a product has, sign(a) xor sign(b). What the Ascend vector unit's
default NaN is, is not documented; this choice makes ReluGrad's -inf * 0 the -NaN that the
functional model (the grad's sign kept) gives."""
from __future__ import annotations

from types import MappingProxyType

import numpy as np

from opsnn.dtypes import bfloat16

from .errors import EmulatorError
from .local_tensor import LocalTensor, close_local, open_local, read_local
from .repeat import active_elements, element_offsets, scatter

_DUPLICATE_TYPES = tuple(np.dtype(t) for t in (np.float16, np.float32, np.int16, np.int32, np.uint16, np.uint32)) + (
    bfloat16,)  # AscendC's A2 list: half, bfloat16_t, int16/uint16, int32/uint32, float
# Ascend950 takes these in the count form only (AscendC's Duplicate list; its 8-bit floats are not among
# the emulator's scalars)
_DUPLICATE_950_COUNT_TYPES = tuple(np.dtype(t) for t in (np.bool_, np.int8, np.uint8, np.int64, np.uint64))
ARITH_TYPES = tuple(np.dtype(t) for t in (np.float16, np.float32, np.int16, np.int32))


def arith_types(dst: LocalTensor) -> tuple:
    """The element types of Add Sub Mul Max Min and their scalar forms on dst's SoC: Atlas A2's
    (ARITH_TYPES), and on Ascend950 bfloat16 too (AscendC's lists for it), computed in float and
    rounded once to bfloat16."""
    return ARITH_TYPES + (bfloat16,) if dst.ctx.platform.family == "ascend950" else ARITH_TYPES
_FLOAT_BITS = MappingProxyType({np.dtype(np.float16): (np.uint16, 0x0200, 0x7E00, 0x8000),
                                np.dtype(np.float32): (np.uint32, 0x0040_0000, 0x7FC0_0000, 0x8000_0000)})


def Duplicate(dst: LocalTensor, scalar: float | np.generic, *rest) -> None:  # noqa: N802 - AscendC name
    """dst[i] = scalar for i < count (the scalar converted to dst's type), or on the active lanes
    of the mask/repeat form.

    ``Duplicate(dst, scalar, count)`` or
    ``Duplicate(dst, scalar, mask, repeatTime, dstBlockStride, dstRepeatStride)`` (repeat.py's
    addressing; strides in 32-byte blocks).

    Parameters
    ----------
    dst : LocalTensor
        half, float, int16/32 or uint16/32.
    scalar : float or numpy scalar
        The value.
    *rest : int
        count; or mask, repeatTime, dstBlockStride, dstRepeatStride.
    """
    count_only = dst.ctx.platform.family == "ascend950" and dst.dtype in _DUPLICATE_950_COUNT_TYPES
    if dst.dtype not in _DUPLICATE_TYPES and not count_only:
        raise EmulatorError(f"Duplicate on {dst.dtype}: half, bfloat16, float, int16/32 or uint16/32 only"
                            " (Ascend950: int8, uint8, bool and int64/uint64 too, in the count form)")
    if count_only and len(rest) != 1:
        raise EmulatorError(f"Duplicate on {dst.dtype}: the count form only (AscendC, Ascend950)")
    if len(rest) == 4:
        mask, repeat_times, blk, rep = rest
        r, j = active_elements(dst.dtype, mask, repeat_times, dst.ctx)
        if r.size:
            scatter(dst, element_offsets(dst.dtype, r, j, blk, rep),
                    np.full(r.size, np.asarray(scalar).astype(dst.dtype)), "Duplicate")
        return
    if len(rest) != 1:
        raise EmulatorError(f"Duplicate takes (dst, scalar, count) or (dst, scalar, mask, repeatTime, dstBlockStride, "
                            f"dstRepeatStride), got {2 + len(rest)} arguments")
    count = int(rest[0])
    if count <= 0:
        return
    out, direct = open_local(dst, count, "Duplicate")
    out[...] = np.asarray(scalar).astype(dst.dtype)
    close_local(dst, out, direct, "Duplicate")


def Mul(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, count: int) -> None:  # noqa: N802 - AscendC name
    """dst[i] = src0[i] * src1[i] for i < count; one type on all three sides. Integers wrap.

    Parameters
    ----------
    dst : LocalTensor
        The product (may alias a source).
    src0, src1 : LocalTensor
        half, float, int16 or int32.
    count : int
        Elements.
    """
    t = src0.dtype
    if t not in arith_types(dst) or src1.dtype != t or dst.dtype != t:
        raise EmulatorError(f"Mul on {src0.dtype} * {src1.dtype} -> {dst.dtype}: half, float, int16 or int32, "
                            "one type on every side")
    count = int(count)
    if count <= 0:
        return
    a = read_local(src0, count, "Mul").copy()  # copies: dst may alias a source
    b = read_local(src1, count, "Mul").copy()
    out, direct = open_local(dst, count, "Mul")
    with np.errstate(all="ignore"):
        np.multiply(a, b, out=out)
    if t.kind == "f":
        canonical_nans(out, a, b)
    close_local(dst, out, direct, "Mul")


def canonical_nans(out: np.ndarray, a: np.ndarray, b: np.ndarray) -> None:
    """Rewrite the NaNs of out = a * b (half or float) by the rule in the module docstring."""
    nan = np.isnan(out)
    if not nan.any():
        return
    bits, quiet, default, sign = _FLOAT_BITS[out.dtype]
    a_bits, b_bits, o_bits = a.view(bits), b.view(bits), out.view(bits)
    invalid = bits(default) | ((a_bits ^ b_bits) & bits(sign))
    propagated = np.where(np.isnan(a), a_bits, np.where(np.isnan(b), b_bits, invalid))
    o_bits[nan] = (propagated | bits(quiet))[nan]
