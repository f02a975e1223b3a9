"""The public API: argument checking, out=, the ascend semantics' documented cases, import hygiene."""
from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import ml_dtypes
import numpy as np
import pytest

import opsnn

BF16 = np.dtype(ml_dtypes.bfloat16)
ASCEND = ("ascend910b", "ascend950")
BACKENDS = ("fast", "reference")


def bits(a):
    return np.asarray(a).view(f"u{np.asarray(a).dtype.itemsize}")


def test_reference_example():
    g = np.array([4.5, 4.4, 4.3, 4.2], np.float32).reshape(2, 2)
    f = np.array([0.2, 1.2, 2.2, 3.2], np.float32).reshape(2, 2)
    for semantics in ("torch",) + ASCEND:
        for backend in BACKENDS:
            out = opsnn.threshold_backward(g, f, semantics=semantics, backend=backend)
            np.testing.assert_array_equal(out, np.array([[0, 4.4], [4.3, 4.2]], np.float32))


def test_unknown_names_and_bad_out():
    g = np.ones(3, np.float32)
    with pytest.raises(ValueError):
        opsnn.threshold_backward(g, g, semantics="cuda")
    with pytest.raises(ValueError):
        opsnn.threshold_backward(g, g, backend="gpu")
    with pytest.raises(ValueError):
        opsnn.threshold_backward(g, g, backend="emulator")  # torch semantics have no emulator
    with pytest.raises(TypeError):
        opsnn.threshold_backward(g, g, out=np.empty(3, np.float64))
    with pytest.raises(ValueError):
        opsnn.threshold_backward(g, g, out=np.empty(4, np.float32))
    with pytest.raises(ValueError):
        opsnn.threshold_backward(g, np.ones((2, 1), np.float32), out=np.empty(3, np.float32))
    with pytest.raises(TypeError):
        opsnn.threshold_backward(g, g, out=[0.0, 0.0, 0.0])


@pytest.mark.parametrize("backend", BACKENDS)
def test_out_is_returned_and_may_be_grad(backend):
    g = np.array([1.0, -2.0, 3.0], np.float32)
    f = np.array([2.0, 0.5, 1.5], np.float32)
    assert opsnn.threshold_backward(g, f, out=g, backend=backend) is g
    np.testing.assert_array_equal(g, [1.0, 0.0, 3.0])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("semantics", ASCEND)
