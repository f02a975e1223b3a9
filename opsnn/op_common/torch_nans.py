"""torch's NaN bits on x86 CPU, for operators' torch models (measured on torch 2.13): an x86
arithmetic instruction returns its first NaN operand quieted (payload and sign kept), else the
default NaN when it makes one (inf * 0, inf - inf); narrowing to bfloat16 writes 0xFFFF in torch's
vectorised body and 0x7FC0 in its scalar one, whatever the NaN. Which operand an instruction sees
first is the compiled kernel's choice: each model states it (docs/<operator>.md)."""
from __future__ import annotations

import numpy as np

from opsnn.dtypes import bfloat16

_QUIET = {np.dtype(np.float16): 0x0200, np.dtype(np.float32): 0x0040_0000,
          np.dtype(np.float64): 0x0008_0000_0000_0000}
DEFAULT_NAN = {np.dtype(np.float16): 0xFE00, np.dtype(np.float32): 0xFFC0_0000,
               np.dtype(np.float64): 0xFFF8_0000_0000_0000}  # x86's "indefinite", narrowed
BF16_VECTOR_NAN, BF16_SCALAR_NAN = 0xFFFF, 0x7FC0


def first_nan(r: np.ndarray, *operands: np.ndarray) -> np.ndarray:
    """r (float16/32/64) with its NaNs as x86 makes them from `operands` (of r's dtype,
    broadcastable to it), in the order the instructions see them: the first NaN operand's bits
    quieted, else the default NaN. A fresh array where r has a NaN, else r."""
    r = np.asarray(r)
    nan = np.isnan(r)
    if not nan.any():
        return r
    u = np.dtype(f"u{r.dtype.itemsize}")
    quiet = u.type(_QUIET[r.dtype])
    bits = u.type(DEFAULT_NAN[r.dtype])
    for operand in reversed(operands):  # the first NaN wins
        bits = np.where(np.isnan(operand), np.asarray(operand).view(u) | quiet, bits)
    out = r.view(u).copy()
    out[nan] = np.broadcast_to(bits, r.shape)[nan]
    return out.view(r.dtype)


def to_bfloat16(r32: np.ndarray, vector) -> np.ndarray:
    """float32 -> bfloat16 as torch's two loop bodies narrow (nearest even; every NaN 0xFFFF where
    `vector` is True, 0x7FC0 elsewhere)."""
    out = np.asarray(np.asarray(r32).astype(bfloat16))
    nan = np.isnan(np.asarray(r32))
    if nan.any():
        bits = np.where(vector, np.uint16(BF16_VECTOR_NAN), np.uint16(BF16_SCALAR_NAN))
        out.view(np.uint16)[nan] = np.broadcast_to(bits, out.shape)[nan]
    return out
