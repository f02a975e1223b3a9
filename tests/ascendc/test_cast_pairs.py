"""Cast on every Atlas A2 pair and round mode, against an exact oracle (Python fractions).

The oracle rounds the exact value of each source element once, with its own arithmetic (no
float64 on the way, unlike rounding.py), so a double rounding or a wrong tie rule in the emulator
shows up. Values: ties at the target's precision, ties at .5 for integers, the ends of each range
and one past them, subnormals, signed zeros, infinities; NaNs are checked for their bits apart."""
from __future__ import annotations

from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

from opsnn.ascendc import ALLOWED_CASTS, Cast, EmulatorError, RoundMode
from opsnn.ascendc.cast import cast_values
from opsnn.platform import Platform

from .helpers import Ub, bits, copy_out, kinds, make_core

M = RoundMode
F16, F32, BF16 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(ml_dtypes.bfloat16)
I8, U8, I16, I32, I64 = (np.dtype(t) for t in (np.int8, np.uint8, np.int16, np.int32, np.int64))
# precision (significand bits), emin, largest finite
FORMATS = {F16: (11, -14, Fraction(65504)), BF16: (8, -126, Fraction(0xFF << 120)),
           F32: (24, -126, Fraction((2 ** 24 - 1) * 2 ** 104))}
PLATFORM = Platform.custom(ub_size=256 * 1024, aiv_cores=1)


def _round_int(q: Fraction, mode: M) -> int:
    """q rounded to an integer under mode (exact)."""
    f = q.numerator // q.denominator  # floor
    frac = q - f
    if frac == 0:
        return f
    if mode is M.CAST_FLOOR:
        return f
    if mode is M.CAST_CEIL:
        return f + 1
    if mode is M.CAST_TRUNC:
        return f + 1 if q < 0 else f
    if mode is M.CAST_ROUND:  # ties away from zero
        if frac == Fraction(1, 2):
            return f + 1 if q > 0 else f
        return f + 1 if frac > Fraction(1, 2) else f
    if mode is M.CAST_ODD:
        t = f + 1 if q < 0 else f  # trunc
        return t if t % 2 else t + (1 if q > 0 else -1)
    # RINT / NONE: ties to even
    if frac == Fraction(1, 2):
        return f if f % 2 == 0 else f + 1
    return f + 1 if frac > Fraction(1, 2) else f


def _to_float(x: Fraction, neg_zero: bool, dst: np.dtype, mode: M) -> float:
    p, emin, big = FORMATS[dst]
    if x == 0:
        return -0.0 if neg_zero else 0.0
    a = abs(x)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    ulp = Fraction(2) ** (max(e, emin) - (p - 1))
    y = _round_int(x / ulp, mode) * ulp
    if abs(y) > big:  # IEEE overflow: inf where the mode rounds away in that direction
        away = mode in (M.CAST_NONE, M.CAST_RINT, M.CAST_ROUND) or \
            (mode is M.CAST_CEIL and y > 0) or (mode is M.CAST_FLOOR and y < 0)
        return float(np.copysign(np.inf if away else float(big), float(y)))
    if y == 0:
        return -0.0 if x < 0 else 0.0
    return float(y)


def oracle(values: np.ndarray, dst: np.dtype, mode: M) -> np.ndarray:
    out = []
    for v in values.tolist() if values.dtype.kind in "iu" else values.astype(np.float64).tolist():
        if isinstance(v, float) and np.isnan(v):
            out.append(0 if dst.kind in "iu" else np.nan)
            continue
        if isinstance(v, float) and np.isinf(v):
            if dst.kind in "iu":
                info = np.iinfo(dst)
                out.append(info.max if v > 0 else info.min)
            else:
                out.append(v)
            continue
        x = Fraction(v)
        if dst.kind in "iu":
            info = np.iinfo(dst)
            out.append(min(max(_round_int(x, mode), info.min), info.max))
        elif dst == F32 and values.dtype == F32:  # float -> float: an integral value
            r = _round_int(x, mode)
            out.append(float(np.copysign(float(r), v)) if r == 0 else float(r))
        else:
            out.append(_to_float(x, bool(np.signbit(v)) if isinstance(v, float) else False, dst, mode))
    if dst.kind in "iu":
        return np.array(out, dtype=np.int64).astype(dst)
    return np.array(out, dtype=np.float64).astype(dst)


