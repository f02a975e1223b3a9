"""The high-level math APIs (math_adv.py), Axpy / MulAddDst (ternary.py), SetDeqScale and the
int32 -> half Cast, Cast's and Duplicate's mask/repeat forms, against numpy references computed
step by step as AscendC's A2 implementations compute them (each step rounded to its type)."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from opsnn.ascendc import Cast, EmulatorError
from opsnn.ascendc.arith import Duplicate
from opsnn.ascendc.deq import SetDeqScale
from opsnn.ascendc.math_adv import (
    Acos,
    Asin,
    Atan,
    Ceil,
    Cos,
    Cosh,
    Erf,
    ExpHighLevel,
    Floor,
    Log,
    Log2,
    Log10,
    Power,
    PowerAlgo,
    Round,
    Sign,
    Sin,
    Sinh,
    Tan,
    Tanh,
    Trunc,
)
from opsnn.ascendc.repeat import UnaryRepeatParams
from opsnn.ascendc.rounding import RoundMode
from opsnn.ascendc.ternary import Axpy, MulAddDst
from opsnn.dtypes import bfloat16

from .helpers import Ub, bits, copy_out, kinds, make_core

F16, F32 = np.dtype(np.float16), np.dtype(np.float32)
SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.5, -2.5, 3.5, np.inf, -np.inf, np.nan, 1e-30, 9.0, -9.0, 100.0]


def inputs(t, n=200, seed=0):
    x = (np.random.default_rng(seed).standard_normal(n) * 4).astype(t)
    x[:len(SPECIAL)] = np.array(SPECIAL).astype(t)
    return x


def run_unary(api, x, *extra):
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(x.dtype, x.size, x)
    dst = ub.buffer(x.dtype, x.size + 8, np.full(x.size + 8, 3, x.dtype))
    api(dst, src, *extra, x.size)
    return core, dst.numpy(x.size + 8)


def same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return (bits(a) == bits(b)) | (np.isnan(a.astype(np.float64)) & np.isnan(b.astype(np.float64)))


def f32(x):
    return x.astype(np.float32)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_sign(dtype):
    x = inputs(np.dtype(dtype))
    core, got = run_unary(Sign, x)
    with np.errstate(invalid="ignore"):
        want = np.where(x > 0, 1.0, np.where(x < 0, -1.0, 0.0)).astype(x.dtype)  # NaN and -0 give +0
    assert same(got[:x.size], want).all() and (got[x.size:] == 3).all()
    assert bits(got[[1, 11]]).tolist() == [0, 0]  # -0 and NaN -> +0, AscendC's example


def tanh_steps(x32):
    """AscendC's float Tanh: clip to [-8.8, 8.8], e = exp(2x) (float64 rounded once), (e-1)/(e+1)."""
    with np.errstate(all="ignore"):
        c = np.maximum(np.minimum(x32, np.float32(8.8)), np.float32(-8.8))
        e = np.exp((c * np.float32(2)).astype(np.float64)).astype(np.float32)
        return ((e + np.float32(-1)) / (e + np.float32(1))).astype(np.float32)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_tanh_is_ascendcs_formula(dtype):
    t = np.dtype(dtype)
    x = inputs(t)
    tmp = Ub(make_core())  # a sharedTmpBuffer is accepted
    core, got = run_unary(Tanh, x)
    want = tanh_steps(f32(x)).astype(t)
    assert same(got[:x.size], want).all()
    assert np.isnan(got[11])  # NaN passes the clip
    assert tmp is not None


def test_log_family():
    x = np.abs(inputs(F32)) + np.float32(0.01)
    x[0] = 0.0
    _, ln = run_unary(Log, x)
    with np.errstate(all="ignore"):
        assert same(ln[:x.size], np.log(x.astype(np.float64)).astype(F32)).all()
        _, l2 = run_unary(Log2, x)
        want2 = (np.log(x.astype(np.float64)).astype(F32) * np.float32(1.4426950408889634)).astype(F32)
        assert same(l2[:x.size], want2).all()
        h = x.astype(F16)
        _, l10 = run_unary(Log10, h)  # in half: Ln rounded to half, times half(1/ln 10)
        want10 = (np.log(h.astype(np.float64)).astype(F16) * np.float16(0.43429448190325176)).astype(F16)
        assert same(l10[:h.size], want10).all()
        _, l2h = run_unary(Log2, h)  # in float for half
        want2h = (np.log(f32(h).astype(np.float64)).astype(F32) * np.float32(1.4426950408889634)).astype(F16)
        assert same(l2h[:h.size], want2h).all()


