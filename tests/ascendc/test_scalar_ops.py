"""Adds Muls Maxs Mins LeakyRelu ShiftLeft ShiftRight (count form): the scalar converted to the
tensor's type first, the binary rules after, shifts, refused types and shift counts."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from opsnn.ascendc import Adds, EmulatorError, LeakyRelu, Maxs, Mins, Muls, ShiftLeft, ShiftRight

from .exact import exact, round_fraction
from .helpers import Ub, bits, copy_out, kinds, make_core

F16, F32 = np.dtype(np.float16), np.dtype(np.float32)


def _run(fn, dtype, a, scalar):
    ub = Ub(make_core())
    a = np.asarray(a, dtype)
    x, out = ub.buffer(dtype, a.size, a), ub.buffer(dtype, a.size)
    fn(out, x, scalar, a.size)
    return out.numpy(a.size)


def test_the_scalar_is_rounded_to_the_tensor_type_first():
    # 0.1 as a half is 0.0999755859375: 0.5 * 0.1 shows it.
    got = _run(Muls, F16, [0.5, 1.0], 0.1)
    np.testing.assert_array_equal(bits(got), bits(np.array([np.float16(0.1) / 2, np.float16(0.1)], F16)))
    # 2^-11 + 2^-22 + 2^-40 rounds straight to a half (up, 2^-11 + 2^-21); through float32 it would
    # lose 2^-40 first and tie down to 2^-11
    assert _run(Adds, F16, [0.0], 2.0**-11 + 2.0**-22 + 2.0**-40)[0] == 2.0**-11 + 2.0**-21
    np.testing.assert_array_equal(_run(Adds, np.int32, [1, -1], 2.9), [3, 1])  # truncated, as in C++
    np.testing.assert_array_equal(_run(Adds, np.int16, [32767], 1), [-32768])  # wraps


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([F16, F32]), st.lists(st.integers(0, 2**32 - 1), min_size=16, max_size=16),
       st.integers(0, 2**32 - 1))
def test_adds_and_muls_are_correctly_rounded(dtype, raw, raw_scalar):
    u = np.uint16 if dtype == F16 else np.uint32
    a = np.asarray(raw, np.uint64).astype(u).view(dtype)
    s = np.array([raw_scalar], np.uint64).astype(u).view(dtype)[0]
    a = a[np.isfinite(a)]
    if not np.isfinite(s) or a.size == 0:
        return
    for fn, op in ((Adds, lambda x, y: x + y), (Muls, lambda x, y: x * y)):
        got = _run(fn, dtype, a, s)
        for x, g in zip(a, got, strict=True):
            with np.errstate(all="ignore"):
                zero_sign = bool(np.signbit(op(np.float64(x), np.float64(s))))
            r = round_fraction(op(exact(x), exact(s)), dtype, negative_zero=zero_sign)
            assert bits(np.array([g]))[0] == bits(np.array([r]))[0]


@pytest.mark.parametrize("dtype", [F16, F32])
def test_nan_rules_with_a_scalar(dtype):
    u = np.uint16 if dtype == F16 else np.uint32
    d, s = (0x7E00, 0x8000) if dtype == F16 else (0x7FC0_0000, 0x8000_0000)
    assert bits(_run(Muls, dtype, [-np.inf, np.inf], 0.0)).tolist() == [d | s, d]
    assert bits(_run(Adds, dtype, [-np.inf], np.inf))[0] == d
    nan_scalar = np.array([d | 7], u).view(dtype)[0]
    assert (bits(_run(Adds, dtype, [1.0, 2.0], nan_scalar)) == (d | 7)).all()
    assert (bits(_run(Maxs, dtype, [1.0, np.nan], 0.0)) == [0x3C00 if dtype == F16 else 0x3F80_0000, d]).all()
    np.testing.assert_array_equal(bits(_run(Mins, dtype, [0.0, -0.0, 3], -0.0)),
                                  bits(np.array([-0.0, -0.0, -0.0], dtype)))
    np.testing.assert_array_equal(bits(_run(Maxs, dtype, [0.0, -0.0, -3], -0.0)),
                                  bits(np.array([0.0, -0.0, -0.0], dtype)))


@pytest.mark.parametrize("dtype", [np.int16, np.int32])
def test_integer_maxs_mins_muls(dtype):
    a = np.array([-5, 0, 7, np.iinfo(dtype).max], dtype)
    np.testing.assert_array_equal(_run(Maxs, dtype, a, 1), np.maximum(a, 1))
    np.testing.assert_array_equal(_run(Mins, dtype, a, 1), np.minimum(a, 1))
    np.testing.assert_array_equal(_run(Muls, dtype, a, 3), (a.astype(np.int64) * 3).astype(dtype))


@pytest.mark.parametrize("dtype", [F16, F32])
def test_leaky_relu(dtype):
    x = np.array([2.0, -2.0, -0.0, 0.0, np.inf, -np.inf, -1e-3], dtype)
    got = _run(LeakyRelu, dtype, x, 0.25)
    expected = np.where(x >= 0, x, x * dtype.type(0.25)).astype(dtype)
    np.testing.assert_array_equal(bits(got), bits(expected))  # -0 stays -0
    d, s = (0x7E00, 0x8000) if dtype == F16 else (0x7FC0_0000, 0x8000_0000)
    assert bits(_run(LeakyRelu, dtype, [-np.inf, 3.0], 0.0)).tolist()[0] == d | s  # -inf * 0: Muls' -NaN
    assert _run(LeakyRelu, dtype, [3.0], np.nan)[0] == 3.0  # x >= 0 keeps x whatever the scalar
    assert bits(_run(LeakyRelu, dtype, [-3.0], np.nan))[0] == d


@pytest.mark.parametrize("dtype", [np.int16, np.uint16, np.int32, np.uint32])
def test_shifts(dtype):
    bits_n = 8 * np.dtype(dtype).itemsize
    a = np.array([1, 3, -8 if np.dtype(dtype).kind == "i" else 8, np.iinfo(dtype).max, np.iinfo(dtype).min],
                 dtype)
    for n in (0, 1, 5, bits_n - 1):
        wide = a.astype(np.int64)
        np.testing.assert_array_equal(_run(ShiftLeft, dtype, a, n), (wide << n).astype(np.uint64).astype(dtype))
        np.testing.assert_array_equal(_run(ShiftRight, dtype, a, n), (wide >> n).astype(dtype))
    assert _run(ShiftRight, dtype, [-8 if np.dtype(dtype).kind == "i" else 8], 1)[0] == \
        (-4 if np.dtype(dtype).kind == "i" else 4)  # arithmetic on signed types
    for n in (-1, bits_n):
        with pytest.raises(EmulatorError, match="Shift"):
            _run(ShiftLeft, dtype, a, n)


@pytest.mark.parametrize("fn,dtype", [(Adds, np.int8), (Muls, np.uint16), (Maxs, np.uint32),
                                      (LeakyRelu, np.int32), (ShiftLeft, F16), (ShiftRight, np.int8)])
def test_types_the_instruction_does_not_take_are_refused(fn, dtype):
    with pytest.raises(EmulatorError, match=fn.__name__):
        _run(fn, dtype, np.zeros(8), 1)


def test_aliasing_count_zero_overflow_and_unwritten():
    core = make_core()
    ub = Ub(core)
    x = ub.buffer(F32, 64, np.arange(64, dtype=F32))
    Adds(x, x, 1.0, 64)
    np.testing.assert_array_equal(x.numpy(64), np.arange(64, dtype=F32) + 1)
    Muls(x, x, 2.0, 0)
    assert core.counters.instructions == {"Adds": 1}
    Muls(x, x, 2.0, 80)
    assert kinds(core) == ["local_tensor_overflow"]
    ub.buffer(F32, 16)  # the 64 bytes the overflow wrote (written bytes now, whatever buffer lies there)
    fresh = ub.buffer(np.int16, 16)
    ShiftLeft(fresh, fresh, 1, 16)
    assert kinds(core)[-1] == "local_tensor_overflow"
    copy_out(fresh, 16)
    assert kinds(core)[-1] == "ub_read_before_write"


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_divs_with_the_scalar_on_either_side(dtype):
    """Ascend950's Divs: src / scalar and scalar / src, rounded as Div (0/0 NaN, x/0 inf)."""
    from opsnn.ascendc import Divs
    core = make_core()
    ub = Ub(core)
    x = np.array([1, -2, 3, 0, 0.5, np.inf, -0.0, 7], dtype)
    src, dst = ub.buffer(dtype, 8, x), ub.buffer(dtype, 8)
    Divs(dst, src, dtype(3.0), 8)
    with np.errstate(all="ignore"):
        assert list(bits(dst.numpy(8))) == list(bits((x.astype(np.float64) / 3.0).astype(dtype)))
        Divs(dst, dtype(2.0), src, 8)
        want = (2.0 / x.astype(np.float64)).astype(dtype)
    assert list(bits(dst.numpy(8))) == list(bits(want))  # 2/0 = inf, 2/-0 = -inf
    with pytest.raises(EmulatorError, match="Divs on int32"):
        Divs(ub.buffer(np.int32, 8), ub.buffer(np.int32, 8, np.ones(8, np.int32)), 2, 8)