def test_ascend_dtype_rules(semantics, backend):
    a32 = np.ones(3, np.float32)
    with pytest.raises(TypeError):
        opsnn.threshold_backward(a32, a32.astype(np.float16), semantics=semantics, backend=backend)
    for dt in (np.float64, np.int16, np.bool_, np.uint16, np.complex64):
        with pytest.raises(TypeError):
            opsnn.threshold_backward(np.ones(3, dt), np.ones(3, dt), semantics=semantics, backend=backend)
    i64 = np.array([-3, 0, 5], np.int64)
    with pytest.raises(TypeError):
        opsnn.threshold_backward(i64, i64, 1.0, semantics=semantics, backend=backend)
    if semantics == "ascend950":  # int64 only where ReluGrad runs
        out = opsnn.threshold_backward(i64, i64, 1e-8, semantics=semantics, backend=backend)
        np.testing.assert_array_equal(out, [0, 0, 5])
    else:
        with pytest.raises(TypeError):
            opsnn.threshold_backward(i64, i64, 0.0, semantics=semantics, backend=backend)
    with pytest.raises(TypeError):
        opsnn.threshold_backward(a32, a32, 1j, semantics=semantics, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("semantics", ASCEND)
def test_ascend_shapes(semantics, backend):
    rank9 = np.ones((1,) * 9, np.float32)
    with pytest.raises(ValueError):
        opsnn.threshold_backward(rank9, rank9, semantics=semantics, backend=backend)
    rank8 = np.ones((2, 1, 1, 1, 1, 1, 1, 3), np.float32)
    assert opsnn.threshold_backward(rank8, np.ones(3, np.float32), 0.5, semantics=semantics,
                                    backend=backend).shape == (2, 1, 1, 1, 1, 1, 1, 3)
    with pytest.raises(ValueError):
        opsnn.threshold_backward(np.ones(3, np.float32), np.ones(4, np.float32), semantics=semantics,
                                 backend=backend)
    scalar = opsnn.threshold_backward(np.float32(2), np.float32(3), semantics=semantics, backend=backend)
    assert scalar.shape == () and scalar == 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_ascend_documented_cases(backend):
    nan = np.float32(np.nan)
    g = np.array([1.0, 2.0, 3.0], np.float32)
    f = np.array([nan, 1.0, 1.5], np.float32)
    run = lambda s, t=1.0, gg=g, ff=f: opsnn.threshold_backward(gg, ff, t, semantics=s, backend=backend)  # noqa: E731
    np.testing.assert_array_equal(run("ascend910b"), [0.0, 0.0, 3.0])       # NaN feature -> 0
    np.testing.assert_array_equal(run("ascend950"), [1.0, 0.0, 3.0])        # NaN feature -> grad
    # float16 on 910b: threshold rounded to half first (1.0004 -> 1.0); on 950 compared in float32
    h = np.array([1.0, 1.0], np.float16), np.array([1.0, 1.0009766], np.float16)
    np.testing.assert_array_equal(run("ascend910b", 1.0004, *h), [0, 1])
    np.testing.assert_array_equal(run("ascend950", 1.0004, *h), [0, 1])
    np.testing.assert_array_equal(run("ascend910b", 0.9999, *h), [0, 1])    # rounds up to 1.0 in half
    np.testing.assert_array_equal(run("ascend950", 0.9999, *h), [1, 1])
    np.testing.assert_array_equal(run("ascend910b", 1.0002, h[0], h[0]), [0, 0])
    # int32 grads travel through float32: 2**24 + 1 -> 2**24, 2**31 - 1 saturates back
    gi = np.array([2**24 + 1, 2**31 - 1, -(2**31), 7], np.int32)
    fi = np.array([5, 5, 5, 0], np.int32)
    for s in ASCEND:
        np.testing.assert_array_equal(run(s, 1.0, gi, fi), [2**24, 2**31 - 1, -(2**31), 0])
    np.testing.assert_array_equal(opsnn.threshold_backward(gi, fi, 1, backend=backend), [2**24 + 1, 2**31 - 1,
                                                                                          -(2**31), 0])
    # int32 features compare as float32: 2**24 + 1 rounds to 2**24, not above t = 2**24
    np.testing.assert_array_equal(run("ascend910b", 2.0**24, np.ones(2, np.int32),
                                      np.array([2**24 + 1, 2**24 + 2], np.int32)), [0, 1])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("semantics", ASCEND)
def test_relu_grad_at_tiny_threshold(semantics, backend):
    g = np.array([-1.5, np.inf, np.nan, -np.inf, 2.0, -0.0, 3.0], np.float32)
    f = np.array([0.0, -1.0, -2.0, np.nan, 1.0, 5.0, -0.0], np.float32)
    for t in (0.0, -0.0, 1e-7, -1.1920929e-07):
        out = opsnn.threshold_backward(g, f, t, semantics=semantics, backend=backend)
        assert bits(out[0]) == bits(np.float32(-0.0))       # negative grad * 0 -> -0.0
        assert np.isnan(out[1]) and np.isnan(out[2]) and np.isnan(out[3])  # inf*0, NaN*0
        assert out[4] == 2.0 and bits(out[5]) == bits(np.float32(-0.0)) and out[6] == 0.0
    # just above FLT_EPSILON the threshold rule applies: masked values are +0.0
    out = opsnn.threshold_backward(g, f, 1.2e-7, semantics=semantics, backend=backend)
    assert bits(out[0]) == 0 and bits(out[1]) == 0
    ints = opsnn.threshold_backward(np.array([-3, 4], np.int8), np.array([0, 1], np.int8), 0.0,
                                    semantics=semantics, backend=backend)
    np.testing.assert_array_equal(ints, [0, 4])


def test_concurrent_calls_from_threads():
    rng = np.random.default_rng(0)
    g = rng.standard_normal(600_000).astype(np.float32)
    f = rng.standard_normal(600_000).astype(np.float32)
    expected = opsnn.threshold_backward(g, f, 0.1, backend="reference")
    with ThreadPoolExecutor(6) as pool:
        results = list(pool.map(lambda _: opsnn.threshold_backward(g, f, 0.1), range(6)))  # re-raises failures
    assert len(results) == 6
    for r in results:
        np.testing.assert_array_equal(bits(r), bits(expected))


def test_import_pulls_in_neither_torch_nor_numba():
    # numba is the fast path's engine, loaded at the first call (of any size: tiny calls run its loop
    # too, being cheaper than numpy's formula); importing opsnn loads neither, a call never torch
    code = ("import sys, opsnn, numpy as np; imported = 'torch' in sys.modules, 'numba' in sys.modules;"
            "opsnn.threshold_backward(np.ones(3), np.ones(3)); print(*imported, 'torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False", "False"]


def test_inputs_accept_lists_and_bfloat16():
    out = opsnn.threshold_backward([[1, 2], [3, 4]], [[0, 5], [5, 0]], 1)
    np.testing.assert_array_equal(out, [[0, 2], [3, 0]])
    g = np.array([1, 2, 3], BF16)
    out = opsnn.threshold_backward(g, g, 1.5, semantics="ascend910b")
    assert out.dtype == BF16 and out.astype(np.float32).tolist() == [0.0, 2.0, 3.0]


def _child_work(queue):
    rng = np.random.default_rng(9)
    g = rng.standard_normal((1024, 1024)).astype(np.float32)
    flat = opsnn.threshold_backward(g, g.T.copy(), 0.5)          # numba's parallel path
    staged = opsnn.threshold_backward(g, g[:1], 0.5)             # our thread pool
    ref_flat = opsnn.threshold_backward(g, g.T.copy(), 0.5, backend="reference")
    ref_staged = opsnn.threshold_backward(g, g[:1], 0.5, backend="reference")
    queue.put(bool(np.array_equal(flat, ref_flat) and np.array_equal(staged, ref_staged)))


@pytest.mark.skipif(sys.platform != "linux", reason="fork start method")
def test_forked_child_can_call():
    """After parallel calls in the parent, a forked child (a DataLoader worker) still works:
    numba's OpenMP pool must not be launched there (it terminates the process) and our pool is
    rebuilt."""
    import multiprocessing

    _child_work(multiprocessing.Queue())  # the parent uses both kinds of threads first
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_child_work, args=(queue,))
    child.start()
    child.join(60)
    if child.is_alive():
        child.kill()
        pytest.fail("forked child hung")
    assert child.exitcode == 0
    assert queue.get(timeout=5) is True
