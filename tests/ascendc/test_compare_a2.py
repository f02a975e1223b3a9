"""The Atlas A2 compares: Compares (every CMPMODE, half/float, int32 EQ) and the tensor-tensor
Compare on an ascend910b core (the 256-byte repeat rule, NaN false for every mode), beside the
Ascend950 Compare on an ascend950 core (any count, NE unordered)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from opsnn.ascendc import CMPMODE, Compare, Compares, EmulatorError
from opsnn.platform import Platform

from .helpers import Ub, copy_out, kinds, make_core

A2 = Platform.custom(64 * 1024, 4)  # family ascend910b
ARCH35 = Platform.custom(64 * 1024, 4, "ascend950")
OPS = {CMPMODE.LT: np.less, CMPMODE.GT: np.greater, CMPMODE.EQ: np.equal, CMPMODE.LE: np.less_equal,
       CMPMODE.GE: np.greater_equal, CMPMODE.NE: np.not_equal}
SPECIAL = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 1.5, 65504.0, 6e-8, -6e-8]


def _tensor_compare(a, b, mode, count=None, platform=A2, mask_init=0xAA):
    core = make_core(platform=platform)
    ub = Ub(core)
    n = a.size
    ta, tb = ub.buffer(a.dtype, n, a), ub.buffer(b.dtype, n, b)
    nbytes = max(-(-n // 8), 32)
    m = ub.buffer(np.uint8, nbytes, np.full(nbytes, mask_init, np.uint8))
    Compare(m, ta, tb, mode, n if count is None else count)
    return np.unpackbits(m.numpy(), bitorder="little").astype(bool), core


def _pairs(dtype, n):
    """Every SPECIAL against every SPECIAL, then random values with equal pairs, n in all."""
    s = np.array(SPECIAL, dtype=np.float64)
    a, b = np.repeat(s, s.size), np.tile(s, s.size)
    rng = np.random.default_rng(3)
    r = rng.integers(-4, 5, (2, n)).astype(np.float64) / 2
    a = np.concatenate([a, r[0]])[:n].astype(dtype)
    b = np.concatenate([b, r[1]])[:n].astype(dtype)
    return a, b


@pytest.mark.parametrize("mode", list(CMPMODE), ids=lambda m: m.name)
@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_a2_compare_every_mode_nan_false(mode, dtype):
    n = 512  # whole repeats for both types
    a, b = _pairs(dtype, n)
    got, core = _tensor_compare(a, b, mode)
    nan = np.isnan(a) | np.isnan(b)
    want = OPS[mode](a, b) & ~nan
    np.testing.assert_array_equal(got[:n], want)
    assert not got[:n][nan].any()  # NE too: the A2 unit's ordered compare
    assert kinds(core) == []


@pytest.mark.parametrize("mode", list(CMPMODE), ids=lambda m: m.name)
@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_compares_every_mode_against_special_scalars(mode, dtype):
    x = np.resize(np.array(SPECIAL, dtype=dtype), 256)
    for scalar in (0.0, -0.0, 1.0, np.inf, -np.inf, np.nan):
        core = make_core()
        ub = Ub(core)
        src = ub.buffer(dtype, 256, x)
        m = ub.buffer(np.uint8, 32, np.zeros(32, np.uint8))
        Compares(m, src, dtype(scalar), mode, 256)
        got = np.unpackbits(m.numpy(), bitorder="little").astype(bool)
        want = OPS[mode](x, dtype(scalar)) & ~np.isnan(x) & (not np.isnan(scalar))
        np.testing.assert_array_equal(got, want, err_msg=f"{mode.name} {scalar}")


def test_signed_zeros_are_equal():
    a = np.array([0.0, -0.0, -0.0, 0.0] * 16, np.float32)
    b = np.array([-0.0, 0.0, -0.0, 0.0] * 16, np.float32)
    got, _ = _tensor_compare(a, b, CMPMODE.EQ)
    assert got[:64].all()
    got, _ = _tensor_compare(a, b, CMPMODE.LT)
    assert not got[:64].any()


@given(st.integers(1, 700), st.sampled_from([np.float16, np.float32]))
@settings(max_examples=40, deadline=None)
def test_a2_compare_only_whole_repeats(count, dtype):
    """The tail past the last whole 256-byte repeat keeps its old mask bits (0xAA here), reported."""
    n = 704
    a = np.ones(n, dtype)
    b = np.zeros(n, dtype)
    got, core = _tensor_compare(a, b, CMPMODE.GT, count=count)
    per = 256 // np.dtype(dtype).itemsize
    done = count // per * per
    assert got[:done].all()
    np.testing.assert_array_equal(got[done:n], np.unpackbits(np.full(n // 8, 0xAA, np.uint8),
                                                             bitorder="little").astype(bool)[done:n])
    assert kinds(core) == ([] if done == count else ["compare_count_unaligned"])


def test_int32_eq_only():
    a = np.arange(64, dtype=np.int32)
    b = np.where(a % 3 == 0, a, -1).astype(np.int32)
    got, _ = _tensor_compare(a, b, CMPMODE.EQ)
    np.testing.assert_array_equal(got[:64], a % 3 == 0)
    with pytest.raises(EmulatorError, match=r"Compare on int32 with LT is not supported on Atlas A2 \(half or float"):
        _tensor_compare(a, b, CMPMODE.LT)
    core = make_core()
    ub = Ub(core)
    with pytest.raises(EmulatorError, match="Compares on int32 with GE"):
        Compares(ub.buffer(np.uint8, 32), ub.buffer(np.int32, 64, a), 3, CMPMODE.GE, 64)


@pytest.mark.parametrize("dtype", [np.int16, np.int8, np.uint8, np.float64])
def test_other_types_are_refused(dtype):
    a = np.zeros(128, dtype)
    with pytest.raises(EmulatorError, match="Compare on"):
        _tensor_compare(a, a, CMPMODE.EQ)


def test_wrong_mode_and_operands_are_refused():
    a = np.zeros(64, np.float32)
    with pytest.raises(EmulatorError, match="Compare mode must be a CMPMODE"):
        _tensor_compare(a, a, "LT")
    with pytest.raises(EmulatorError, match="Compare on Atlas A2 takes src1 as a LocalTensor"):
        _tensor_compare(a, a.astype(np.float16), CMPMODE.LT)
    core = make_core()
    ub = Ub(core)
    x = ub.buffer(np.float32, 64, a)
    with pytest.raises(EmulatorError, match=r"a scalar: Compares"):
        Compare(ub.buffer(np.uint8, 32), x, np.float32(1), CMPMODE.LT, 64)


def test_sanitizer_sees_overflow_and_read_before_write():
    core = make_core()
    ub = Ub(core)
    a = ub.buffer(np.float32, 512, np.ones(512, np.float32))
    b = ub.buffer(np.float32, 512)  # never written
    m = ub.buffer(np.uint8, 32)  # 512 elements need 64 mask bytes
    Compare(m, a, b, CMPMODE.GE, 512)
    assert kinds(core) == ["local_tensor_overflow"]
    copy_out(m, 32)  # the mask bits computed from b's undefined values, used
    assert sorted(kinds(core)) == ["local_tensor_overflow", "ub_read_before_write"]


def test_arch35_compare_keeps_its_rules_on_an_ascend950_core():
    a = np.array([np.nan, 1.0, 2.0], np.float32)
    got, core = _tensor_compare(a, a, CMPMODE.NE, platform=ARCH35)
    assert list(got[:3]) == [True, False, False]  # unordered NE; 3 elements: no repeat rule
    assert kinds(core) == []
    got, core = _tensor_compare(a, a, CMPMODE.NE)  # the same call on an A2 core
    assert list(got[:3]) == [False, True, False]  # nothing compared: the old bits (0xAA)
    assert kinds(core) == ["compare_count_unaligned"]