@pytest.mark.parametrize("api, fn", [(Floor, np.floor), (Ceil, np.ceil), (Trunc, np.trunc), (Round, np.rint)])
@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_integral_roundings_keep_zero_signs(api, fn, dtype):
    x = inputs(np.dtype(dtype))
    _, got = run_unary(api, x)
    assert same(got[:x.size], fn(x)).all()  # Round: ties to even (2.5 -> 2, 3.5 -> 4)
    if api is Round:
        assert list(got[[6, 7, 8]]) == [2.0, -2.0, 4.0]


def power_steps(x, y):
    """AscendC's float Power: exp(y * ln|x|) step by step, then its ones, sign and NaN rules."""
    x, y = np.broadcast_arrays(f32(x), f32(y))
    with np.errstate(all="ignore"):
        ln = np.log(np.abs(x).astype(np.float64)).astype(F32)
        out = np.exp((y * ln).astype(np.float64)).astype(F32)
        integer = np.isfinite(y) & (np.abs(y - np.rint(y)) < 1e-8)
        odd = integer & (np.fmod(np.rint(np.abs(y)), 2) == 1)
        out = np.where(odd & np.signbit(x), -out, out)
        out = np.where((y == 0) | (x == 1) | ((x == -1) & np.isinf(y)), np.float32(1), out)
        bad = ~(np.isinf(y) | integer) & (x < 0) & (x != -np.inf)
    return np.where(bad, np.float32(np.nan), out).astype(F32)


def test_power_forms():
    core = make_core()
    ub = Ub(core)
    x = np.array([2.0, -2.0, -2.0, 0.0, -1.0, 1.0, np.nan, -8.0, 3.0, 0.5], F32)
    y = np.array([3.0, 3.0, 0.5, -1.0, np.inf, np.nan, 0.0, 1.0 / 3, 2.0, -2.0], F32)
    a, b, d = ub.buffer(F32, 10, x), ub.buffer(F32, 10, y), ub.buffer(F32, 16)
    Power(d, a, b, 10)
    assert same(d.numpy(10), power_steps(x, y)).all()
    assert list(d.numpy(2)) == [8.0, -8.0] and np.isnan(d.numpy(3)[2])  # (-2)**3; (-2)**0.5 is NaN
    Power(d, a, np.float32(2.0), ub.buffer(np.uint8, 256), 10)  # tensor ** scalar with a tmp buffer
    assert same(d.numpy(10), power_steps(x, np.float32(2.0))).all()
    Power(d, np.float32(2.0), b, 10)  # scalar ** tensor
    assert same(d.numpy(10), power_steps(np.float32(2.0), y)).all()
    Power(d, a, np.float32(0.5), 10, PowerAlgo.DOUBLE_FLOAT_TECH)
    with np.errstate(all="ignore"):
        assert same(d.numpy(10), np.power(x.astype(np.float64), 0.5).astype(F32)).all()
    with pytest.raises(EmulatorError, match="at least one a LocalTensor"):
        Power(d, 2.0, 3.0, 10)


def test_erf_cos_exp_rounded_once():
    x = inputs(F32)
    _, e = run_unary(Erf, x)
    want = np.array([math.erf(v) for v in x.astype(np.float64)]).astype(F32)
    assert same(e[:x.size], want).all()
    _, c = run_unary(Cos, x)
    with np.errstate(invalid="ignore", over="ignore"):
        assert same(c[:x.size], np.cos(x.astype(np.float64)).astype(F32)).all()
        _, ex = run_unary(ExpHighLevel, x)
        assert same(ex[:x.size], np.exp(x.astype(np.float64)).astype(F32)).all()  # exp(100): +inf


@pytest.mark.parametrize("api, fn", [(Sin, np.sin), (Tan, np.tan), (Asin, np.arcsin), (Acos, np.arccos),
                                     (Atan, np.arctan), (Sinh, np.sinh), (Cosh, np.cosh)])
@pytest.mark.parametrize("dtype", [F16, F32])
def test_trigonometric_and_hyperbolic_rounded_once(api, fn, dtype):
    """Tan, Asin, Acos, Atan, Sinh, Cosh: float64 rounded once to T (AscendC's undocumented
    polynomials are modelled by the correctly rounded value); NaN where the function is undefined."""
    x = np.concatenate([inputs(dtype), np.array([0.25, -0.75, 1.5, 1e-4], dtype)])
    _, got = run_unary(api, x)
    with np.errstate(all="ignore"):
        want = fn(x.astype(np.float64)).astype(dtype)
    assert same(got[:x.size], want).all()