def _float_values(src: np.dtype) -> np.ndarray:
    """Ties and boundaries for every target, in src's type (those src cannot hold round on the way)."""
    v = [0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.5, 0.49999997, 1.0, -1.0, 126.5, 127.5, 128.0, -128.5,
         -129.0, 254.5, 255.5, 256.0, -0.75, 32766.5, 32767.5, 32768.0, -32768.5, -32769.0,
         2.0 ** 31, -(2.0 ** 31), 2.0 ** 31 + 2 ** 8, -(2.0 ** 31) - 2 ** 8, 2.0 ** 63, -(2.0 ** 63), 2.0 ** 64,
         1 + 2 ** -11, 1 + 3 * 2 ** -11, 1 + 2 ** -8, 1 + 3 * 2 ** -8, 1 + 2 ** -9, -(1 + 2 ** -11),
         65504.0, 65519.0, 65520.0, -65520.0, 2.0 ** -24, 2.0 ** -25, 3 * 2.0 ** -26, 2.0 ** -15, 6e-8,
         -6e-8, 1e-40, -1e-40, 1e30, -1e30, 3.4e38, np.inf, -np.inf, 1234.5678, -0.3, 0.7, 99.5]
    rng = np.random.default_rng(7)
    v += list(rng.standard_normal(40) * 10.0 ** rng.integers(-6, 7, 40))
    with np.errstate(over="ignore"):
        return np.array(v, dtype=np.float64).astype(src)


def _int_values(src: np.dtype) -> np.ndarray:
    info = np.iinfo(src)
    v = [0, 1, -1, 2, 127, 128, -128, -129, 255, 256, 2047, 2049, 2051, 4097, -2049, 32767, -32768,
         2 ** 24 + 1, 2 ** 24 + 3, -(2 ** 24 + 1), 2 ** 25 + 2, 2 ** 25 + 6, 2 ** 31 - 1, -(2 ** 31),
         2 ** 53 + 1, 2 ** 60 + 2 ** 36, -(2 ** 60 + 2 ** 36), 2 ** 60 + 2 ** 36 + 1, 2 ** 63 - 1, -(2 ** 63)]
    rng = np.random.default_rng(8)
    v += list(rng.integers(info.min, info.max, 20, endpoint=True))
    return np.array([x for x in v if info.min <= x <= info.max], dtype=src)


PAIRS = sorted(((s, d, m) for (s, d), modes in ALLOWED_CASTS.items() for m in modes),
               key=lambda t: (str(t[0]), str(t[1]), t[2].name))


def _run(values: np.ndarray, dst: np.dtype, mode: M) -> np.ndarray:
    core = make_core(platform=PLATFORM)
    ub = Ub(core)
    n = values.size
    a = ub.buffer(values.dtype, n, values)
    b = ub.buffer(dst, n)
    Cast(b, a, mode, n)
    assert kinds(core) == []
    return b.numpy(n)


@pytest.mark.parametrize("src, dst, mode", PAIRS, ids=lambda x: getattr(x, "name", str(x)))
def test_every_pair_and_mode_matches_the_exact_oracle(src, dst, mode):
    values = _int_values(src) if src.kind in "iu" else _float_values(src)
    values = values[~np.isnan(values.astype(np.float64))] if src.kind == "f" else values
    got = _run(values, dst, mode)
    want = oracle(values, dst, mode)
    np.testing.assert_array_equal(bits(got), bits(want), err_msg=f"{src}->{dst} {mode.name}")


# --- ties, spelled out ---------------------------------------------------------------------------

