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
silent: those bits hold no result a kernel may rely on.) Bytes with no active bit are untouched.

Undefined values (the sanitizer) are followed bit by bit here too: a result bit is undefined
exactly where its element's operands were, and a Select element exactly where its own mask bit
(or an operand) was -- as the count forms do."""
from __future__ import annotations

import numpy as np

from .errors import EmulatorError
from .local_tensor import LocalTensor, mark_undefined_bits, read_local, undefined_bits_read
from .repeat import scatter


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
    # the undefined elements the sources' gathers found (positions in element order): their bits
    ctx = dst.ctx
    pending = [p for p in ctx.undefined_inputs if p[0] == name]
    ctx.undefined_inputs.clear()
    undefined = np.zeros(positions.size, dtype=bool)
    for entry in pending:
        if entry[2] is None and len(entry) == 5 and entry[4] == positions.size:
            undefined[entry[1]] = True
        else:
            undefined[:] = True
    as_bytes = dst.ReinterpretCast(np.uint8)
    scatter(as_bytes, touched, out, name)
    if undefined.any():
        mark_undefined_bits(as_bytes, positions[undefined], pending[0][3])


def read_bits(name: str, mask: LocalTensor, positions: np.ndarray) -> np.ndarray:
    """Bit `positions[k]` of mask's bytes, as bool."""
    byte_index = positions // 8
    lo, hi = int(byte_index.min()), int(byte_index.max()) + 1
    as_bytes = mask.ReinterpretCast(np.uint8)[lo]
    pending = mask.ctx.undefined_inputs
    first = len(pending)
    raw = read_local(as_bytes, hi - lo, name).copy()  # the bytes from the first to the last bit read
    undefined, origin = undefined_bits_read(as_bytes, name, first, positions - 8 * lo)
    if undefined.any():  # as positions in the caller's element order (scatter's convention)
        pending.append((name, np.flatnonzero(undefined), None, origin, positions.size))
    return ((raw[byte_index - lo] >> (positions % 8).astype(np.uint8)) & 1).astype(np.bool_)
