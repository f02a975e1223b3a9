"""Cast: element type conversion with a round mode, on the pairs the Atlas A2 vector unit has.

Where the pair table comes from: AscendC's Cast documentation for Atlas A2 (hiascend.com, "Cast",
atlasascendc_api_07_0072 in CANN 8.5) gives the round-mode rules; the search tool returns only the
opening of that page, not its pair table, so the table below was read from AscendC's own A2
(dav_c220) implementation, impl/basic_api/dav_c220/kernel_operator_vec_vconv_impl.h in asc-devkit
(CheckCastDatatype and the round modes each CastIntrinsicsImpl accepts). Not modelled: int4b_t
(numpy has no such type). int32 -> half, which on A2 is a dequantising conversion scaled by
SetDeqScale, not a plain Cast, is deq.py's; the mask/repeat form is cast_repeat.py's.

Out-of-range values: float -> integer and integer -> narrower integer saturate (the result is the
target type's min or max; +-inf too; NaN gives 0). The A2's CTRL[59] bit selects saturation
(0, its default) or truncation to the low bits (asc-devkit docs, asc_set_ctrl); kernels do not
change it, so the emulator always saturates. What NaN becomes in an integer is not documented for
A2 (the Ascend950 saturating mode turns NaN into 0): 0 here, an assumption.

CAST_NONE: RINT where the conversion can lose precision, exact otherwise (AscendC's RoundMode).
float -> float with a round mode other than CAST_NONE rounds to an integral value in float
(vconv_f322f32r/a/f/c/z), keeping the sign of a zero; NaN and inf pass with their bits.

NaN bits (docs/nan-payloads.md): widening keeps a NaN's bits (half/bfloat16 -> float is exact,
a signalling NaN stays signalling); narrowing float -> half or bfloat16 keeps the sign and the top
payload bits and does not set the quiet bit, whatever the round mode (an all-zero kept payload
gets its lowest bit, so that it stays a NaN).

Uncertain: the A2 documentation does not say what CAST_ODD does on overflow or to NaN payloads;
the emulator follows IEEE 754 (overflow: the largest finite value in the modes that round toward
zero in that direction, inf in the others)."""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import numpy as np

from opsnn.dtypes import bfloat16, dtype_name

from .errors import EmulatorError
from .halfbits import float32_to_half, half_to_float32
from .local_tensor import LocalTensor, close_local, open_local, read_local
from .rounding import RoundMode, int_to_float, round_integral, to_float, to_int, to_int_wrapping

_ALL = frozenset(RoundMode)
_NONE_ONLY = frozenset({RoundMode.CAST_NONE})
_RFCAZ = frozenset({RoundMode.CAST_RINT, RoundMode.CAST_FLOOR, RoundMode.CAST_CEIL, RoundMode.CAST_ROUND,
                    RoundMode.CAST_TRUNC})  # the vconv suffixes r, f, c, a, z
_NONE_RFCAZ = _RFCAZ | _NONE_ONLY
F16, F32, I32, I8, U8 = (np.dtype(t) for t in (np.float16, np.float32, np.int32, np.int8, np.uint8))
I16, I64 = np.dtype(np.int16), np.dtype(np.int64)
BF16 = bfloat16

# Atlas A2 (dav_c220): (src, dst) -> the round modes the hardware accepts.
ALLOWED_CASTS: Mapping[tuple[np.dtype, np.dtype], frozenset[RoundMode]] = MappingProxyType({
    # widenings: exact, CAST_NONE only
    (I8, F16): _NONE_ONLY,
    (U8, F16): _NONE_ONLY,
    (F16, F32): _NONE_ONLY,
    (BF16, F32): _NONE_ONLY,
    (I16, F32): _NONE_ONLY,
    (I32, I64): _NONE_ONLY,
    # integer narrowings (saturating): CAST_NONE only
    (I32, I16): _NONE_ONLY,
    (I64, I32): _NONE_ONLY,
    # float narrowing: every mode, CAST_ODD included
    (F32, F16): _ALL,
    (F32, BF16): _RFCAZ,
    (F32, F32): _RFCAZ,  # to an integral value
    # float -> integer
    (F16, I8): _NONE_RFCAZ,
    (F16, U8): _NONE_RFCAZ,
    (F16, I16): _RFCAZ,
    (F16, I32): _RFCAZ,
    (F32, I16): _RFCAZ,
    (F32, I32): _RFCAZ,
    (F32, I64): _RFCAZ,
    (BF16, I32): _RFCAZ,
    # integer -> float (inexact past the significand)
    (I16, F16): _NONE_RFCAZ,
    (I32, F32): _NONE_RFCAZ,
    (I64, F32): _RFCAZ,
})
# float32 NaN -> half / bfloat16: (payload shift, the exponent's bits, the payload's mask)
_NARROW_NAN = MappingProxyType({F16: (13, 0x7C00, 0x3FF), BF16: (16, 0x7F80, 0x7F)})


def _small_int_to_half_table(src: np.dtype) -> np.ndarray:
    """half value of every int8/uint8 byte, indexed by the byte: a 256-entry lookup is twice as
    fast as numpy's integer-to-half conversion."""
    table = np.arange(256, dtype=np.uint16).astype(np.uint8).view(src).astype(F16)
    table.flags.writeable = False
    return table