@pytest.mark.parametrize("mode, want", [
    (M.CAST_RINT, [2, -2, 2, 4, 0, -0]), (M.CAST_NONE, [2, -2, 2, 4, 0, -0]),
    (M.CAST_ROUND, [3, -3, 2, 4, 1, -1]), (M.CAST_FLOOR, [2, -3, 1, 3, 0, -1]),
    (M.CAST_CEIL, [3, -2, 2, 4, 1, -0]), (M.CAST_TRUNC, [2, -2, 1, 3, 0, -0]),
])
def test_float_to_int_ties(mode, want):
    x = np.array([2.5, -2.5, 1.5, 3.5, 0.5, -0.5], dtype=np.float16)
    if mode is M.CAST_NONE:
        assert list(_run(x, I8, mode)) == want
    for dst in (I8, I16, I32):
        if mode in ALLOWED_CASTS[F16, dst]:
            assert list(_run(x, dst, mode)) == want
    for dst in (I16, I32, I64):
        assert list(_run(x.astype(np.float32), dst, mode if mode is not M.CAST_NONE else M.CAST_RINT)) == want


def test_float32_to_half_ties_per_mode():
    one, up = 0x3C00, 0x3C01  # 1 and the next half
    x = np.array([1 + 2 ** -11, 1 + 3 * 2 ** -11, -(1 + 2 ** -11), 65520.0], dtype=np.float32)
    want = {M.CAST_RINT: [one, 0x3C02, 0x8000 | one, 0x7C00], M.CAST_ROUND: [up, 0x3C02, 0x8000 | up, 0x7C00],
            M.CAST_FLOOR: [one, up, 0x8000 | up, 0x7BFF], M.CAST_CEIL: [up, 0x3C02, 0x8000 | one, 0x7C00],
            M.CAST_TRUNC: [one, up, 0x8000 | one, 0x7BFF], M.CAST_ODD: [up, up, 0x8000 | up, 0x7BFF]}
    for mode, w in want.items():
        assert list(bits(_run(x, F16, mode))) == w, mode


# --- saturation, not wrapping --------------------------------------------------------------------

def test_out_of_range_saturates():
    f = np.array([1e10, -1e10, np.inf, -np.inf, 3e38, 300.0, -300.0], dtype=np.float32)
    assert list(_run(f, I32, M.CAST_TRUNC)) == [2 ** 31 - 1, -(2 ** 31)] * 2 + [2 ** 31 - 1, 300, -300]
    assert list(_run(f, I16, M.CAST_RINT)) == [32767, -32768] * 2 + [32767, 300, -300]
    assert list(_run(f, I64, M.CAST_FLOOR)) == [10 ** 10, -10 ** 10, 2 ** 63 - 1, -(2 ** 63), 2 ** 63 - 1, 300, -300]
    h = np.array([300, -300, np.inf, -np.inf, 255.5, -0.5], dtype=np.float16)
    assert list(_run(h, I8, M.CAST_ROUND)) == [127, -128, 127, -128, 127, -1]
    assert list(_run(h, U8, M.CAST_ROUND)) == [255, 0, 255, 0, 255, 0]
    i32 = np.array([70000, -70000, 32767, -32768, 2 ** 31 - 1], dtype=np.int32)
    assert list(_run(i32, I16, M.CAST_NONE)) == [32767, -32768, 32767, -32768, 32767]
    i64 = np.array([2 ** 40, -(2 ** 40), 5, -(2 ** 63)], dtype=np.int64)
    assert list(_run(i64, I32, M.CAST_NONE)) == [2 ** 31 - 1, -(2 ** 31), 5, -(2 ** 31)]


# --- NaN, inf and signed zero --------------------------------------------------------------------

def test_nan_to_integer_is_zero():
    for src, dst, mode in PAIRS:
        if src.kind == "f" and dst.kind in "iu":
            nan = np.array([np.nan, -np.nan], dtype=src)
            assert list(_run(nan, dst, mode)) == [0, 0], (src, dst, mode)


NAN32 = np.array([0x7FC00000, 0xFFC00000, 0x7F800001, 0x7FA00000, 0xFFE02000, 0x7FBFFFFF, 0x7F802000],
                 dtype=np.uint32)


@pytest.mark.parametrize("mode", list(M))
def test_float32_to_half_nan_bits_are_the_same_in_every_mode(mode):
    """sign and top payload bits, signalling NaNs not quieted (the CAST_ROUND path used to quiet them)."""
    got = bits(_run(NAN32.view(np.float32), F16, mode))
    assert [hex(v) for v in got] == ["0x7e00", "0xfe00", "0x7c01", "0x7d00", "0xff01", "0x7dff", "0x7c01"]