@pytest.mark.parametrize("dtype", [np.int32, np.int16, np.int8, np.uint8])
def test_integer_power_is_fast_power_in_the_types_wrapping_arithmetic(dtype):
    """x ** |y| modulo 2**bits; y == 0 gives 1; a negative y: trunc(1 / x ** |y|) as float, 0 where
    x ** |y| is 0 (AscendC's integer Power steps)."""
    t = np.dtype(dtype)
    core = make_core()
    ub = Ub(core)
    info = np.iinfo(t)
    x = np.array([2, 3, -2, 1, -1, 0, 5, 7, 2, 3, 0, 2], np.int64).clip(info.min, info.max).astype(t)
    y = np.array([10, 20, 3, -5, -3, -1, -2, 0, 31, 5, 0, 7], np.int64).clip(info.min, info.max).astype(t)
    a, b, d = ub.buffer(t, 32, np.resize(x, 32)), ub.buffer(t, 32, np.resize(y, 32)), ub.buffer(t, 32)
    Power(d, a, b, x.size)
    def wrapped(v: int) -> int:
        return np.array(v % (1 << 8 * t.itemsize), np.uint64).astype(np.dtype(f"u{t.itemsize}")).view(t).item()

    want = []
    for xv, yv in zip(x.tolist(), y.tolist(), strict=True):
        p = wrapped(pow(xv, abs(yv)))
        want.append(p if yv >= 0 else (0 if p == 0 else int(math.trunc(1.0 / p))))
    assert d.numpy(x.size).tolist() == want
    if t == np.int32:
        assert want[:3] == [1024, 3 ** 20 - 2 ** 32, -8] and want[3:6] == [1, -1, 0]
    Power(d, a, t.type(2), x.size)  # tensor ** scalar
    assert d.numpy(x.size).tolist() == [wrapped(v * v) for v in x.tolist()]
    with pytest.raises(EmulatorError, match="8 to 32 bits"):
        Power(ub.buffer(np.int64, 4), ub.buffer(np.int64, 4), np.int64(2), 4)


def test_duplicate_fills_bfloat16():
    """A2's Duplicate takes bfloat16_t (AscendC's type list): the scalar converted to nearest-even."""
    core = make_core()
    ub = Ub(core)
    d = ub.buffer(bfloat16, 32)
    Duplicate(d, np.float32(3.14159), 20)
    assert bits(d.numpy(20)).tolist() == [0x4049] * 20  # 3.14159 -> 3.140625
    Duplicate(d, np.float32(-1.0), [0xF, 0], 1, 1, 8)
    assert bits(d.numpy(5)).tolist() == [0xBF80] * 4 + [0x4049]


def test_high_level_apis_leave_normal_mode_and_a_full_mask():
    core = make_core()
    ub = Ub(core)
    x = ub.buffer(F32, 64, np.ones(64, F32))
    from opsnn.ascendc.repeat import SetMaskCount, SetVectorMask
    SetMaskCount(core)
    SetVectorMask(core, 0, 10)
    Sign(x, x, 64)
    assert not core.vector_mask.counter and core.vector_mask.low == (1 << 64) - 1


@pytest.mark.parametrize("dst_t, src_t", [(F32, F32), (F16, F16), (F32, F16)])
def test_axpy_count_form_rounds_product_then_sum(dst_t, src_t):
    core = make_core()
    ub = Ub(core)
    x = inputs(src_t, 100, 1)
    acc = inputs(dst_t, 100, 2)
    src, dst = ub.buffer(src_t, 100, x), ub.buffer(dst_t, 100, acc)
    Axpy(dst, src, 1.7, 100)
    with np.errstate(all="ignore"):
        prod = (x.astype(dst_t) * np.asarray(1.7).astype(src_t).astype(dst_t)).astype(dst_t)
        want = (prod + acc).astype(dst_t)
    assert same(dst.numpy(100), want).all()
    copy_out(dst, 100)
    assert kinds(core) == []


def test_axpy_and_mul_add_dst_repeat_forms_half_into_float():
    core = make_core()
    ub = Ub(core)
    x = np.arange(256).astype(F16)
    src, dst = ub.buffer(F16, 256, x), ub.buffer(F32, 256, np.ones(256, F32))
    Axpy(dst, src, 2.0, 10, 2, UnaryRepeatParams(1, 1, 8, 4))  # 64 a repeat; src at 128 bytes a repeat
    got = dst.numpy(256)
    assert list(got[[0, 9, 10, 64, 73]]) == [1.0, 19.0, 1.0, 129.0, 147.0]
    from opsnn.ascendc.repeat import BinaryRepeatParams
    MulAddDst(dst, src, src, [1 << 63, 0], 1, BinaryRepeatParams(1, 1, 1, 8, 4, 4))
    assert dst.numpy(64)[63] == 1.0 + 63.0 * 63  # lane 63 was outside Axpy's 10 lanes
    with pytest.raises(EmulatorError, match="half -> float"):
        Axpy(src, dst, 1.0, 4)