def test_ascend950_arithmetic_takes_bfloat16_rounded_once():
    """On Ascend950 Add Sub Mul Max Min and Adds Muls Maxs Mins take bfloat16 (AscendC's lists),
    each the exact result rounded once to nearest even; Atlas A2 refuses it."""
    from opsnn.ascendc import Add, Mul, Sub
    from opsnn.dtypes import bfloat16
    from opsnn.platform import Platform
    core = make_core(platform=Platform.custom(64 * 1024, 4, "ascend950"))
    ub = Ub(core)
    rng = np.random.default_rng(3)
    a = (rng.standard_normal(64) * 100).astype(bfloat16)
    b = (rng.standard_normal(64) * 3).astype(bfloat16)
    x, y, d = ub.buffer(bfloat16, 64, a), ub.buffer(bfloat16, 64, b), ub.buffer(bfloat16, 64)
    wide_a, wide_b = a.astype(np.float64), b.astype(np.float64)
    for api, want in ((Add, wide_a + wide_b), (Sub, wide_a - wide_b), (Mul, wide_a * wide_b)):
        api(d, x, y, 64)
        assert list(bits(d.numpy(64))) == list(bits(want.astype(bfloat16))), api.__name__
    for api, want in ((Adds, wide_a + 1.5), (Muls, wide_a * 1.5), (Maxs, np.maximum(wide_a, 1.5)),
                      (Mins, np.minimum(wide_a, 1.5))):
        api(d, x, 1.5, 64)
        assert list(bits(d.numpy(64))) == list(bits(want.astype(bfloat16))), api.__name__
    a2 = make_core()
    u = Ub(a2)
    with pytest.raises(EmulatorError, match="Adds on bfloat16"):
        Adds(u.buffer(bfloat16, 16), u.buffer(bfloat16, 16, np.ones(16, bfloat16)), 1.0, 16)
