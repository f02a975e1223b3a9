"""Select (Atlas A2): per mask bit, src0's element where the bit is set, src1's (a tensor or a
scalar, by the mode) where it is clear. Values move as bit patterns (NaN payloads kept).

The three SELMODEs, as AscendC's A2 implementation runs them (asc-devkit dav_c220 vsel):

- VSEL_CMPMASK_SPR: the first 128 bits of selMask are loaded into the CMPMASK register and every
  256-byte repeat selects by those same bits: element i uses bit i % (256 / sizeof(T)) (128
  halves or 64 floats a repeat). src1 is a LocalTensor.
- VSEL_TENSOR_SCALAR_MODE: element i uses bit i of selMask; src1 is a scalar.
- VSEL_TENSOR_TENSOR_MODE: element i uses bit i of selMask; src1 is a LocalTensor.

Every mode also leaves something in CMPMASK (cmpmask.py says what). The count form selects any
number of elements (it runs in counter mode: no 256-byte rule, unlike Compare).

Undefined values (the sanitizer) follow the selection, as valgrind's memcheck follows an
if-then-else: an element is undefined where its mask bit is, or where the operand its bit picks
is -- the operand it does not pick does not matter (a kernel may select over a tensor it has not
filled yet, keeping only what other elements brought; upstream ctc_loss_v3 accumulates so)."""
from __future__ import annotations

from enum import Enum

import numpy as np

from .cmpmask import CMPMASK_BYTES, cmpmask, set_cmpmask_bytes
from .compare_repeat import read_bits, repeat_params
from .errors import EmulatorError
from .local_tensor import LocalTensor, close_local, open_local, read_local
from .repeat import BinaryRepeatParams, active_elements, element_offsets, gather, per_repeat, scatter

_FLOATS = (np.dtype(np.float16), np.dtype(np.float32))
_MASK_TYPES = tuple(np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64))
_UINT = {n: np.dtype(f"u{n}") for n in (1, 2, 4, 8)}  # itemsize -> the unsigned type of that width
REPEAT_BYTES = 256


class SELMODE(Enum):
    VSEL_CMPMASK_SPR = 0
    VSEL_TENSOR_SCALAR_MODE = 1
    VSEL_TENSOR_TENSOR_MODE = 2


def unpack_mask(mask_bytes: np.ndarray, count: int) -> np.ndarray:
    """Bit i of the packed mask (bit i%8 of byte i//8) as bool[count]."""
    return np.unpackbits(mask_bytes, count=count, bitorder="little").view(np.bool_)


