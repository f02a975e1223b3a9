"""The express lane (opsnn/backends/express.py) answers exactly as the general way, or declines."""
from __future__ import annotations

import math
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from opsnn.backends import express, fast
from opsnn.dtypes import bfloat16
from opsnn.engine import lanes

DTYPES = [np.dtype(t) for t in (np.uint8, np.int8, np.int16, np.int32, np.int64, np.float16, np.float32,
                                np.float64)] + [bfloat16]
SEMANTICS = ("torch", "ascend910b", "ascend950")
THRESHOLDS = [0.0, -0.0, 1.0, 0.5, -1.5, 1e-8, 3, 0, np.float32(0.25), math.inf, -math.inf, math.nan, 100]


def bits(a: np.ndarray) -> np.ndarray:
    return a.view(f"u{a.dtype.itemsize}") if a.dtype.itemsize in (1, 2, 4, 8) else a


def general(fn, *args, **kw):
    """The same call with the lane switched off (the general way's answer or its error)."""
    try:
        return fn(*args, backend="fast", **kw)
    except Exception as e:  # noqa: BLE001 - compared by type and message below
        return e


def same(got, expected):
    if isinstance(expected, Exception):
        assert isinstance(got, Exception) and type(got) is type(expected) and str(got) == str(expected)
    else:
        assert not isinstance(got, Exception), got
        assert got.dtype == expected.dtype and got.shape == expected.shape
        np.testing.assert_array_equal(bits(got), bits(expected))


def call(fn, *args, **kw):
    try:
        return fn(*args, **kw)
    except Exception as e:  # noqa: BLE001
        return e


