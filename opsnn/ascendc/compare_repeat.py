"""The bit addressing of the mask/repeat (level 0) forms of the Atlas A2 Compare, Compares and
Select (the forms themselves are in compare.py and select.py).

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

from .errors import EmulatorError
from .local_tensor import LocalTensor
from .repeat import gather, scatter


def repeat_params(name: str, params, want: type):
    if not isinstance(params, want):
        raise EmulatorError(f"{name}: repeatParams must be a {want.__name__}, got {type(params).__name__}")
    return params.strides()


def write_bits(name: str, dst: LocalTensor, positions: np.ndarray, bits: np.ndarray) -> None:
    """Set bit `positions[k]` of dst's bytes to bits[k]; the other bits of those bytes to 0."""
    byte_index = positions // 8
    touched = np.unique(byte_index)
    out = np.zeros(touched.size, dtype=np.uint8)
    slot = np.searchsorted(touched, byte_index)
    np.bitwise_or.at(out, slot, (bits.astype(np.uint8) << (positions % 8).astype(np.uint8)))
    scatter(dst.ReinterpretCast(np.uint8), touched, out, name)


def read_bits(name: str, mask: LocalTensor, positions: np.ndarray) -> np.ndarray:
    """Bit `positions[k]` of mask's bytes, as bool."""
    byte_index = positions // 8
    touched = np.unique(byte_index)
    raw = gather(mask.ReinterpretCast(np.uint8), touched, name)
    return ((raw[np.searchsorted(touched, byte_index)] >> (positions % 8).astype(np.uint8)) & 1).astype(np.bool_)