def blend(bits: np.ndarray, a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
    """out = a where bits else b, on unsigned integer views. Arithmetic, b ^ ((a ^ b) & -bit), not
    a masked copy (np.where branches per element, ~10x slower); out may alias a or b."""
    ones = np.negative(bits.view(np.uint8), dtype=out.dtype)
    mixed = np.bitwise_and(np.bitwise_xor(a, b), ones)
    np.bitwise_xor(mixed, b, out=out)


def _check(dst: LocalTensor, sel_mask: LocalTensor, src0: LocalTensor, src1, sel_mode) -> None:
    if not isinstance(sel_mode, SELMODE):
        raise EmulatorError(f"Select mode must be a SELMODE (VSEL_CMPMASK_SPR, VSEL_TENSOR_SCALAR_MODE, "
                            f"VSEL_TENSOR_TENSOR_MODE), got {sel_mode!r}")
    t = src0.dtype
    if t not in _FLOATS or dst.dtype != t:
        raise EmulatorError(f"Select on {t} -> {dst.dtype}: half or float, the same type on dst and src0")
    if sel_mask.dtype not in _MASK_TYPES:
        raise EmulatorError(f"Select selMask of {sel_mask.dtype}: uint8, uint16, uint32 or uint64")
    tensor = isinstance(src1, LocalTensor)
    if sel_mode is SELMODE.VSEL_TENSOR_SCALAR_MODE and tensor:
        raise EmulatorError("Select in VSEL_TENSOR_SCALAR_MODE takes src1 as a scalar, got a LocalTensor")
    if sel_mode is not SELMODE.VSEL_TENSOR_SCALAR_MODE:
        if not tensor:
            raise EmulatorError(f"Select in {sel_mode.name} takes src1 as a LocalTensor, got "
                                f"{type(src1).__name__} (a scalar: VSEL_TENSOR_SCALAR_MODE)")
        if src1.dtype != t:
            raise EmulatorError(f"Select src1 of {src1.dtype} with src0 of {t}: the types must match")


def _take_flags(pending: list, first: int, count: int) -> tuple[np.ndarray | None, str | None]:
    """The undefined elements the reads since pending[first] found, as flags over `count` elements
    (None: none), and where they came from; the entries are consumed. Entries are read_local's
    element ranges or gather's positions (repeat.py)."""
    if len(pending) == first:
        return None, None
    flags = np.zeros(count, dtype=bool)
    for entry in pending[first:]:
        if entry[2] is None:
            if len(entry) == 5 and entry[4] == count:
                flags[entry[1]] = True
            else:
                flags[:] = True
        else:
            flags[max(entry[1], 0):entry[2]] = True
    origin = pending[first][3]
    del pending[first:]
    return flags, origin


def _pass_selected(pending: list, bits: np.ndarray, found: list, positional: bool) -> None:
    """Leave for the write the elements the selection makes undefined: its mask bit's, or the
    picked operand's (found: (flags or None, origin) of the mask, src0, src1)."""
    (mask_u, o_mask), (a_u, o_a), (b_u, o_b) = found
    if mask_u is None and a_u is None and b_u is None:
        return
    none = np.zeros(bits.size, dtype=bool)
    picked = np.where(bits, none if a_u is None else a_u, none if b_u is None else b_u)
    undefined = picked | (none if mask_u is None else mask_u)
    if not undefined.any():
        return
    origin = o_mask if mask_u is not None and mask_u.any() else (o_a if a_u is not None and (a_u & bits).any()
                                                                 else o_b)
    if positional:  # scatter's convention: positions in the work's order
        pending.append(("Select", np.flatnonzero(undefined), None, origin, bits.size))
        return
    cuts = np.flatnonzero(np.diff(undefined.astype(np.int8))) + 1
    for run in np.split(np.arange(bits.size), cuts):
        if undefined[run[0]]:
            pending.append(("Select", int(run[0]), int(run[-1]) + 1, origin))


def Select(dst: LocalTensor, sel_mask: LocalTensor, src0: LocalTensor,  # noqa: N802
           src1: LocalTensor | float | np.generic, sel_mode: SELMODE, *rest) -> None:
    """dst[i] = src0[i] if the mask bit of i is set, else src1[i] (or the scalar src1).

    Parameters
    ----------
    dst : LocalTensor
        half or float, src0's type (may be src0 or src1 itself).
    sel_mask : LocalTensor
        The packed mask (uint8/16/32/64), bit i%8 of byte i//8, as Compare writes it.
    src0 : LocalTensor
        The values where the bit is set.
    src1 : LocalTensor or scalar
        The values where it is clear: a scalar in VSEL_TENSOR_SCALAR_MODE, a LocalTensor of
        src0's type in the other two modes.
    sel_mode : SELMODE
        Which bits pick and what src1 is (module docstring).
    *rest : int, or (mask, repeatTimes, BinaryRepeatParams)
        count, the elements; or the mask/repeat form's mask, repeatTimes and params
        (select_repeat, over compare_repeat.py's bit addressing).
    """
    if len(rest) == 3:
        select_repeat(dst, sel_mask, src0, src1, sel_mode, *rest)
        return
    if len(rest) != 1:
        raise EmulatorError(f"Select takes count, or mask, repeatTimes, repeatParams, after the mode; got "
                            f"{len(rest)} argument(s)")
    _check(dst, sel_mask, src0, src1, sel_mode)
    count = int(rest[0])
    if count <= 0:
        return
    t = src0.dtype
    ctx = src0.ctx
    as_int = _UINT[t.itemsize]
    mask = sel_mask.ReinterpretCast(np.uint8)
    pending = ctx.undefined_inputs
    first = len(pending)
    if sel_mode is SELMODE.VSEL_CMPMASK_SPR:
        set_cmpmask_bytes(ctx, read_local(mask, CMPMASK_BYTES, "Select"))
        per_repeat = REPEAT_BYTES // t.itemsize
        bits = np.resize(unpack_mask(cmpmask(ctx), per_repeat), count)
        found = [(None, None)]  # the register's bits: their reads stay pending as they are
        first = len(pending)
    else:
        bits = unpack_mask(read_local(mask, -(-count // 8), "Select"), count)
        found = [_take_flags(pending, first, count)]
    src = read_local(src0, count, "Select").view(as_int)
    found.append(_take_flags(pending, first, count))
    if sel_mode is SELMODE.VSEL_TENSOR_SCALAR_MODE:
        fill = np.asarray(src1, dtype=t).view(as_int)
        set_cmpmask_bytes(ctx, fill.reshape(1))
        _pass_selected(pending, bits, found + [(None, None)], positional=False)
        out, direct = open_local(dst.ReinterpretCast(as_int), count, "Select")
        if fill == 0:
            np.multiply(src, bits, out=out)  # = where(bits, src, 0), several times faster; in place is fine
        else:
            out[...] = np.where(bits, src, fill)
        close_local(dst, out, direct, "Select")
        return
    other = read_local(src1, count, "Select").view(as_int)
    found.append(_take_flags(pending, first, count))
    _pass_selected(pending, bits, found, positional=False)
    if sel_mode is SELMODE.VSEL_TENSOR_TENSOR_MODE:
        set_cmpmask_bytes(ctx, np.array([sel_mask.ub_addr] * 4, dtype=np.uint32))
    out, direct = open_local(dst.ReinterpretCast(as_int), count, "Select")
    blend(bits, src, other, out)
    close_local(dst, out, direct, "Select")


def select_repeat(dst: LocalTensor, sel_mask: LocalTensor, src0: LocalTensor, src1, sel_mode: SELMODE, mask,
                  repeat_times: int, params) -> None:
    """Select(dst, selMask, src0, src1, selMode, mask, repeatTimes, BinaryRepeatParams)."""
    _check(dst, sel_mask, src0, src1, sel_mode)
    t = src0.dtype
    ctx = src0.ctx
    as_int = _UINT[t.itemsize]
    strides = repeat_params("Select", params, BinaryRepeatParams)
    n = per_repeat(t)
    if sel_mode is SELMODE.VSEL_CMPMASK_SPR:
        set_cmpmask_bytes(ctx, read_local(sel_mask.ReinterpretCast(np.uint8), CMPMASK_BYTES, "Select"))
    r, j = active_elements(t, mask, repeat_times, ctx)
    if r.size == 0:
        return
    pending = ctx.undefined_inputs
    first = len(pending)
    if sel_mode is SELMODE.VSEL_CMPMASK_SPR:
        bits = unpack_mask(cmpmask(ctx), n)[j]
    else:
        bits = read_bits("Select", sel_mask, r * n + j)
    found = [_take_flags(pending, first, r.size)]
    a = gather(src0, element_offsets(t, r, j, *strides[1]), "Select").view(as_int)
    found.append(_take_flags(pending, first, r.size))
    if sel_mode is SELMODE.VSEL_TENSOR_SCALAR_MODE:
        b = np.asarray(src1, dtype=t).view(as_int)
        set_cmpmask_bytes(ctx, b.reshape(1))
        found.append((None, None))
    else:
        b = gather(src1, element_offsets(t, r, j, *strides[2]), "Select").view(as_int)
        found.append(_take_flags(pending, first, r.size))
        if sel_mode is SELMODE.VSEL_TENSOR_TENSOR_MODE:
            set_cmpmask_bytes(ctx, np.array([sel_mask.ub_addr] * 4, dtype=np.uint32))
    _pass_selected(pending, bits, found, positional=True)
    out = np.where(bits, a, b).astype(as_int, copy=False)
    scatter(dst, element_offsets(t, r, j, *strides[0]), out.view(t), "Select")
