"""Cast as the arch35 DAGs use it: the A2 Cast (cast.py), its checks and its results (NaN payloads
included), with faster conversions for the pairs the DAGs use most.

Conversions from half are lookups in tables of all 65536 halves, built once with the A2 Cast's
own conversion (so bit-identical to it) and read-only."""
from __future__ import annotations

from types import MappingProxyType

import numpy as np

from opsnn.dtypes import bfloat16

from . import spr
from .cast import _TO_HALF_TABLES, cast_values, check_cast
from .cast_repeat import Cast as A2Cast
from .local_tensor import LocalTensor, close_local, open_local, read_local
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


_U32, _U16 = np.uint32, np.uint16
_ABS = _U32(0x7FFFFFFF)
_HALF_OVERFLOW = _U32(143 << 23)  # 2**16: from here on (inf and NaN included) no finite half's neighbourhood
_SCALE_DOWN = np.float32(2.0**-112)  # float32 exponent bias 127 -> half's 15
_BELOW_HALF_NORMAL = _U32(0x7FFFFF)  # (scaled bits - 1) below this: a nonzero below 2**-14
_ONE, _ROUND, _SIGN16 = _U32(1), _U32(0xFFF), _U16(0x8000)


def _float32_to_half_normal(values: np.ndarray, out: np.ndarray) -> bool:
    """float32 -> half where every value is zero or in half's normal range (|x| in [2**-14, 2**16)),
    nearest-even, as integer arithmetic on the bits: about twice as fast as numpy's conversion,
    whose branch per element mispredicts on kernel data (a Select's zeros among the values). Those
    lanes have one result, so it is the IEEE one (numpy's, the A2 Cast's). False, writing nothing,
    where some value is not such: the caller converts that tile in general."""
    a = np.bitwise_and(values.view(_U32), _ABS)
    if a.max() >= _HALF_OVERFLOW:
        return False
    with np.errstate(under="ignore"):  # a tiny value underflows here; the range check below refuses it
        scaled = np.multiply(a.view(np.float32), _SCALE_DOWN).view(_U32)  # exact where it is kept
    r = np.subtract(scaled, _ONE)
    if r.min() < _BELOW_HALF_NORMAL:
        return False
    # the scaled bits are the half's, 13 mantissa bits too many: drop them nearest-even (a carry
    # may bump the exponent, up to inf past 65504)
    np.right_shift(scaled, 13, out=r)
    r &= _ONE
    r += scaled
    r += _ROUND
    r >>= 13
    bits = out.view(_U16)
    np.copyto(bits, r, casting="unsafe")
    bits |= values.view(_U16)[1::2] & _SIGN16  # the sign: bit 15 of each float32's upper half
    return True


def _float32_to_half(values: np.ndarray, out: np.ndarray) -> None:
    if np.little_endian and _float32_to_half_normal(values, out):  # (UB arrays are native-endian)
        return
    _float32_to_half_general(values, out)


def _float32_to_half_general(values: np.ndarray, out: np.ndarray) -> None:
    """numpy's own float32 -> half (nearest-even, overflow to inf: the one IEEE result, so the
    A2 Cast's too), then its NaNs set the A2 way (the top payload bits, never quieted), which a
    hardware conversion in numpy would not promise."""
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
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


def _from_half_table(table: np.ndarray):
    def convert(values: np.ndarray, out: np.ndarray) -> None:
        table.take(values.view(np.uint16), out=out)
    return convert


def _widen_bfloat16(values: np.ndarray, out: np.ndarray) -> None:
    np.left_shift(values.view(np.uint16), 16, out=out.view(np.uint32), dtype=np.uint32)  # as cast_values


def _small_int_to_half(table: np.ndarray):
    def convert(values: np.ndarray, out: np.ndarray) -> None:
        table.take(values.view(np.uint8), out=out)  # cast_values' own table
    return convert


def _pick(src: np.dtype, dst: np.dtype, mode: RoundMode):
    """The conversion of the pair: this module's own, or the A2 Cast's (cast_values, or the
    branch of it that the pair takes, called directly)."""
    if src == _F32 and dst == _I32 and mode is RoundMode.CAST_RINT:
        return _float32_to_int32_rint
    if src == _F32 and dst == _F16 and mode in (RoundMode.CAST_NONE, RoundMode.CAST_RINT):
        return _float32_to_half
    table = _FROM_HALF.get((dst, mode)) if src == _F16 else None
    if table is not None:
        return _from_half_table(table)
    if src == bfloat16 and dst == _F32:
        return _widen_bfloat16
    if src in _TO_HALF_TABLES and dst == _F16:
        return _small_int_to_half(_TO_HALF_TABLES[src])
    return lambda values, out: cast_values(values, dst, mode, out)


_CHECKED: dict[tuple[np.dtype, np.dtype, RoundMode], object] = {}  # pair and mode -> _pick's answer


def _converter(src: np.dtype, dst: np.dtype, mode: RoundMode):
    """check_cast once per (pair, mode) (it raises for what the vector unit lacks), then _pick."""
    key = (src, dst, mode)
    try:
        return _CHECKED[key]
    except KeyError:
        check_cast(src, dst, mode)
        fn = _CHECKED[key] = _pick(src, dst, mode)
        return fn


def Cast(dst: LocalTensor, src: LocalTensor, round_mode: RoundMode, count: int) -> None:  # noqa: N802
    """The A2 Cast's checks, reads and writes; the conversions as the module docstring says."""
    if not isinstance(round_mode, RoundMode):
        A2Cast(dst, src, round_mode, count)  # raises, as it says why
        return
    spr.check_per_instruction_saturation(dst.ctx, "Cast")
    convert = _converter(src.dtype, dst.dtype, round_mode)
    count = int(count)
    if count <= 0:
        return
    values = read_local(src, count, "Cast")
    out, direct = open_local(dst, count, "Cast")
    convert(values, out)
    close_local(dst, out, direct, "Cast")
