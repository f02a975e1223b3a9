"""The C engine's Lane (opsnn/engine/_select.c): bit for bit the reference, every loop and store
kind, on its own pool, from many threads and after fork(); it declines what is not for it. Every
other layout (the general way): tests/test_c_engine_layouts.py."""
from __future__ import annotations

import math
import os
import shutil
import subprocess
import sys
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from opsnn.backends.keep_range import selection
from opsnn.backends.plan import plan_backward, plan_forward

import opsnn
from opsnn.backends import express, fast, keep_range, pool
from opsnn.dtypes import bfloat16

if shutil.which("cc") is None and shutil.which("gcc") is None:
    pytest.skip("no C compiler: the C lane is not built here", allow_module_level=True)
_select = fast.engine_lane("c")  # built by `make venv` (pip install -e .); an ImportError here is a failed build

DTYPES = [np.dtype(t) for t in (np.uint8, np.int8, np.int16, np.int32, np.int64, np.float16, np.float32,
                                np.float64, np.bool_)] + [bfloat16]
SEMANTICS = ("torch", "ascend910b", "ascend950")
THRESHOLDS = (0.0, -0.0, 0.5, -1.5, 1e-8, 3, 100, math.inf, -math.inf, math.nan)


def bits(a: np.ndarray) -> np.ndarray:
    return a.view(f"u{a.dtype.itemsize}")


def raw(dtype: np.dtype, n: int, seed: int) -> np.ndarray:
    """Any bit patterns (NaN payloads, infinities, subnormals), half of them small ordinary values."""
    rng = np.random.default_rng(seed)
    if dtype == np.bool_:
        return rng.random(n) < 0.5
    w = dtype.itemsize
    anything = rng.integers(0, 2 ** (8 * w), n, dtype=np.uint64).astype(f"u{w}").view(dtype)
    ordinary = (rng.standard_normal(n) * 4).astype(np.float32).astype(dtype)
    return np.where(rng.random(n) < 0.5, anything, ordinary)


def lane_for(plan, arrays=3, stream_min=None, parallel_min=fast.PARALLEL_MIN, threads=None, max_rank=64):
    sel = selection(plan)
    return _select.Lane(plan.dtype, [int(v) for v in sel.params], max_rank, arrays, parallel_min,
                        fast.stream_moved_min() if stream_min is None else stream_min, threads or pool.cpu_count())


def test_the_modules_parameter_order_is_keep_ranges():
    for name in ("LO1", "HI1", "LO2", "HI2", "FILL", "SIGN", "EXPONENT", "QUIET", "MODE", "PLAIN", "RELU",
                 "VIA_FLOAT32"):
        assert getattr(_select, name) == getattr(keep_range, name), name


def test_auto_takes_the_c_lane_and_compiles_nothing():
    code = ("import sys, numpy as np, opsnn\n"
            "from opsnn.backends import express\n"
            "a = np.linspace(-1, 1, 1 << 20, dtype=np.float32)\n"
            "opsnn.threshold_backward(a, a, 0.5); opsnn.threshold(a, 0.5, 2.0)\n"
            "print(type(next(iter(express._BACKWARD.values()))).__name__, 'numba' in sys.modules,\n"
            "      any(m.startswith(('llvmlite', 'cffi')) for m in sys.modules))")
    env = dict(os.environ)
    env.pop("OPSNN_FAST_ENGINE", None)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["Lane", "False", "False"]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(DTYPES), st.sampled_from(SEMANTICS), st.sampled_from(THRESHOLDS),
       st.integers(0, 5000), st.integers(0, 7), st.booleans(), st.integers(1, 4), st.booleans())
