"""Cast as the arch35 DAGs use it: the A2 Cast (cast.py), except that float32 -> bfloat16 keeps
a NaN's payload the way float32 -> half does here: the top mantissa bits, not forced quiet (a
NaN whose kept bits are all zero gets the lowest one, so that it stays NaN). The A2 Cast goes
through ml_dtypes, which turns every NaN into the default one; for a NaN that came from a
bfloat16 (every NaN these DAGs narrow) this gives back exactly the bfloat16 it started as.

Conversions from half are lookups in tables of all 65536 halves, built once with the A2 Cast's
own conversion (so bit-identical to it) and read-only."""
from __future__ import annotations

from types import MappingProxyType

import numpy as np

from opsnn.dtypes import bfloat16

from .cast import Cast as A2Cast
from .cast import cast_values, check_cast
from .local_tensor import LocalTensor, close_local, open_local, read_local, write_local
from .rounding import RoundMode

_F32, _F16, _I32 = np.dtype(np.float32), np.dtype(np.float16), np.dtype(np.int32)
_TWO31 = np.float32(2.0**31)


def _half_table(dst: np.dtype, mode: RoundMode) -> np.ndarray:
    every_half = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(_F16)
    table = cast_values(every_half, dst, mode)
    table.flags.writeable = False
    return table


_FROM_HALF = MappingProxyType({
    (_F32, RoundMode.CAST_NONE): _half_table(_F32, RoundMode.CAST_NONE),
    (np.dtype(np.int8), RoundMode.CAST_RINT): _half_table(np.dtype(np.int8), RoundMode.CAST_RINT),
    (np.dtype(np.uint8), RoundMode.CAST_RINT): _half_table(np.dtype(np.uint8), RoundMode.CAST_RINT),
})


def _float32_to_half(values: np.ndarray, out: np.ndarray) -> None:
    """numpy's own float32 -> half (nearest-even, overflow to inf: the one IEEE result, so the
    A2 Cast's too), then its NaNs set the A2 way (the top payload bits, never quieted), which a
    hardware conversion in numpy would not promise."""
    with np.errstate(over="ignore", invalid="ignore"):
        np.copyto(out, values, casting="unsafe")
    nan = np.isnan(values)
    if nan.any():
        u = values.view(np.uint32)[nan]
        half = np.uint32(0x7C00) + ((u & np.uint32(0x7FFFFF)) >> np.uint32(13))
        half |= (half == 0x7C00).astype(np.uint32)  # a NaN must not become inf
        half |= (u >> np.uint32(16)) & np.uint32(0x8000)
        out.view(np.uint16)[nan] = half.astype(np.uint16)


def _float32_to_int32_rint(values: np.ndarray, out: np.ndarray) -> None:
    """Nearest-even, saturating, NaN -> 0: the A2 to_int, in float32 (rint of a float32 is exact)."""
    with np.errstate(invalid="ignore"):  # NaN lanes are set below
        r = np.rint(values)
        np.copyto(out, r, casting="unsafe")
        high, low, nan = r >= _TWO31, r < -_TWO31, np.isnan(r)
    if high.any() or low.any() or nan.any():
        out[high], out[low], out[nan] = np.iinfo(np.int32).max, np.iinfo(np.int32).min, 0


def Cast(dst: LocalTensor, src: LocalTensor, round_mode: RoundMode, count: int) -> None:  # noqa: N802
    count = int(count)
    if src.dtype == _F32 and dst.dtype == _I32 and round_mode is RoundMode.CAST_RINT and count > 0:
        check_cast(src.dtype, dst.dtype, round_mode)
        values = read_local(src, count, "Cast")
        out, direct = open_local(dst, count, "Cast")
        _float32_to_int32_rint(values, out)
        close_local(dst, out, direct, "Cast")
        return
    if src.dtype == _F32 and dst.dtype == _F16 and round_mode in (RoundMode.CAST_NONE, RoundMode.CAST_RINT) \
            and count > 0:
        check_cast(src.dtype, dst.dtype, round_mode)
        values = read_local(src, count, "Cast")
        out, direct = open_local(dst, count, "Cast")
        _float32_to_half(values, out)
        close_local(dst, out, direct, "Cast")
        return
    table = _FROM_HALF.get((dst.dtype, round_mode)) if src.dtype == _F16 else None
    if table is not None and count > 0:
        check_cast(src.dtype, dst.dtype, round_mode)
        values = read_local(src, count, "Cast").view(np.uint16)
        out, direct = open_local(dst, count, "Cast")
        np.take(table, values, out=out)
        close_local(dst, out, direct, "Cast")
        return
    if src.dtype == _F32 and dst.dtype == bfloat16 and count > 0:
        nan = np.isnan(read_local(src, count, "Cast"))
        if nan.any():
            high = (read_local(src, count, "Cast").view(np.uint32)[nan] >> 16).astype(np.uint16)
            high |= ((high & 0x7F) == 0).astype(np.uint16)
            A2Cast(dst, src, round_mode, count)
            out = read_local(dst.ReinterpretCast(np.uint16), count, "Cast").copy()
            out[nan] = high
            write_local(dst.ReinterpretCast(np.uint16), out, "Cast")
            return
    A2Cast(dst, src, round_mode, count)
