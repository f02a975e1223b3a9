"""Cast: element type conversion with a round mode, restricted to the pairs the A2 vector unit has."""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import numpy as np

from opsnn.dtypes import bfloat16, dtype_name

from .errors import EmulatorError
from .halfbits import float32_to_half, half_to_float32
from .local_tensor import LocalTensor, close_local, open_local, read_local
from .rounding import RoundMode, to_float, to_int

_ALL = frozenset(RoundMode)
_NONE_ONLY = frozenset({RoundMode.CAST_NONE})
_NO_NONE = _ALL - _NONE_ONLY
F16, F32, I32, I8, U8 = (np.dtype(t) for t in (np.float16, np.float32, np.int32, np.int8, np.uint8))
BF16 = bfloat16

# Spec §6, Atlas A2: (src, dst) -> the round modes the hardware accepts.
ALLOWED_CASTS: Mapping[tuple[np.dtype, np.dtype], frozenset[RoundMode]] = MappingProxyType({
    (I8, F16): _NONE_ONLY,
    (U8, F16): _NONE_ONLY,
    (F16, F32): _NONE_ONLY,
    (BF16, F32): _NONE_ONLY,
    (F32, F16): _ALL,
    (F16, I8): _ALL,
    (F16, U8): _ALL,
    (I32, F32): _ALL,
    (F32, I32): _NO_NONE,
    (F32, BF16): _NO_NONE,
})


def _small_int_to_half_table(src: np.dtype) -> np.ndarray:
    """half value of every int8/uint8 byte, indexed by the byte: a 256-entry lookup is twice as
    fast as numpy's integer-to-half conversion."""
    table = np.arange(256, dtype=np.uint16).astype(np.uint8).view(src).astype(F16)
    table.flags.writeable = False
    return table


# Immutable lookup tables, built once at import (256 entries each).
_TO_HALF_TABLES = MappingProxyType({I8: _small_int_to_half_table(I8), U8: _small_int_to_half_table(U8)})


def _bfloat16_nan_payloads(values: np.ndarray, out: np.ndarray) -> None:
    """float32 -> bfloat16 NaNs as float32 -> half's (halfbits.float32_to_half): the sign and the
    top payload bits, not forced quiet; a NaN whose kept bits are all zero gets the lowest one, so
    that it stays NaN. A bfloat16 widened to float32 and narrowed back is the same bits. (ml_dtypes
    turns every NaN into 0x7FC0; how the vector unit narrows a NaN is not documented: this keeps the
    two narrowing casts consistent and a NaN grad's bits through a bfloat16 round trip.)"""
    nan = values != values
    if nan.any():
        high = (values.view(np.uint32)[nan] >> np.uint32(16)).astype(np.uint16)
        high |= ((high & np.uint16(0x7F)) == 0).astype(np.uint16)
        out.view(np.uint16)[nan] = high


def cast_values(values: np.ndarray, dst: np.dtype, mode: RoundMode, out: np.ndarray | None = None) -> np.ndarray:
    """The conversion itself on a numpy array (the pair is assumed allowed); into `out` if given."""
    src, dst = values.dtype, np.dtype(dst)
    if out is None:
        out = np.empty(values.shape, dtype=dst)
    table = _TO_HALF_TABLES.get(src)
    if table is not None and dst == F16:
        np.take(table, values.view(np.uint8), out=out)
    elif src == F16 and dst == F32:
        half_to_float32(values, out)  # exact; steady speed where numpy's branchy loop is not
    elif src == F32 and dst == F16 and mode in (RoundMode.CAST_NONE, RoundMode.CAST_RINT):
        float32_to_half(values, out)
    elif src == BF16 and dst == F32:
        # bfloat16 is the top half of a float32: widening is a 16-bit shift of the pattern.
        np.left_shift(values.view(np.uint16), 16, out=out.view(np.uint32), dtype=np.uint32)
    elif ALLOWED_CASTS.get((src, dst)) is _NONE_ONLY:
        np.copyto(out, values)  # the other widenings: exact
    elif dst.kind in "iu":
        np.copyto(out, to_int(values, dst, mode), casting="unsafe")
    elif mode in (RoundMode.CAST_NONE, RoundMode.CAST_RINT):
        # numpy's and ml_dtypes' own conversions round to nearest-even with overflow to +-inf:
        # the same result as to_float, much faster. Overflow and NaN are results here, not warnings.
        with np.errstate(over="ignore", invalid="ignore"):
            np.copyto(out, values, casting="unsafe")
    else:
        np.copyto(out, to_float(values, dst, mode))
    if dst == BF16 and src == F32:
        _bfloat16_nan_payloads(values, out)
    return out


def check_cast(src: np.dtype, dst: np.dtype, mode: RoundMode) -> None:
    modes = ALLOWED_CASTS.get((np.dtype(src), np.dtype(dst)))
    if modes is None:
        pairs = ", ".join(f"{dtype_name(a)}->{dtype_name(b)}" for a, b in ALLOWED_CASTS)
        raise EmulatorError(f"Cast {dtype_name(src)} -> {dtype_name(dst)} is not supported on Atlas A2; "
                            f"supported pairs: {pairs}")
    if mode not in modes:
        raise EmulatorError(f"Cast {dtype_name(src)} -> {dtype_name(dst)} does not take {mode.name}; "
                            f"allowed: {', '.join(sorted(m.name for m in modes))}")


def Cast(dst: LocalTensor, src: LocalTensor, round_mode: RoundMode, count: int) -> None:  # noqa: N802
    """dst[i] = convert(src[i]) for i < count, on the pairs and modes ALLOWED_CASTS lists.

    Parameters
    ----------
    dst : LocalTensor
        The result, of the target type.
    src : LocalTensor
        The values.
    round_mode : RoundMode
        How inexact results round (CAST_NONE: RINT where precision is lost, exact otherwise).
    count : int
        Elements.
    """
    if not isinstance(round_mode, RoundMode):
        raise EmulatorError(f"Cast round mode must be a RoundMode, got {round_mode!r}")
    check_cast(src.dtype, dst.dtype, round_mode)
    count = int(count)
    if count <= 0:
        return
    values = read_local(src, count, "Cast")
    out, direct = open_local(dst, count, "Cast")
    cast_values(values, dst.dtype, round_mode, out)
    close_local(dst, out, direct, "Cast")
