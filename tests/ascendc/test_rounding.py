"""Round modes of the conversions, on ties, overflow, NaN and the edges of the formats."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from opsnn.ascendc.rounding import RoundMode, to_float, to_int

from .helpers import bits

M = RoundMode
F16, F32, BF16 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(ml_dtypes.bfloat16)

# Halfway cases of float32 -> float16 near 1 (ulp of half there is 2**-10).
ULP = 2.0 ** -10
TIES = np.array([1 + ULP / 2, 1 + 3 * ULP / 2, -(1 + ULP / 2), -(1 + 3 * ULP / 2)], dtype=np.float32)


@pytest.mark.parametrize("mode, expected", [
    (M.CAST_RINT, [1, 1 + 2 * ULP, -1, -(1 + 2 * ULP)]),
    (M.CAST_NONE, [1, 1 + 2 * ULP, -1, -(1 + 2 * ULP)]),
    (M.CAST_ROUND, [1 + ULP, 1 + 2 * ULP, -(1 + ULP), -(1 + 2 * ULP)]),
    (M.CAST_FLOOR, [1, 1 + ULP, -(1 + ULP), -(1 + 2 * ULP)]),
    (M.CAST_CEIL, [1 + ULP, 1 + 2 * ULP, -1, -(1 + ULP)]),
    (M.CAST_TRUNC, [1, 1 + ULP, -1, -(1 + ULP)]),
    (M.CAST_ODD, [1 + ULP, 1 + ULP, -(1 + ULP), -(1 + ULP)]),
])
def test_float_to_half_ties(mode, expected):
    got = to_float(TIES, F16, mode)
    np.testing.assert_array_equal(bits(got), bits(np.array(expected, dtype=np.float16)))


def test_round_to_odd_keeps_exact_values_and_never_double_rounds():
    # Exactly representable: unchanged. Inexact: the odd neighbour, even when the nearest is even.
    x = np.array([1.0, 1 + ULP, 1 + ULP / 4, 1 + 2 * ULP + ULP / 4, 2.0 ** -25, -(2.0 ** -25)], dtype=np.float32)
    want = np.array([1.0, 1 + ULP, 1 + ULP, 1 + 3 * ULP, 2.0 ** -24, -(2.0 ** -24)], dtype=np.float16)
    np.testing.assert_array_equal(bits(to_float(x, F16, M.CAST_ODD)), bits(want))


@pytest.mark.parametrize("mode, pos, neg", [
    (M.CAST_RINT, np.inf, -np.inf), (M.CAST_NONE, np.inf, -np.inf), (M.CAST_ROUND, np.inf, -np.inf),
    (M.CAST_FLOOR, 65504, -np.inf), (M.CAST_CEIL, np.inf, -65504),
    (M.CAST_TRUNC, 65504, -65504), (M.CAST_ODD, 65504, -65504),
])
def test_float_to_half_overflow(mode, pos, neg):
    x = np.array([1e6, -1e6, np.inf, -np.inf, 65504, 65519.99], dtype=np.float32)
    got = to_float(x, F16, mode).astype(np.float64)
    assert got[0] == pos and got[1] == neg
    assert got[2] == np.inf and got[3] == -np.inf and got[4] == 65504


def test_rint_overflow_threshold_of_half():
    x = np.array([65519.0, 65520.0, -65520.0], dtype=np.float32)  # 65520 is the tie to 2**16
    np.testing.assert_array_equal(to_float(x, F16, M.CAST_RINT).astype(np.float64), [65504, np.inf, -np.inf])


def test_nan_and_signed_zero_pass_through():
    x = np.array([np.nan, -0.0, 0.0], dtype=np.float32)
    for mode in M:
        got = to_float(x, F16, mode)
        assert np.isnan(got[0])
        assert bits(got)[1] == 0x8000 and bits(got)[2] == 0


def test_half_subnormals():
    tiny = np.array([2.0 ** -24, 2.0 ** -25, 3 * 2.0 ** -26, 2.0 ** -26], dtype=np.float32)
    np.testing.assert_array_equal(bits(to_float(tiny, F16, M.CAST_RINT)), [1, 0, 1, 0])
    np.testing.assert_array_equal(bits(to_float(tiny, F16, M.CAST_CEIL)), [1, 1, 1, 1])
    np.testing.assert_array_equal(bits(to_float(tiny, F16, M.CAST_ODD)), [1, 1, 1, 1])


def test_float_to_bf16_modes():
    one_ulp = 2.0 ** -7
    x = np.array([1 + one_ulp / 2, 1 + 3 * one_ulp / 2, np.finfo(np.float32).max], dtype=np.float32)
    rint = to_float(x, BF16, M.CAST_RINT).astype(np.float64)
    assert rint[0] == 1 and rint[1] == 1 + 2 * one_ulp and rint[2] == np.inf
    trunc = to_float(x, BF16, M.CAST_TRUNC).astype(np.float64)
    assert trunc[0] == 1 and trunc[1] == 1 + one_ulp and trunc[2] == float(ml_dtypes.finfo(BF16).max)
    assert to_float(x, BF16, M.CAST_ROUND).astype(np.float64)[0] == 1 + one_ulp


def test_int32_to_float_modes():
    x = np.array([2 ** 24 + 1, 2 ** 24 + 3, -(2 ** 24 + 1), 2 ** 31 - 1, -(2 ** 31)], dtype=np.int32)
    want = [2 ** 24, 2 ** 24 + 4, -(2 ** 24), 2 ** 31, -(2 ** 31)]
    assert list(to_float(x, F32, M.CAST_RINT).astype(np.int64)) == want
    assert list(to_float(x, F32, M.CAST_FLOOR).astype(np.int64)[:3]) == [2 ** 24, 2 ** 24 + 2, -(2 ** 24 + 2)]
    assert list(to_float(x, F32, M.CAST_ODD).astype(np.int64)[:2]) == [2 ** 24 + 2, 2 ** 24 + 2]


@pytest.mark.parametrize("mode, expected", [
    (M.CAST_RINT, [2, 2, -2, -2, 0, 1]),
    (M.CAST_ROUND, [3, 2, -3, -2, 1, 1]),
    (M.CAST_FLOOR, [2, 1, -3, -2, 0, 0]),
    (M.CAST_CEIL, [3, 2, -2, -1, 1, 1]),
    (M.CAST_TRUNC, [2, 1, -2, -1, 0, 0]),
    (M.CAST_ODD, [3, 1, -3, -1, 1, 1]),
])
def test_float_to_int_ties(mode, expected):
    x = np.array([2.5, 1.5, -2.5, -1.5, 0.5, 0.75], dtype=np.float32)
    assert list(to_int(x, np.dtype(np.int32), mode)) == expected


def test_float_to_int_saturates_and_nan_is_zero():
    x = np.array([2.0 ** 31, -(2.0 ** 31) * 2, np.inf, -np.inf, np.nan, 2147483520.0], dtype=np.float32)
    for mode in (M.CAST_RINT, M.CAST_TRUNC, M.CAST_FLOOR, M.CAST_CEIL, M.CAST_ROUND, M.CAST_ODD):
        got = to_int(x, np.dtype(np.int32), mode)
        assert list(got) == [2 ** 31 - 1, -(2 ** 31), 2 ** 31 - 1, -(2 ** 31), 0, 2147483520]


def test_half_to_int8_uint8_saturate():
    x = np.array([300, -300, 127.5, -128.9, np.nan, -0.5], dtype=np.float16)
    assert list(to_int(x, np.dtype(np.int8), M.CAST_TRUNC)) == [127, -128, 127, -128, 0, 0]
    assert list(to_int(x, np.dtype(np.uint8), M.CAST_TRUNC)) == [255, 0, 127, 0, 0, 0]
    assert list(to_int(x, np.dtype(np.uint8), M.CAST_FLOOR)) == [255, 0, 127, 0, 0, 0]


@settings(deadline=None, max_examples=200)
@given(st.lists(st.floats(width=32, allow_nan=False, allow_infinity=False), min_size=1, max_size=50))
def test_modes_bracket_the_value(values):
    """FLOOR <= x <= CEIL, each a neighbour; RINT and numpy's cast agree; TRUNC is toward zero."""
    x = np.array(values, dtype=np.float32)
    lo = to_float(x, F16, M.CAST_FLOOR).astype(np.float64)
    hi = to_float(x, F16, M.CAST_CEIL).astype(np.float64)
    xd = x.astype(np.float64)
    assert np.all(lo <= xd) and np.all(xd <= hi)
    exact = lo == hi
    assert np.all(lo[exact] == xd[exact])
    with np.errstate(over="ignore"):
        numpy_cast = x.astype(np.float16)
    np.testing.assert_array_equal(bits(to_float(x, F16, M.CAST_RINT)), bits(numpy_cast))
    tr = to_float(x, F16, M.CAST_TRUNC).astype(np.float64)
    assert np.all(np.abs(tr) <= np.abs(xd))
    odd = to_float(x, F16, M.CAST_ODD)
    inexact_finite = ~exact & np.isfinite(odd.astype(np.float64)) & (np.abs(xd) < 65504)
    assert np.all(bits(odd)[inexact_finite] & 1 == 1)