def sample(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    n = math.prod(shape)
    raw = rng.integers(0, 2 ** (8 * dtype.itemsize), n, dtype=np.uint64).astype(f"u{dtype.itemsize}").view(dtype)
    plain = (rng.standard_normal(n) * 2).astype(dtype)
    return np.where(rng.random(n) < 0.3, raw, plain).reshape(shape)


@pytest.fixture
def lane_kind(monkeypatch):
    """The tests below on the C lane, with fresh memos (skipped where the C engine was not built)."""
    if fast.engine_lane("auto") is None:
        pytest.skip("the C lane was not built here")
    monkeypatch.setattr(express, "_BACKWARD", {})
    monkeypatch.setattr(express, "_FORWARD", {})
    return "c"


def test_the_lane_kind_is_the_one_asked_for(lane_kind):
    g = np.ones(10, np.float32)
    opsnn.threshold_backward(g, g, 0.5)
    lane = next(iter(express._BACKWARD.values()))
    assert type(lane).__name__ == "Lane"


# the fixture's memos and engine hold for every example, as they hold for every call of a process
ONE_LANE_KIND = [HealthCheck.function_scoped_fixture]


@settings(max_examples=150, deadline=None, suppress_health_check=ONE_LANE_KIND)
@given(st.sampled_from(DTYPES), st.sampled_from(SEMANTICS), st.sampled_from(THRESHOLDS),
       st.lists(st.integers(0, 5), max_size=4), st.integers(0, 2**32 - 1), st.booleans())
def test_backward_same_as_the_general_way(lane_kind, dtype, semantics, threshold, shape, seed, with_out):
    g, f = sample(dtype, shape, seed), sample(dtype, shape, seed + 1)
    expected = general(opsnn.threshold_backward, g, f, threshold, semantics=semantics)
    for _ in range(2):  # the second call hits the memo
        out = np.full(g.shape, 7, dtype) if with_out else None
        got = call(opsnn.threshold_backward, g, f, threshold, semantics=semantics, out=out)
        same(got, expected)
        if with_out and not isinstance(got, Exception):
            assert got is out


@settings(max_examples=100, deadline=None, suppress_health_check=ONE_LANE_KIND)
@given(st.sampled_from(DTYPES), st.sampled_from(THRESHOLDS), st.sampled_from([0.0, -0.0, 2, -3.5, math.nan]),
       st.lists(st.integers(0, 5), max_size=3), st.integers(0, 2**32 - 1))
def test_forward_same_as_the_general_way(lane_kind, dtype, threshold, value, shape, seed):
    x = sample(dtype, shape, seed)
    expected = general(opsnn.threshold, x, threshold, value)
    for _ in range(2):
        same(call(opsnn.threshold, x, threshold, value), expected)


def test_forward_keeps_the_sign_of_a_zero_value_apart():
    x = np.array([-1.0, 2.0], np.float32)
    assert math.copysign(1, opsnn.threshold(x, 0.5, 0.0)[0]) == 1
    assert math.copysign(1, opsnn.threshold(x, 0.5, -0.0)[0]) == -1
    assert math.copysign(1, opsnn.threshold(x, 0.5, 0.0)[0]) == 1


def test_lane_answers_every_layout_of_its_dtype_and_declines_the_rest(lane_kind):
    g = np.linspace(-2, 2, 24, dtype=np.float32).reshape(4, 6)
    sq = np.linspace(-2, 2, 16, dtype=np.float32).reshape(4, 4)
    layouts = [(g, g), (g.T, g.T), (g, g[0]), (g[:, :1], g), (g[::-1, ::2], g[:, ::-2]), (sq, sq.T), (sq.T, sq),
               (np.float32(1.5), g), (g, np.float32(0.75))]
    for a, b in layouts:  # same dtype: the C engine answers any layout (transposed, broadcast, reversed, 0-d)
        a, b = np.asarray(a), np.asarray(b)
        got = express.threshold_backward(a, b, 0.5, "torch", None)
        assert got is not None, (a.shape, a.strides, b.shape, b.strides)
        np.testing.assert_array_equal(got, np.where(b > 0.5, a, 0))
    assert express.threshold_backward(g, g.astype(np.float16), 0.5, "torch", None) is None  # mixed dtypes
    assert express.threshold_backward(g, g[:, :4], 0.5, "torch", None) is None       # shapes that do not broadcast
    assert express.threshold_backward(g, g, 0.5, "nonsense", None) is None           # the general way raises
    swapped = g.astype(g.dtype.newbyteorder())
    assert express.threshold_backward(swapped, swapped, 0.5, "torch", None) is None   # byte-swapped
    ro = np.empty_like(g)
    ro.flags.writeable = False
    assert express.threshold_backward(g, g, 0.5, "torch", ro) is None
    with pytest.raises(ValueError, match="read-only"):
        opsnn.threshold_backward(g, g, 0.5, out=ro)
    with pytest.raises(TypeError, match="dtype"):
        opsnn.threshold_backward(g, g, 0.5, out=np.empty(g.shape, np.float64))
    with pytest.raises(ValueError, match="shape"):
        opsnn.threshold_backward(g, g, 0.5, out=np.empty((6, 4), np.float32))


def test_lane_declines_arguments_its_memos_cannot_hold(lane_kind):
    """Unhashable scalars and names (lists, arrays, a 0-d array) go the general way, which checks them."""
    g = np.linspace(-2, 2, 24, dtype=np.float32)
    for bad in ([0.5], np.array([0.5, 1.0]), np.array(0.5)):
        assert express.threshold_backward(g, g, bad, "torch", None) is None
        assert express.threshold(g, bad, 0.0, "torch", None) is None
        assert express.threshold(g, 0.5, bad, "torch", None) is None          # an array `value` meets `value == 0`
    assert express.threshold_backward(g, g, 0.5, ["torch"], None) is None
    assert express.threshold(g, 0.5, 1j, "torch", None) is None                # complex: math.copysign refuses
    assert express.threshold(g, 0.5, 0j, "torch", None) is None
    assert express.threshold_backward(g, g, 0.5, "torch", None) is not None     # the common call is still answered
    assert express.threshold(g, 0.5, 0.0, "torch", None) is not None


def test_ascend_rank_limit_still_raises_after_a_memo_hit(lane_kind):
    small = np.ones((2, 2), np.float32)
    opsnn.threshold_backward(small, small, 0.5, semantics="ascend910b")
    deep = np.ones((1,) * 9, np.float32)
    with pytest.raises(ValueError, match="rank 9"):
        opsnn.threshold_backward(deep, deep, 0.5, semantics="ascend910b")


def test_out_aliasing_an_input_shifted_is_computed_as_if_copied_first(lane_kind):
    buf = np.linspace(-1, 1, 4097, dtype=np.float32)
    f = np.linspace(1, -1, 4096, dtype=np.float32)
    grad = buf[1:]  # out = buf[:-1] overlaps grad, shifted by one element
    expected = opsnn.threshold_backward(grad.copy(), f, 0.0, backend="reference")
    assert opsnn.threshold_backward(grad, f, 0.0, out=buf[:-1]) is not None
    np.testing.assert_array_equal(buf[:-1], expected)


def test_inputs_are_not_mutated_and_out_equal_grad_works(lane_kind):
    g = np.linspace(-2, 2, 100, dtype=np.float32)
    f = g[::-1].copy()
    g0, f0 = g.copy(), f.copy()
    opsnn.threshold_backward(g, f, 0.1)
    np.testing.assert_array_equal(g, g0)
    np.testing.assert_array_equal(f, f0)
    expected = opsnn.threshold_backward(g, f, 0.1, backend="reference")
    assert opsnn.threshold_backward(g, f, 0.1, out=g) is g
    np.testing.assert_array_equal(g, expected)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork() only")
def test_a_forked_child_starts_its_own_c_pool(lane_kind):
    """After parallel calls in the parent, a forked child has no C workers (threads do not survive
    fork()); its first parallel call starts its own pool and answers as the parent did."""
    from opsnn.engine import _select
    big = np.linspace(-1, 1, 1 << 20, dtype=np.float32)  # large enough for the parallel entry
    strided = big.reshape(1024, 1024).T                    # and a layout of the general way
    expected = opsnn.threshold_backward(big, big, 0.0), opsnn.threshold_backward(strided, strided, 0.0)
    parallel = fast.threads_allowed() > 1
    assert _select.workers_started() >= 1 or not parallel
    pid = os.fork()
    if pid == 0:
        before = _select.workers_started()
        same = (np.array_equal(opsnn.threshold_backward(big, big, 0.0), expected[0])
                and np.array_equal(opsnn.threshold_backward(strided, strided, 0.0), expected[1]))
        after = _select.workers_started()
        ok = before == 0 and same and (after >= 1 if parallel else after == 0)
        os._exit(0 if ok else 1 + (before != 0) + 2 * (not same) + 4 * (after == 0))
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    np.testing.assert_array_equal(opsnn.threshold_backward(big, big, 0.0), expected[0])  # the parent's pool still works


def test_without_the_c_engine_auto_takes_the_general_way_and_c_refuses(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "opsnn.engine._select", None)  # as where no compiler built it
    assert fast.engine_lane("auto") is None and fast.engine_lane("numpy") is None
    with pytest.raises(ImportError, match="^OPSNN_FAST_ENGINE=c needs the C engine"):
        fast.engine_lane("c")
    with pytest.raises(ValueError, match="unknown fast engine 'numba'"):
        fast.engine_lane("numba")
    monkeypatch.setattr(fast, "compiled_lane", lambda: fast.engine_lane(None))
    monkeypatch.setattr(express, "_BACKWARD", {})
    monkeypatch.setattr(lanes, "_LANES", {})
    g = np.linspace(-1, 1, 1000, dtype=np.float32)
    assert express.threshold_backward(g, g, 0.25, "torch", None) is None  # the lane declines: the general way
    np.testing.assert_array_equal(opsnn.threshold_backward(g, g, 0.25), np.where(g > 0.25, g, 0))
    np.testing.assert_array_equal(opsnn.threshold_backward(g[::-2], g[::2], 0.25), np.where(g[::2] > 0.25, g[::-2], 0))
    assert list(express._BACKWARD.values()) == [False]  # the memo holds False: no lane to ask
    assert lanes._LANES == {}                             # and the general way ran on the numpy engine
