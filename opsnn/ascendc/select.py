"""Select in tensor-scalar mode: per mask bit, the tensor's element or a scalar."""
from __future__ import annotations

from enum import Enum
from types import MappingProxyType

import numpy as np

from .errors import EmulatorError
from .local_tensor import LocalTensor, close_local, open_local, read_local

_FLOATS = (np.dtype(np.float16), np.dtype(np.float32))
_BITS = MappingProxyType({2: np.uint16, 4: np.uint32})


class SELMODE(Enum):
    VSEL_CMPMASK_SPR = 0
    VSEL_TENSOR_SCALAR_MODE = 1
    VSEL_TENSOR_TENSOR_MODE = 2


def unpack_mask(mask_bytes: np.ndarray, count: int) -> np.ndarray:
    """Bit i of the packed mask (bit i%8 of byte i//8) as bool[count]."""
    return np.unpackbits(mask_bytes, count=count, bitorder="little").view(np.bool_)


def Select(dst: LocalTensor, sel_mask: LocalTensor, src0: LocalTensor, scalar: float | np.generic,  # noqa: N802
           sel_mode: SELMODE, count: int) -> None:
    """dst[i] = src0[i] if mask bit i else scalar. Values move as bit patterns (NaN payloads kept).

    Parameters
    ----------
    dst : LocalTensor
        half or float, src0's type (may be src0 itself).
    sel_mask : LocalTensor
        The packed mask, bit i%8 of byte i//8 (as Compares writes it).
    src0 : LocalTensor
        The values where the bit is set.
    scalar : float or numpy scalar
        The value where it is clear.
    sel_mode : SELMODE
        VSEL_TENSOR_SCALAR_MODE (the only mode modelled).
    count : int
        Elements.
    """
    if sel_mode is not SELMODE.VSEL_TENSOR_SCALAR_MODE:
        raise EmulatorError(f"Select mode {sel_mode.name} is not modelled (only VSEL_TENSOR_SCALAR_MODE)")
    t = src0.dtype
    if t not in _FLOATS or dst.dtype != t:
        raise EmulatorError(f"Select on {t} -> {dst.dtype}: half or float, same type both sides")
    count = int(count)
    if count <= 0:
        return
    bits = unpack_mask(read_local(sel_mask.ReinterpretCast(np.uint8), -(-count // 8), "Select"), count)
    as_int = _BITS[t.itemsize]
    src = read_local(src0, count, "Select").view(as_int)
    fill = np.asarray(scalar, dtype=t).view(as_int)
    out, direct = open_local(dst.ReinterpretCast(as_int), count, "Select")
    if fill == 0:
        np.multiply(src, bits, out=out)  # = where(bits, src, 0), several times faster; in place is fine
    else:
        out[...] = np.where(bits, src, fill)
    close_local(dst, out, direct, "Select")