def test_every_loop_matches_the_reference(dtype, semantics, threshold, n, offset, streaming, threads, into_out):
    """Plain, ReluGrad and int32-through-float32 loops, with plain or streaming stores, on 1-4 parts
    (parallel_min lowered so that small arrays are cut), unaligned heads and tails."""
    g = raw(dtype, n + offset, n)[offset:]
    f = raw(dtype, n + offset, n + 1)[offset:]
    try:
        plan = plan_backward(g, f, threshold, semantics)
    except (TypeError, ValueError):
        return  # the planner refuses this dtype for these semantics
    if plan.dtype != dtype or selection(plan).empty:
        return  # not for a lane (the express lane never makes one)
    lane = lane_for(plan, stream_min=0 if streaming else 1 << 62, parallel_min=64, threads=threads)
    expected = opsnn.threshold_backward(g, f, threshold, semantics=semantics, backend="reference")
    if into_out:
        buffer = np.zeros(n + offset + 3, dtype)
        out = buffer[offset:offset + n]
        assert lane(g, f, out) is out
        assert not buffer[:offset].any() and not buffer[offset + n:].any()  # nothing written beside it
    else:
        out = lane(g, f, None)
    assert out.dtype == dtype and out.shape == g.shape
    np.testing.assert_array_equal(bits(out), bits(expected))


@pytest.mark.parametrize("streaming", [False, True])
def test_int32_through_float32_saturates_at_the_edges(streaming):
    edge = np.array([2**31 - 1, 2**31 - 64, 2**31 - 65, 2**31 - 128, 2**24 + 1, -(2**31), -(2**24) - 3, 7],
                    np.int32)
    g = np.tile(edge, 4099)
    f = np.ones_like(g)
    for semantics in ("ascend910b", "ascend950"):
        lane = lane_for(plan_backward(g, f, 0.5, semantics), stream_min=0 if streaming else 1 << 62, parallel_min=64)
        expected = opsnn.threshold_backward(g, f, 0.5, semantics=semantics, backend="reference")
        np.testing.assert_array_equal(lane(g, f, None), expected)
        assert expected[0] == 2**31 - 1 and expected[1] == 2**31 - 1 and expected[2] == 2**31 - 128


@pytest.mark.parametrize("dtype", [np.dtype(np.float32), np.dtype(np.uint8), bfloat16], ids=str)
def test_forward_lane_and_in_place(dtype):
    x = raw(dtype, 70_001, 3)
    for value in (0.0, -0.0, 2):
        plan = plan_forward(x, 0.5, value)
        lane = lane_for(plan, arrays=2, stream_min=0, parallel_min=64)
        expected = opsnn.threshold(x, 0.5, value, backend="reference")
        np.testing.assert_array_equal(bits(lane(x, x, None)), bits(expected))
        inplace = x.copy()
        assert lane(inplace, inplace, inplace) is inplace
        np.testing.assert_array_equal(bits(inplace), bits(expected))


def test_declines_what_is_not_for_it():
    """What the general way must answer (and raise for): other dtypes (the Lane itself never casts,
    its .cast does), a rank above the lane's, an out it may not or cannot write, shapes that do not
    broadcast, anything but exactly an ndarray."""
    g = np.linspace(-2, 2, 24, dtype=np.float32).reshape(4, 6)
    lane = lane_for(plan_backward(g, g, 0.5, "torch"), max_rank=2)
    assert lane(g, g, None) is not None
    ro = np.empty_like(g)
    ro.flags.writeable = False
    declined = [
        (g, g.astype(np.float64), None), (g.astype(">f4"), g.astype(">f4"), None),
        (g.reshape(1, 4, 6), g.reshape(1, 4, 6), None), (g, g.reshape(1, 4, 6), None),  # rank 3 > max_rank
        (g, g, ro), (g, g, np.empty((6, 4), np.float32)), (g, g, np.empty((4, 6), np.float64)),
        (g, g, np.empty((4, 6), ">f4")), (g, g[:, :5], None), (g, g, [[0.0] * 6] * 4),
        (g.tolist(), g, None), (np.ma.masked_array(g), g, None),           # not exactly ndarrays
        (g, g, np.ma.masked_array(g.copy())),
    ]
    for a, b, out in declined:
        assert lane(a, b, out) is None
    assert lane.cast(g, g[:, :5], None) is None and lane.cast(g, g, np.empty((4, 6), np.float64)) is None
    with pytest.raises(TypeError):
        lane(g, g)
    with pytest.raises(TypeError):
        lane(g, g, None, out=None)
    with pytest.raises(TypeError):
        lane.cast(g, g)


