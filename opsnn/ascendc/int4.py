"""int4b_t: AscendC's 4-bit integer, two to a byte in GM and UB -- element 2k in the low nibble of
byte k, 2k+1 in the high one (kernel_tensor_impl.h's GetValue / SetValue shift by 4 * (index % 2)).

The emulator names such a tensor's element type INT4, a one-byte marker dtype: its LocalTensor's
offset and sizes stay in bytes, and each byte holds two elements. What is modelled on Atlas A2:

- Cast's count form half -> int4 (vconv_f162s4: CAST_NONE as RINT, and RINT / FLOOR / CEIL /
  ROUND / TRUNC): the value rounded, then saturated to [-8, 7] (A2 saturates by default, CTRL[59]
  = 0, as cast.py's other narrowings); NaN gives 0. int4 -> half (vconv_s42f16, CAST_NONE): exact.
  The count must be even (a byte holds two); AscendC's Level-2 Cast runs one counter-mode
  instruction over them.
- moves: a DataCopy / DataCopyPad of int4 tensors moves their bytes (the C++ bridge hands them on
  as uint8, halving a DataCopy's element count).

Every other instruction on an int4 tensor is refused by name (the bridge's element types)."""
from __future__ import annotations

import numpy as np

from .errors import EmulatorError
from .local_tensor import LocalTensor, close_local, open_local, read_local
from .rounding import RoundMode, to_int

INT4 = np.dtype([("int4x2", np.uint8)])  # one byte, two elements: a dtype of its own, equal to no other
_TO_INT4 = frozenset({RoundMode.CAST_NONE, RoundMode.CAST_RINT, RoundMode.CAST_FLOOR, RoundMode.CAST_CEIL,
                      RoundMode.CAST_ROUND, RoundMode.CAST_TRUNC})


def pack(values: np.ndarray) -> np.ndarray:
    """int values in [-8, 7] (an even count) as packed bytes, element 2k in the low nibble."""
    nib = (np.asarray(values, dtype=np.int64) & 0xF).astype(np.uint8)
    return (nib[0::2] | (nib[1::2] << 4)).astype(np.uint8)


def unpack(raw: np.ndarray) -> np.ndarray:
    """Packed bytes as int8 values in [-8, 7], two per byte (low nibble first)."""
    b = np.asarray(raw, dtype=np.uint8)
    nib = np.empty(2 * b.size, dtype=np.uint8)
    nib[0::2], nib[1::2] = b & 0xF, b >> 4
    return ((nib.astype(np.int8) << 4) >> 4).astype(np.int8)  # sign-extend the nibble


def is_int4(t: LocalTensor) -> bool:
    return t.dtype == INT4


def cast(dst: LocalTensor, src: LocalTensor, round_mode: RoundMode, *rest) -> None:
    """Cast's count form into or out of int4 (module docstring); the mask/repeat forms are refused."""
    pair = f"{'int4' if is_int4(src) else src.dtype} -> {'int4' if is_int4(dst) else dst.dtype}"
    if len(rest) != 1:
        raise EmulatorError(f"Cast {pair}: only the count form is modelled")
    count = int(rest[0])
    if count <= 0:
        return
    if count % 2:
        raise EmulatorError(f"Cast {pair}: an odd count ({count}) splits a byte of two int4 elements")
    if is_int4(dst) and src.dtype == np.float16:
        if round_mode not in _TO_INT4:
            raise EmulatorError(f"Cast half -> int4 does not take {round_mode.name}")
        values = read_local(src, count, "Cast")
        out, direct = open_local(dst, count // 2, "Cast")
        out.view(np.uint8)[...] = pack(to_int(values, np.dtype(np.int8), round_mode).clip(-8, 7))
        close_local(dst, out, direct, "Cast")
    elif is_int4(src) and dst.dtype == np.float16:
        if round_mode is not RoundMode.CAST_NONE:
            raise EmulatorError(f"Cast int4 -> half takes CAST_NONE only, not {round_mode.name}")
        raw = read_local(src, count // 2, "Cast").view(np.uint8)
        out, direct = open_local(dst, count, "Cast")
        out[...] = unpack(raw).astype(np.float16)
        close_local(dst, out, direct, "Cast")
    else:
        raise EmulatorError(f"Cast {pair} is not supported on Atlas A2 (half <-> int4 only)")


__all__ = ["INT4", "cast", "is_int4", "pack", "unpack"]
