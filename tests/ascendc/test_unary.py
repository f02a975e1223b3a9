"""Abs Exp Ln Sqrt Rsqrt Reciprocal Relu Not (count form): correct rounding (Sqrt, Reciprocal
exactly; Exp/Ln/Rsqrt through float64, with every half result shown to be correctly rounded),
special values, NaN rule, the sanitizer, refused types."""
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from opsnn.ascendc import Abs, EmulatorError, Exp, Ln, Not, Reciprocal, Relu, Rsqrt, Sqrt

from .exact import exact, round_fraction
from .helpers import Ub, bits, copy_out, kinds, make_core

F16, F32 = np.dtype(np.float16), np.dtype(np.float32)
U = {F16: np.uint16, F32: np.uint32}
DEFAULT = {F16: 0x7E00, F32: 0x7FC0_0000}
QUIET = {F16: 0x0200, F32: 0x0040_0000}
ALL_HALVES = np.arange(65536, dtype=np.uint32).astype(np.uint16).view(np.float16)


def _run(fn, dtype, a):
    ub = Ub(make_core())
    a = np.asarray(a, dtype)
    x, out = ub.buffer(dtype, a.size, a), ub.buffer(dtype, a.size)
    fn(out, x, a.size)
    return out.numpy(a.size)


def _neighbours(y):
    u = U[y.dtype]
    b = np.array([y]).view(u)[0]
    return np.array([b - 1], u).view(y.dtype)[0], np.array([b + 1], u).view(y.dtype)[0]


def _is_correct_sqrt(x, y) -> bool:
    """y = sqrt(x) correctly rounded: x lies between the squares of the midpoints around y (sqrt
    of a p-bit value is never exactly a midpoint, so no tie rule is needed)."""
    lo, hi = _neighbours(y)
    fy = exact(y)
    m_lo = (fy + exact(lo)) / 2 if y > 0 else Fraction(0)
    m_hi = (fy + exact(hi)) / 2 if np.isfinite(hi) else fy * 2
    return m_lo * m_lo < exact(x) < m_hi * m_hi


def test_half_sqrt_is_correctly_rounded_for_every_half():
    x = ALL_HALVES[np.isfinite(ALL_HALVES) & (ALL_HALVES > 0)]
    y = _run(Sqrt, F16, x)
    assert all(_is_correct_sqrt(a, b) for a, b in zip(x, y, strict=True))


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 0x7F7F_FFFF), min_size=32, max_size=32))
def test_float_sqrt_is_correctly_rounded(raw):
    x = np.array(raw, np.uint32).view(np.float32)
    y = _run(Sqrt, F32, x)
    assert all(_is_correct_sqrt(a, b) for a, b in zip(x, y, strict=True))


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([F16, F32]), st.lists(st.integers(0, 2**32 - 1), min_size=32, max_size=32))
def test_reciprocal_is_ieee_division(dtype, raw):
    x = np.asarray(raw, np.uint64).astype(U[dtype]).view(dtype)
    x = x[np.isfinite(x) & (x != 0)]
    y = _run(Reciprocal, dtype, x)
    for a, b in zip(x, y, strict=True):
        assert bits(np.array([b]))[0] == bits(np.array([round_fraction(1 / exact(a), dtype)]))[0]


@pytest.mark.parametrize("name,f", [("exp", np.exp), ("ln", np.log), ("rsqrt", lambda v: 1 / np.sqrt(v))])
def test_no_half_result_lies_near_a_rounding_boundary(name, f):
    """float64 exp/log/rsqrt of every half lies at least 2^-40 (relative) from any half midpoint,
    so any libm within 2^-40 gives the correctly rounded half: the half results of Exp, Ln and
    Rsqrt are correctly rounded and the same on every host (measured: 2^-26 or more)."""
    x = ALL_HALVES[np.isfinite(ALL_HALVES)].astype(np.float64)
    with np.errstate(all="ignore"):
        y = f(x)
    y = y[np.isfinite(y) & (y != 0)]
    with np.errstate(over="ignore"):
        h = y.astype(np.float16)
    keep = np.isfinite(h) & (h != 0) & (h.astype(np.float64) != y)
    y, h = y[keep], h[keep]
    hb = h.view(np.uint16)
    hv = h.astype(np.float64)
    up, dn = (hb + np.uint16(1)).view(np.float16).astype(np.float64), (hb - np.uint16(1)).view(np.float16).astype(
        np.float64)
    dist = np.minimum(np.abs(y - (hv + up) / 2), np.abs(y - (hv + dn) / 2)) / np.abs(y)
    assert dist.min() > 2.0**-40