def test_answers_every_other_layout_of_its_dtype():
    """Transposes, broadcasts, unaligned or strided operands and out, a shifted alias: answered, exact."""
    g = np.linspace(-2, 2, 24, dtype=np.float32).reshape(4, 6)
    lane = lane_for(plan_backward(g, g, 0.5, "torch"), max_rank=2)
    unaligned = np.frombuffer(np.zeros(4 * 24 + 1, np.uint8).data, np.float32, 24, offset=1).reshape(4, 6)
    unaligned[...] = g[::-1]
    answered = [(g.T, g.T, None), (g, g[0], None), (g[0], g, None), (g, g[:, :1], None), (unaligned, g, None),
                (g, unaligned, None), (g[:, ::-1], g[::-1], None), (np.array(0.75, np.float32), g, None)]
    for a, b, out in answered:
        expected = opsnn.threshold_backward(a, b, 0.5, backend="reference")
        np.testing.assert_array_equal(bits(lane(a, b, out)), bits(expected))
    for target in (np.zeros((4, 6), np.float32), np.zeros((4, 12), np.float32)[:, ::2],
                   np.frombuffer(np.zeros(4 * 24 + 1, np.uint8).data, np.float32, 24, offset=1).reshape(4, 6)):
        target.flags.writeable = True
        assert lane(g, g.T.T, target) is target
        np.testing.assert_array_equal(bits(target), bits(opsnn.threshold_backward(g, g, 0.5, backend="reference")))
    buffer = np.linspace(-1, 1, 25, dtype=np.float32)
    grad, out = buffer[1:].reshape(4, 6), buffer[:-1].reshape(4, 6)  # out a shifted alias of grad
    expected = opsnn.threshold_backward(grad.copy(), g, 0.5, backend="reference")
    assert lane(grad, g, out) is out
    np.testing.assert_array_equal(bits(out), bits(expected))


def test_empty_and_same_buffer_calls():
    g = np.zeros((0, 3), np.float16)
    lane = lane_for(plan_backward(g, g, 0.5, "torch"))
    assert lane(g, g, None).shape == (0, 3)
    x = raw(np.dtype(np.float16), 1000, 5)
    expected = opsnn.threshold_backward(x, x, 0.5, backend="reference")
    inplace = x.copy()
    assert lane(inplace, inplace, inplace) is inplace
    np.testing.assert_array_equal(bits(inplace), bits(expected))


@pytest.mark.parametrize("bad", [
    dict(params=[0] * 8), dict(params=[0] * 8 + [7]), dict(params=[0] * 8 + [keep_range.RELU]),
    dict(params=[-1] + [0] * 8), dict(threads=0), dict(parallel_min=0), dict(arrays=0),
])
def test_constructor_refuses_what_no_loop_runs(bad):
    args = dict(dtype=np.uint8, params=[0] * 9, max_rank=8, arrays=3, parallel_min=64, stream_min=0, threads=2)
    args.update(bad)
    with pytest.raises((ValueError, OverflowError)):
        _select.Lane(**args)


def test_many_threads_at_once_share_the_pool_or_run_on_their_own():
    """Eight threads calling big lanes at once: one at a time uses the pool, the others run serially."""
    dtypes = [np.dtype(np.float32), np.dtype(np.uint8), np.dtype(np.float16), np.dtype(np.int32)]
    cases = []
    for k, dtype in enumerate(dtypes):
        g, f = raw(dtype, 300_001, k), raw(dtype, 300_001, k + 10)
        semantics = SEMANTICS[k % 3]
        lane = lane_for(plan_backward(g, f, 0.5, semantics), parallel_min=4096, stream_min=0 if k % 2 else 1 << 62)
        cases.append((lane, g, f, opsnn.threshold_backward(g, f, 0.5, semantics=semantics, backend="reference")))
    failures = []

    def work(i):
        for j in range(20):
            lane, g, f, expected = cases[(i + j) % len(cases)]
            if not np.array_equal(bits(lane(g, f, None)), bits(expected)):
                failures.append((i, j))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures


def test_a_big_call_releases_the_gil():
    """While one thread runs a long select, another thread's Python keeps running."""
    g = raw(np.dtype(np.float32), 1 << 22, 1)
    lane = lane_for(plan_backward(g, g, 0.5, "torch"), threads=1)
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)

    t = threading.Thread(target=tick)
    t.start()
    try:
        for _ in range(20):
            lane(g, g, None)
    finally:
        stop.set()
        t.join()
    assert len(ticks) > 1000