def test_deq_cast_scales_by_deqscale_in_both_forms():
    core = make_core()
    ub = Ub(core)
    v = np.array([0, 1, -3, 70000, 2**31 - 1, -(2**31), 2049, 12345] * 8, np.int32)
    src, dst = ub.buffer(np.int32, 64, v), ub.buffer(F16, 64)
    with pytest.raises(EmulatorError, match="SetDeqScale sets it"):
        Cast(dst, src, RoundMode.CAST_NONE, 64)
    SetDeqScale(core, np.float16(0.5))
    Cast(dst, src, RoundMode.CAST_NONE, 64)
    with np.errstate(over="ignore"):
        want = (v.astype(np.float64) * 0.5).astype(F16)
    assert same(dst.numpy(64), want).all()
    SetDeqScale(core, 1.0)
    Cast(dst, src, RoundMode.CAST_NONE, 8, 1, UnaryRepeatParams(1, 1, 4, 8))
    with np.errstate(over="ignore"):
        assert same(dst.numpy(8), v[:8].astype(np.float64).astype(F16)).all()
    SetDeqScale(core, 1.0, 3, True)
    with pytest.raises(EmulatorError, match="CastDequant"):
        Cast(dst, src, RoundMode.CAST_NONE, 8)


def test_cast_repeat_form_masks_and_strides():
    core = make_core()
    ub = Ub(core)
    x = (np.arange(128) / 3 + 1000).astype(F32)  # not halves: the round mode shows
    src, dst = ub.buffer(F32, 128, x), ub.buffer(F16, 128, np.full(128, -1, F16))
    Cast(dst, src, RoundMode.CAST_RINT, 128, 2, UnaryRepeatParams(1, 1, 4, 8))  # mask 128 through half: 64 lanes
    assert same(dst.numpy(128), x.astype(F16)).all()
    Cast(dst, src, RoundMode.CAST_FLOOR, [0b10, 0], 1, UnaryRepeatParams(1, 1, 4, 8))  # lane 1 only
    down = dst.numpy(2)
    assert down[0] == x.astype(F16)[0] and down[1] <= x[1] < down[1] + np.float16(0.5)
    assert bits(down[1:2])[0] == bits(x[1:2].astype(F16))[0] - 1  # floor: one half below nearest
    with pytest.raises(EmulatorError, match="does not take"):
        Cast(src, src, RoundMode.CAST_ODD, 1, 1, UnaryRepeatParams())  # float -> float: r, f, c, a, z only


def test_duplicate_repeat_form():
    core = make_core()
    ub = Ub(core)
    d = ub.buffer(np.int16, 512, np.zeros(512, np.int16))
    Duplicate(d, 7, 20, 2, 2, 16)  # 20 lanes, blocks 2 apart, repeats 16 blocks apart
    got = d.numpy(512)
    assert list(np.flatnonzero(got)) == [*range(16), *range(32, 36), *range(256, 272), *range(288, 292)]
    Duplicate(d, 9, [1, 0], 1, 1, 8)
    assert got[0] == 7 and d.numpy(1)[0] == 9


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(-20, 20, width=32), min_size=1, max_size=300))
def test_tanh_hypothesis(values):
    x = np.array(values, F32)
    _, got = run_unary(Tanh, x)
    assert same(got[:x.size], tanh_steps(x)).all()


@pytest.mark.parametrize("dtype", [F16, F32])
def test_fused_mul_add_rounds_the_product_then_the_sum(dtype):
    """FusedMulAdd: dst = src0 * dst + src1, the product rounded to T, then the sum."""
    from opsnn.ascendc import FusedMulAdd
    core = make_core()
    ub = Ub(core)
    rng = np.random.default_rng(5)
    a, d0, b = (rng.standard_normal(40).astype(dtype) for _ in range(3))
    s0, s1, d = ub.buffer(dtype, 40, a), ub.buffer(dtype, 40, b), ub.buffer(dtype, 40, d0)
    FusedMulAdd(d, s0, s1, 40)
    product = (a.astype(np.float64) * d0).astype(dtype)
    assert same(d.numpy(40), (product.astype(np.float64) + b).astype(dtype)).all()
    with pytest.raises(EmulatorError, match="FusedMulAdd on int32"):
        FusedMulAdd(ub.buffer(np.int32, 8), ub.buffer(np.int32, 8, np.ones(8, np.int32)),
                    ub.buffer(np.int32, 8, np.ones(8, np.int32)), 8)