@pytest.mark.parametrize("mode", sorted(ALLOWED_CASTS[F32, BF16], key=lambda m: m.name))
def test_float32_to_bfloat16_nan_bits_in_every_mode(mode):
    got = bits(_run(NAN32.view(np.float32), BF16, mode))
    assert [hex(v) for v in got] == ["0x7fc0", "0xffc0", "0x7f81", "0x7fa0", "0xffe0", "0x7fbf", "0x7f81"]


@pytest.mark.parametrize("mode", sorted(ALLOWED_CASTS[F32, F32], key=lambda m: m.name))
def test_float_to_integral_float_keeps_nan_inf_and_zero_signs(mode):
    x = np.concatenate([NAN32, np.array([0x7F800000, 0xFF800000, 0x80000000, 0], dtype=np.uint32)])
    got = bits(_run(x.view(np.float32), F32, mode))
    np.testing.assert_array_equal(got, x)
    neg_small = _run(np.array([-0.25], dtype=np.float32), F32, mode)
    want_sign = mode is not M.CAST_FLOOR  # FLOOR(-0.25) = -1; the others give -0.0
    assert np.signbit(neg_small[0]) and (neg_small[0] == 0) == want_sign


def test_widenings_keep_signalling_nans():
    h = np.array([0x7C01, 0xFE00, 0x7D55], dtype=np.uint16)
    assert [hex(v) for v in bits(_run(h.view(np.float16), F32, M.CAST_NONE))] == \
        ["0x7f802000", "0xffc00000", "0x7faaa000"]
    b = np.array([0x7F81, 0xFFC0], dtype=np.uint16)
    assert [hex(v) for v in bits(_run(b.view(BF16), F32, M.CAST_NONE))] == ["0x7f810000", "0xffc00000"]


def test_round_trip_through_half_keeps_every_half_nan():
    every = np.arange(0x7C01, 0x8000, dtype=np.uint16)
    wide = cast_values(every.view(np.float16), F32, M.CAST_NONE)
    for mode in M:
        back = cast_values(wide, F16, mode)
        np.testing.assert_array_equal(back.view(np.uint16), every, err_msg=mode.name)


def test_int64_to_float_rounds_once():
    # 2**60 + 2**36 is a tie at float32's precision; + 1 is just above it. float64 alone would
    # first round 2**60 + 2**36 + 1 down to the tie, then to even: the wrong side.
    x = np.array([2 ** 60 + 2 ** 36 + 1, -(2 ** 60 + 2 ** 36 + 1), 2 ** 63 - 1], dtype=np.int64)
    got = _run(x, F32, M.CAST_RINT)
    assert got[0] == np.float32(2 ** 60 + 2 ** 37) and got[1] == -got[0]
    assert got[2] == np.float32(2.0 ** 63)


# --- errors --------------------------------------------------------------------------------------

def test_error_names_the_instruction_and_lists_what_it_takes():
    ub = Ub(make_core())
    a, b = ub.buffer(F16, 64), ub.buffer(I32, 64)
    with pytest.raises(EmulatorError, match=r"Cast float16 -> int32 does not take CAST_NONE; allowed: CAST_CEIL"):
        Cast(b, a, M.CAST_NONE, 64)
    with pytest.raises(EmulatorError, match=r"Cast int8 -> float32 is not supported on Atlas A2; supported pairs"):
        Cast(ub.buffer(F32, 64), ub.buffer(I8, 64), M.CAST_NONE, 64)


def test_sanitizer_sees_overflow_and_read_before_write():
    core = make_core()
    ub = Ub(core)
    a = ub.buffer(F32, 64, np.ones(64, np.float32))
    b = ub.buffer(I16, 32)  # 64 bytes: half what the cast writes
    Cast(b, a, M.CAST_RINT, 64)
    assert kinds(core) == ["local_tensor_overflow"]
    core = make_core()
    ub = Ub(core)
    a = ub.buffer(F32, 64)  # never written
    dst = ub.buffer(I64, 64)
    Cast(dst, a, M.CAST_TRUNC, 64)
    assert kinds(core) == []
    copy_out(dst, 64)
    assert kinds(core) == ["ub_read_before_write"]