def test_a_job_runs_on_at_most_its_lanes_threads():
    """Workers a wider lane started sit out a narrower lane's job (its seats: threads - 1); the
    jobs' parts still all run (the results are right), whoever claims them."""
    big = raw(np.dtype(np.float32), 1 << 21, 4)
    plan = plan_backward(big, big, 0.5, "torch")
    wide, narrow = (lane_for(plan, parallel_min=4096, threads=t) for t in (4, 2))
    expected = opsnn.threshold_backward(big, big, 0.5, backend="reference")
    wide(big, big, None)
    assert _select.workers_started() >= 3
    joined = set()
    for _ in range(30):  # back to back: the workers stay awake, every one of them free to join
        wide(big, big, None)
        np.testing.assert_array_equal(bits(narrow(big, big, None)), bits(expected))
        joined.add(_select.threads_joined())
    assert max(joined) <= 2


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork() only")
def test_a_forked_child_starts_its_own_workers():
    big = raw(np.dtype(np.float32), 1 << 20, 2)
    lane = lane_for(plan_backward(big, big, 0.0, "torch"), parallel_min=4096)
    expected = lane(big, big, None)  # the parent's workers exist now
    assert _select.workers_started() >= pool.cpu_count() - 1  # (earlier tests may have asked for more)
    pid = os.fork()
    if pid == 0:  # the child: no workers until its first parallel call
        before = _select.workers_started()
        same = np.array_equal(bits(lane(big, big, None)), bits(expected))
        after = _select.workers_started()
        os._exit(0 if before == 0 and same and after == pool.cpu_count() - 1 else 1 + before + 2 * same + 4 * after)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    np.testing.assert_array_equal(bits(lane(big, big, None)), bits(expected))  # and the parent's pool still works


def test_the_express_lane_uses_it_under_auto():
    g = np.ones(10, np.float32)
    opsnn.threshold_backward(g, g, 0.125)
    lane = express._BACKWARD[("torch", g.dtype, float, 0.125)]
    assert type(lane).__name__ == "Lane"


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(DTYPES), st.sampled_from(SEMANTICS), st.sampled_from(THRESHOLDS),
       st.sampled_from([((5, 300), (300,)), ((300,), (5, 300)), ((2, 3, 256), (1, 3, 256)), ((1, 700), (4, 700)),
                        ((3, 2, 300), (2, 300)), ((7, 257), (1, 257))]),
       st.booleans(), st.integers(1, 3), st.booleans())
def test_a_broadcast_row_matches_the_reference(dtype, semantics, threshold, shapes, streaming, threads, into_out):
    """grad (N, C) against feature (C,) (with or without leading ones), and the reverse."""
    gshape, fshape = shapes
    g, f = raw(dtype, math.prod(gshape), 1).reshape(gshape), raw(dtype, math.prod(fshape), 2).reshape(fshape)
    try:
        plan = plan_backward(g, f, threshold, semantics)
    except (TypeError, ValueError):
        return
    if plan.dtype != dtype or selection(plan).empty:
        return
    lane = lane_for(plan, stream_min=0 if streaming else 1 << 62, parallel_min=64, threads=threads)
    expected = opsnn.threshold_backward(g, f, threshold, semantics=semantics, backend="reference")
    out = np.zeros(expected.shape, dtype) if into_out else None
    got = lane(g, f, out)
    assert got is not None and got.shape == expected.shape and (out is None or got is out)
    np.testing.assert_array_equal(bits(got), bits(expected))


def test_a_broadcast_row_overlapping_out_is_read_before_it_is_written():
    g = raw(np.dtype(np.float32), 4 * 300, 1).reshape(4, 300)
    f = raw(np.dtype(np.float32), 300, 2)
    lane = lane_for(plan_backward(g, f, 0.5, "torch"))
    assert lane(g, f[:299], None) is None                 # not broadcastable
    buffer = np.zeros(4 * 300, np.float32)
    out = buffer.reshape(4, 300)
    row = buffer[:300]                                    # the row overlaps out's first row
    expected = opsnn.threshold_backward(g, np.zeros(300, np.float32), 0.5, backend="reference")
    assert lane(g, row, out) is out
    np.testing.assert_array_equal(bits(out), bits(expected))
    inplace = g.copy()                                    # out = the whole operand itself
    expected = opsnn.threshold_backward(g, f, 0.5, backend="reference")
    assert lane(inplace, f, inplace) is inplace
    np.testing.assert_array_equal(bits(inplace), bits(expected))