@pytest.mark.parametrize("fn,f", [(Exp, np.exp), (Ln, np.log), (Rsqrt, lambda v: 1 / np.sqrt(v))])
@pytest.mark.parametrize("dtype", [F16, F32])
def test_exp_ln_rsqrt_round_the_float64_value_once(fn, f, dtype):
    rng = np.random.default_rng(5)
    x = (rng.standard_normal(256) * 4).astype(dtype)
    x = np.abs(x) if fn is not Exp else x
    with np.errstate(all="ignore"):
        expected = f(x.astype(np.float64)).astype(dtype)
    np.testing.assert_array_equal(bits(_run(fn, dtype, x)), bits(expected))
    if dtype == F16:  # every finite half: once from float64 (a float32 step could double-round)
        every = ALL_HALVES[np.isfinite(ALL_HALVES)]
        with np.errstate(all="ignore"):
            ref = f(every.astype(np.float64)).astype(np.float16)
        ok = ~np.isnan(ref)
        got = _run(fn, dtype, every)
        np.testing.assert_array_equal(bits(got)[ok], bits(ref)[ok])
        assert (bits(got)[~ok] == DEFAULT[F16]).all()


@pytest.mark.parametrize("dtype", [F16, F32])
def test_special_values(dtype):
    inf, d = np.inf, DEFAULT[dtype]
    tiny = np.finfo(dtype).smallest_subnormal
    table = {  # fn: [(x, expected)]
        Exp: [(-inf, 0.0), (inf, inf), (0.0, 1.0), (-0.0, 1.0), (100.0, inf), (-1e4, 0.0)],
        Ln: [(0.0, -inf), (-0.0, -inf), (inf, inf), (1.0, 0.0), (-1.0, "nan"), (-inf, "nan")],
        Sqrt: [(-0.0, -0.0), (0.0, 0.0), (inf, inf), (-tiny, "nan"), (-inf, "nan"), (4.0, 2.0)],
        Rsqrt: [(0.0, inf), (-0.0, -inf), (inf, 0.0), (-1.0, "nan"), (4.0, 0.5)],
        Reciprocal: [(0.0, inf), (-0.0, -inf), (inf, 0.0), (-inf, -0.0), (-4.0, -0.25)],
        Abs: [(-0.0, 0.0), (-inf, inf), (-tiny, tiny), (3.0, 3.0)],
        Relu: [(-0.0, 0.0), (-inf, 0.0), (-tiny, 0.0), (tiny, tiny), (inf, inf)],
    }
    for fn, rows in table.items():
        x = np.array([r[0] for r in rows], dtype)
        got = bits(_run(fn, dtype, x))
        for g, (xv, e) in zip(got, rows, strict=True):
            want = d if isinstance(e, str) else int(np.array(e, dtype).view(U[dtype]))
            assert g == want, (fn.__name__, xv, hex(g), hex(want))


@pytest.mark.parametrize("dtype", [F16, F32])
def test_a_nan_operand_comes_through_quieted(dtype):
    u, q = U[dtype], QUIET[dtype]
    neg_snan = np.array([(DEFAULT[dtype] & ~q) | 1 | (1 << (8 * np.dtype(dtype).itemsize - 1))], u)
    x = neg_snan.view(dtype)
    for fn in (Exp, Ln, Sqrt, Rsqrt, Reciprocal, Relu):
        assert bits(_run(fn, dtype, x))[0] == int(neg_snan[0]) | q, fn.__name__
    sign = 1 << (8 * np.dtype(dtype).itemsize - 1)
    assert bits(_run(Abs, dtype, x))[0] == (int(neg_snan[0]) | q) & ~sign  # Abs: quieted, sign cleared


def test_relu_int32_and_not_16_bit():
    a = np.array([-5, 0, 7, np.iinfo(np.int32).min], np.int32)
    np.testing.assert_array_equal(_run(Relu, np.int32, a), [0, 0, 7, 0])
    for t in (np.int16, np.uint16):
        v = np.array([0, 1, 0x7FFF, 0x8000, 0xFFFF], np.uint16).view(t)
        np.testing.assert_array_equal(_run(Not, t, v), ~v)


@pytest.mark.parametrize("fn,dtype", [(Abs, np.int16), (Abs, np.int32), (Exp, np.int32), (Relu, np.int16),
                                      (Not, np.int32), (Not, F16), (Sqrt, np.uint16), (Ln, np.int8)])
def test_types_the_instruction_does_not_take_are_refused(fn, dtype):
    ub = Ub(make_core())
    x = ub.buffer(dtype, 16, np.zeros(16, dtype))
    with pytest.raises(EmulatorError, match=fn.__name__):
        fn(x, x, 16)
    with pytest.raises(EmulatorError, match=fn.__name__):
        fn(ub.buffer(F32, 16, np.zeros(16, F32)), ub.buffer(F16, 16, np.zeros(16, F16)), 16)


def test_in_place_past_the_buffer_and_unwritten():
    core = make_core()
    ub = Ub(core)
    x = ub.buffer(F32, 64, np.full(64, 4.0, F32))
    Sqrt(x, x, 64)
    assert (x.numpy(64) == 2).all() and kinds(core) == []
    Exp(x, x, 0)
    assert core.counters.instructions == {"Sqrt": 1}
    Exp(x, x, 65)
    assert kinds(core) == ["local_tensor_overflow"]
    fresh, out = ub.buffer(F16, 16), ub.buffer(F16, 16)
    Ln(out, fresh, 16)
    assert kinds(core)[-1] == "local_tensor_overflow"
    copy_out(out, 16)
    assert kinds(core)[-1] == "ub_read_before_write"
