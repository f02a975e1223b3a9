"""The mask/repeat (level 0) forms of the Atlas A2 Compare, Compares and Select.

Bit addressing: the compare unit writes one result bit per element of a repeat, repeat r's bits
one after another from bit r * (256 / sizeof(T)) of dst (128 bits a repeat for half, 64 for
float), whatever the strides of the sources (the dst strides of UnaryRepeatParams /
BinaryRepeatParams are not used by a compare). Select reads selMask the same way: element j of
repeat r uses bit r * (256 / sizeof(T)) + j (VSEL_TENSOR_SCALAR_MODE / VSEL_TENSOR_TENSOR_MODE), or
bit j of the CMPMASK register every repeat (VSEL_CMPMASK_SPR), as the count forms do.

A compare writes whole bytes: a byte that holds an active element's bit is written, with 0 in
the bits of elements the mask leaves out. (The model's choice where the AscendC documentation is
silent: those bits hold no result a kernel may rely on.) Bytes with no active bit are untouched."""
from __future__ import annotations

import numpy as np

from .cmpmask import CMPMASK_BYTES, cmpmask, set_cmpmask_bytes
from .compare import CMPMODE, check_a2_compare, compare_scalar_bits
from .errors import EmulatorError
from .local_tensor import LocalTensor, read_local
from .repeat import BinaryRepeatParams, UnaryRepeatParams, active_elements, element_offsets, gather, per_repeat, scatter
from .select import _UINT, SELMODE, _check, unpack_mask


def _params(name: str, params, want: type):
    if not isinstance(params, want):
        raise EmulatorError(f"{name}: repeatParams must be a {want.__name__}, got {type(params).__name__}")
    return params.strides()


def _write_bits(name: str, dst: LocalTensor, positions: np.ndarray, bits: np.ndarray) -> None:
    """Set bit `positions[k]` of dst's bytes to bits[k]; the other bits of those bytes to 0."""
    byte_index = positions // 8
    touched = np.unique(byte_index)
    out = np.zeros(touched.size, dtype=np.uint8)
    slot = np.searchsorted(touched, byte_index)
    np.bitwise_or.at(out, slot, (bits.astype(np.uint8) << (positions % 8).astype(np.uint8)))
    scatter(dst.ReinterpretCast(np.uint8), touched, out, name)


def _read_bits(name: str, mask: LocalTensor, positions: np.ndarray) -> np.ndarray:
    """Bit `positions[k]` of mask's bytes, as bool."""
    byte_index = positions // 8
    touched = np.unique(byte_index)
    raw = gather(mask.ReinterpretCast(np.uint8), touched, name)
    return ((raw[np.searchsorted(touched, byte_index)] >> (positions % 8).astype(np.uint8)) & 1).astype(np.bool_)


def compares_repeat(dst: LocalTensor, src: LocalTensor, scalar, cmp_mode: CMPMODE, mask, repeat_times: int,
                    params) -> None:
    """Compares(dst, src, scalar, cmpMode, mask, repeatTimes, UnaryRepeatParams)."""
    t = src.dtype
    check_a2_compare("Compares", t, cmp_mode)
    strides = _params("Compares", params, UnaryRepeatParams)
    r, j = active_elements(t, mask, repeat_times, src.ctx)
    if r.size == 0:
        return
    values = gather(src, element_offsets(t, r, j, *strides[1]), "Compares")
    bits = compare_scalar_bits(values, np.asarray(scalar, dtype=t), cmp_mode)
    _write_bits("Compares", dst, r * per_repeat(t) + j, bits)


def compare_repeat(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, cmp_mode: CMPMODE, mask,
                   repeat_times: int, params) -> None:
    """Compare(dst, src0, src1, cmpMode, mask, repeatTimes, BinaryRepeatParams) on Atlas A2."""
    t = src0.dtype
    check_a2_compare("Compare", t, cmp_mode)
    if not isinstance(src1, LocalTensor) or src1.dtype != t:
        raise EmulatorError(f"Compare takes src1 as a LocalTensor of src0's type {t}")
    strides = _params("Compare", params, BinaryRepeatParams)
    r, j = active_elements(t, mask, repeat_times, src0.ctx)
    if r.size == 0:
        return
    a = gather(src0, element_offsets(t, r, j, *strides[1]), "Compare")
    b = gather(src1, element_offsets(t, r, j, *strides[2]), "Compare")
    _write_bits("Compare", dst, r * per_repeat(t) + j, compare_scalar_bits(a, b, cmp_mode))


def select_repeat(dst: LocalTensor, sel_mask: LocalTensor, src0: LocalTensor, src1, sel_mode: SELMODE, mask,
                  repeat_times: int, params) -> None:
    """Select(dst, selMask, src0, src1, selMode, mask, repeatTimes, BinaryRepeatParams)."""
    _check(dst, sel_mask, src0, src1, sel_mode)
    t = src0.dtype
    ctx = src0.ctx
    as_int = _UINT[t.itemsize]
    strides = _params("Select", params, BinaryRepeatParams)
    n = per_repeat(t)
    if sel_mode is SELMODE.VSEL_CMPMASK_SPR:
        set_cmpmask_bytes(ctx, read_local(sel_mask.ReinterpretCast(np.uint8), CMPMASK_BYTES, "Select"))
    r, j = active_elements(t, mask, repeat_times, ctx)
    if r.size == 0:
        return
    if sel_mode is SELMODE.VSEL_CMPMASK_SPR:
        bits = unpack_mask(cmpmask(ctx), n)[j]
    else:
        bits = _read_bits("Select", sel_mask, r * n + j)
    a = gather(src0, element_offsets(t, r, j, *strides[1]), "Select").view(as_int)
    if sel_mode is SELMODE.VSEL_TENSOR_SCALAR_MODE:
        b = np.asarray(src1, dtype=t).view(as_int)
        set_cmpmask_bytes(ctx, b.reshape(1))
    else:
        b = gather(src1, element_offsets(t, r, j, *strides[2]), "Select").view(as_int)
        if sel_mode is SELMODE.VSEL_TENSOR_TENSOR_MODE:
            set_cmpmask_bytes(ctx, np.array([sel_mask.ub_addr] * 4, dtype=np.uint32))
    out = np.where(bits, a, b).astype(as_int, copy=False)
    scatter(dst, element_offsets(t, r, j, *strides[0]), out.view(t), "Select")