# Immutable lookup tables, built once at import (256 entries each).
_TO_HALF_TABLES = MappingProxyType({I8: _small_int_to_half_table(I8), U8: _small_int_to_half_table(U8)})


def _narrow_nan_payloads(values: np.ndarray, out: np.ndarray) -> None:
    """float32 -> half / bfloat16 NaNs as halfbits.float32_to_half gives them: the sign and the top
    payload bits, not forced quiet; a NaN whose kept bits are all zero gets the lowest one, so that
    it stays NaN. A half or bfloat16 widened to float32 and narrowed back is the same bits. (numpy's
    float64 path sets the quiet bit and ml_dtypes turns every NaN into 0x7FC0; how the vector unit
    narrows a NaN is not documented: this keeps every narrowing cast and round mode consistent.)"""
    nan = values != values
    if nan.any():
        shift, exponent, payload = _NARROW_NAN[out.dtype]
        u = values.view(np.uint32)[nan]
        kept = ((u & np.uint32(0x7FFFFF)) >> np.uint32(shift)).astype(np.uint16)
        kept |= (kept == 0).astype(np.uint16)
        sign = ((u >> np.uint32(16)) & np.uint32(0x8000)).astype(np.uint16)
        out.view(np.uint16)[nan] = sign | np.uint16(exponent) | (kept & np.uint16(payload))


def _saturate(values: np.ndarray, dst: np.dtype, out: np.ndarray) -> None:
    info = np.iinfo(dst)
    np.copyto(out, np.clip(values, info.min, info.max), casting="unsafe")


def round_integral_float(values: np.ndarray, mode: RoundMode, out: np.ndarray) -> None:
    """float -> the same float type in a round mode: an integral value (exact in the type: every
    integral value a half, bfloat16 or float32 rounds to is one of its own); NaN and inf keep their
    bits."""
    with np.errstate(invalid="ignore"):
        wide = values.astype(np.float64)
    np.copyto(out, round_integral(wide, mode), casting="unsafe")
    nan = values != values
    if nan.any():
        bits = f"u{values.dtype.itemsize}"
        out.view(bits)[nan] = values.view(bits)[nan]


def cast_values(values: np.ndarray, dst: np.dtype, mode: RoundMode, out: np.ndarray | None = None,
                saturate: bool = True) -> np.ndarray:
    """The conversion itself on a numpy array (the pair is assumed allowed); into `out` if given.
    saturate=False is Ascend950's non-saturating mode for float or integer -> integer (low bits kept)."""
    src, dst = values.dtype, np.dtype(dst)
    if out is None:
        out = np.empty(values.shape, dtype=dst)
    table = _TO_HALF_TABLES.get(src)
    if table is not None and dst == F16:
        np.take(table, values.view(np.uint8), out=out)
    elif src == F16 and dst == F32:
        half_to_float32(values, out)  # exact; steady speed where numpy's branchy loop is not
    elif src == F32 and dst == F16 and mode in (RoundMode.CAST_NONE, RoundMode.CAST_RINT):
        float32_to_half(values, out)  # NaN payloads by the same rule as _narrow_nan_payloads
    elif src == BF16 and dst == F32:
        # bfloat16 is the top half of a float32: widening is a 16-bit shift of the pattern.
        np.left_shift(values.view(np.uint16), 16, out=out.view(np.uint32), dtype=np.uint32)
    elif src.kind in "iu" and dst.kind in "iu":
        if saturate:
            _saturate(values, dst, out)  # widening: exact; narrowing: saturated (CTRL[59] = 0)
        else:
            np.copyto(out, values, casting="unsafe")  # numpy's integer narrowing keeps the low bits
    elif src == F32 and dst == F32:
        round_integral_float(values, mode, out)
    elif dst.kind in "iu":
        np.copyto(out, (to_int if saturate else to_int_wrapping)(values, dst, mode), casting="unsafe")
    elif ALLOWED_CASTS.get((src, dst)) is _NONE_ONLY:
        np.copyto(out, values)  # the other widenings (int16 -> float): exact
    elif src == I64:
        np.copyto(out, int_to_float(values, dst, mode))  # float64 does not hold every int64
    elif mode in (RoundMode.CAST_NONE, RoundMode.CAST_RINT):
        # numpy's and ml_dtypes' own conversions round to nearest-even with overflow to +-inf:
        # the same result as to_float, much faster. Overflow and NaN are results here, not warnings.
        with np.errstate(over="ignore", invalid="ignore"):
            np.copyto(out, values, casting="unsafe")
    else:
        np.copyto(out, to_float(values, dst, mode))
    if src == F32 and (dst == BF16 or (dst == F16 and mode not in (RoundMode.CAST_NONE, RoundMode.CAST_RINT))):
        _narrow_nan_payloads(values, out)
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


def cast_count(dst: LocalTensor, src: LocalTensor, round_mode: RoundMode, count: int) -> None:
    """dst[i] = convert(src[i]) for i < count, on the pairs and modes ALLOWED_CASTS lists (Cast's
    count form; cast_repeat.Cast dispatches every form, the mask/repeat one and int32 -> half).

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
    count = int(count)
    if count <= 0:
        return
    values = read_local(src, count, "Cast")
    out, direct = open_local(dst, count, "Cast")
    cast_values(values, dst.dtype, round_mode, out)
    close_local(dst, out, direct, "Cast")