@pytest.mark.parametrize(("env", "workers"), [({"OPSNN_NUM_THREADS": "1"}, 0), ({"OMP_NUM_THREADS": "1,4"}, 0),
                                              ({"OPSNN_NUM_THREADS": "2", "OMP_NUM_THREADS": "1"}, 1), ({}, None)])
def test_thread_count_follows_the_environment(env, workers):
    code = ("import numpy as np, opsnn; from opsnn.engine import _select; from opsnn.backends import fast\n"
            "a = np.linspace(-1, 1, 1 << 21, dtype=np.float32); opsnn.threshold_backward(a, a, 0.5)\n"
            "print(fast.threads_allowed(), _select.workers_started())")
    clean = {k: v for k, v in os.environ.items() if k not in ("OPSNN_NUM_THREADS", "OMP_NUM_THREADS")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**clean, **env},
                          timeout=120)
    assert done.returncode == 0, done.stderr
    allowed, started = map(int, done.stdout.split())
    expected = pool.cpu_count() - 1 if workers is None else workers
    assert started == expected and allowed == (expected + 1 if workers is not None else pool.cpu_count())


def test_a_bad_thread_count_is_an_error_that_says_so():
    code = "import numpy as np, opsnn; a = np.ones(8, np.float32); opsnn.threshold_backward(a, a, 0.5)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "OPSNN_NUM_THREADS": "many"}, timeout=120)
    assert done.returncode != 0 and "OPSNN_NUM_THREADS='many': expected a positive integer" in done.stderr


@pytest.mark.parametrize("dtype", [np.dtype(np.float16), bfloat16, np.dtype(np.float32), np.dtype(np.float64)], ids=str)
@pytest.mark.parametrize("stream_min", [None, 0])
def test_nan_checked_reports_a_nan_wherever_a_part_wrote_it(dtype, stream_min):
    """lane.nan_checked: the parts check their own outputs, whichever thread ran them: a NaN in
    the first, the last or a middle element of a flat job (parallel, streaming or not), of a
    broadcast row, or none; not one flat job (strided): None, not checked."""
    n = 1 << 20
    feature = np.ones(n, dtype)  # every grad kept (threshold 0.5): out is grad
    plan = plan_backward(feature, feature, 0.5, "torch")
    lane = lane_for(plan, stream_min=stream_min, parallel_min=4096, threads=4)
    exponent = int(opsnn.dtypes.float_layout(dtype).exponent)
    grad = np.full(n, 2, dtype)
    out, found = lane.nan_checked(grad, feature, None, exponent)
    assert found is False and np.array_equal(bits(out), bits(grad))
    for where in (0, n // 2 + 3, n - 1):
        g = grad.copy()
        g[where] = np.nan
        out, found = lane.nan_checked(g, feature, None, exponent)
        assert found is True and np.array_equal(bits(out), bits(g))
    rows = grad.reshape(1024, 1024).copy()
    rows[1000, 5] = np.nan
    assert lane.nan_checked(rows, feature[:1024], None, exponent)[1] is True  # a broadcast row
    assert lane.nan_checked(grad[:0], feature[:0], None, exponent)[1] is False
    assert lane.nan_checked(grad[::2], feature[::2], None, exponent)[1] is None  # the general way
    other = np.float32 if dtype == np.float64 else np.float64
    assert lane.nan_checked(grad.astype(other), feature, None, exponent) is None  # not the lane's dtype
    bytes_lane = lane_for(plan_backward(np.ones(8, np.int8), np.ones(8, np.int8), 0.5, "torch"))
    with pytest.raises(ValueError, match="2-, 4- or 8-byte"):  # no NaN in 1-byte items: refused, never misread
        bytes_lane.nan_checked(np.ones(8, np.int8), np.ones(8, np.int8), None, 0x7F)

