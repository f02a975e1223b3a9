"""Compares (CompareScalar): tensor vs scalar into a packed bit mask."""
from __future__ import annotations

from enum import Enum
from types import MappingProxyType

import numpy as np

from . import findings as fk
from .errors import EmulatorError
from .local_tensor import LocalTensor, read_local, write_local

COMPARE_UNIT = 256  # bytes: the vector unit compares whole 256-byte repeats


class CMPMODE(Enum):
    LT = "LT"
    GT = "GT"
    EQ = "EQ"
    LE = "LE"
    GE = "GE"
    NE = "NE"


_ORDERED = MappingProxyType({
    CMPMODE.LT: np.less, CMPMODE.GT: np.greater, CMPMODE.EQ: np.equal,
    CMPMODE.LE: np.less_equal, CMPMODE.GE: np.greater_equal,
})
_FLOATS = (np.dtype(np.float16), np.dtype(np.float32))


def compare_scalar_bits(values: np.ndarray, scalar, mode: CMPMODE) -> np.ndarray:
    """Boolean result of `values <mode> scalar`; every comparison with NaN is false, NE included."""
    if mode is CMPMODE.NE:
        out = np.not_equal(values, scalar)
        if values.dtype.kind == "f":
            out &= ~np.isnan(values)
            if np.isnan(scalar):
                out[:] = False
        return out
    return _ORDERED[mode](values, scalar)


def Compares(dst: LocalTensor, src: LocalTensor, scalar: float | np.generic, cmp_mode: CMPMODE,  # noqa: N802
             count: int) -> None:
    """dst bit i (bit i%8 of byte i//8, LSB first) = src[i] <cmp_mode> scalar.

    Only whole 256-byte repeats are compared: the mask bits of a tail are left as they were (the
    hardware's behaviour), and the sanitizer reports compare_count_unaligned.

    Parameters
    ----------
    dst : LocalTensor
        The mask (read as bytes).
    src : LocalTensor
        half or float (int32 with EQ only).
    scalar : float or numpy scalar
        Compared in src's type; every comparison with NaN is false, NE included.
    cmp_mode : CMPMODE
        LT, GT, EQ, LE, GE or NE.
    count : int
        Elements.
    """
    t = src.dtype
    if t not in _FLOATS and not (t == np.dtype(np.int32) and cmp_mode is CMPMODE.EQ):
        raise EmulatorError(f"Compares on {t} with {cmp_mode.name} is not supported (half/float; int32 only EQ)")
    count = int(count)
    per_repeat = COMPARE_UNIT // t.itemsize
    compared = count // per_repeat * per_repeat
    ctx = src.ctx
    if compared != count and ctx.sanitize:
        ctx.log.add(fk.COMPARE_COUNT_UNALIGNED, "Compares", src.buffer.name, src.offset + compared * t.itemsize,
                    (count - compared) * t.itemsize,
                    f"count {count} x {t.itemsize} B is not a multiple of {COMPARE_UNIT} B: the last "
                    f"{count - compared} elements are not compared and their mask bits are not written")
    if compared == 0:
        return
    s = np.asarray(scalar, dtype=t)
    bits = compare_scalar_bits(read_local(src, compared, "Compares"), s, cmp_mode)
    write_local(dst.ReinterpretCast(np.uint8), np.packbits(bits, bitorder="little"), "Compares")


CompareScalar = Compares
