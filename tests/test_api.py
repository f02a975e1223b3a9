"""The public API: argument checking, out=, the ascend semantics' documented cases, import hygiene."""
from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import ml_dtypes
import numpy as np
import pytest
from opsnn.backends.plan import plan_backward

import opsnn
from opsnn.backends import fast

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
            out = opsnn.threshold_backward(g, f, 1.0, semantics=semantics, backend=backend)
            np.testing.assert_array_equal(out, np.array([[0, 4.4], [4.3, 4.2]], np.float32))


def test_unknown_names_and_bad_out():
    g = np.ones(3, np.float32)
    with pytest.raises(ValueError):
        opsnn.threshold_backward(g, g, 1.0, semantics="cuda")
    with pytest.raises(ValueError):
        opsnn.threshold_backward(g, g, 1.0, backend="gpu")
    with pytest.raises(ValueError):
        opsnn.threshold_backward(g, g, 1.0, backend="emulator")  # torch semantics have no emulator
    with pytest.raises(TypeError):
        opsnn.threshold_backward(g, g, 1.0, out=np.empty(3, np.float64))
    with pytest.raises(ValueError):
        opsnn.threshold_backward(g, g, 1.0, out=np.empty(4, np.float32))
    with pytest.raises(ValueError):
        opsnn.threshold_backward(g, np.ones((2, 1), np.float32), 1.0, out=np.empty(3, np.float32))
    with pytest.raises(TypeError):
        opsnn.threshold_backward(g, g, 1.0, out=[0.0, 0.0, 0.0])


@pytest.mark.parametrize("backend", BACKENDS)
def test_out_is_returned_and_may_be_grad(backend):
    g = np.array([1.0, -2.0, 3.0], np.float32)
    f = np.array([2.0, 0.5, 1.5], np.float32)
    assert opsnn.threshold_backward(g, f, 1.0, out=g, backend=backend) is g
    np.testing.assert_array_equal(g, [1.0, 0.0, 3.0])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("semantics", ASCEND)
def test_ascend_dtype_rules(semantics, backend):
    a32 = np.ones(3, np.float32)
    with pytest.raises(TypeError):
        opsnn.threshold_backward(a32, a32.astype(np.float16), 1.0, semantics=semantics, backend=backend)
    for dt in (np.float64, np.int16, np.bool_, np.uint16, np.complex64):
        with pytest.raises(TypeError):
            opsnn.threshold_backward(np.ones(3, dt), np.ones(3, dt), 1.0, semantics=semantics, backend=backend)
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
        opsnn.threshold_backward(rank9, rank9, 1.0, semantics=semantics, backend=backend)
    rank8 = np.ones((2, 1, 1, 1, 1, 1, 1, 3), np.float32)
    assert opsnn.threshold_backward(rank8, np.ones(3, np.float32), 0.5, semantics=semantics,
                                    backend=backend).shape == (2, 1, 1, 1, 1, 1, 1, 3)
    with pytest.raises(ValueError):
        opsnn.threshold_backward(np.ones(3, np.float32), np.ones(4, np.float32), 1.0, semantics=semantics,
                                 backend=backend)
    scalar = opsnn.threshold_backward(np.float32(2), np.float32(3), 1.0, semantics=semantics, backend=backend)
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
    # importing opsnn loads neither torch nor numba; calls of every layout and engine never load torch,
    # and never numba or llvmlite (the fast path has no run-time compiler: numba may still be installed)
    code = ("import sys, opsnn, numpy as np; from opsnn.backends import fast, plan;"
            "loaded = lambda: ['torch' in sys.modules, 'numba' in sys.modules, 'llvmlite' in sys.modules];"
            "imported = loaded(); a = np.ones((300, 200)); b = a.astype(np.float32);"
            "opsnn.threshold_backward(np.ones(3), np.ones(3), 1.0); opsnn.threshold_backward(a, a.T.T[::-1], 0.5);"
            "opsnn.threshold_backward(a.T, a[:, :1].T, 0.5); opsnn.threshold_backward(a, b, 0.5);"
            "opsnn.threshold(b[:, ::3], 0.5, 2.0); opsnn.threshold_backward(b, b, 0.5, semantics='ascend910b');"
            "fast.threshold_backward(a, b, plan.plan_backward(a, b, 0.5, 'torch'), engine='numpy');"
            "print(*imported, *loaded())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False"] * 6


def test_inputs_accept_lists_and_bfloat16():
    out = opsnn.threshold_backward([[1, 2], [3, 4]], [[0, 5], [5, 0]], 1)
    np.testing.assert_array_equal(out, [[0, 2], [3, 0]])
    g = np.array([1, 2, 3], BF16)
    out = opsnn.threshold_backward(g, g, 1.5, semantics="ascend910b")
    assert out.dtype == BF16 and out.astype(np.float32).tolist() == [0.0, 2.0, 3.0]


def _child_work(queue):
    rng = np.random.default_rng(9)
    g = rng.standard_normal((1024, 1024)).astype(np.float32)
    flat = opsnn.threshold_backward(g, g.T.copy(), 0.5)          # the C engine's pool, flat ranges
    strided = opsnn.threshold_backward(g, g.T, 0.5)              # the C engine's pool, tiles of a transposed view
    staged = fast.threshold_backward(g, g[:1], plan_backward(g, g[:1], 0.5, "torch"), engine="numpy")  # our pool
    ref_flat = opsnn.threshold_backward(g, g.T.copy(), 0.5, backend="reference")
    ref_staged = opsnn.threshold_backward(g, g[:1], 0.5, backend="reference")
    queue.put(bool(np.array_equal(flat, ref_flat) and np.array_equal(strided, ref_flat)
                   and np.array_equal(staged, ref_staged)))


@pytest.mark.skipif(sys.platform != "linux", reason="fork start method")
def test_forked_child_can_call():
    """After parallel calls in the parent, a forked child (a DataLoader worker) still works: the C
    engine's pool and our Python pool (the numpy engine's) are both rebuilt there."""
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


# ---- the scalar arguments and the names: one check, before any backend (issue 19, items 9-11) -----------

ALL_CALLS = [("torch", "auto"), ("torch", "fast"), ("torch", "reference")] + \
    [(s, b) for s in ASCEND for b in ("auto", "fast", "reference", "emulator")]
NOT_SCALARS = [([1.0], "list"), (np.array([1.0, 2.0]), "ndarray"), (np.ones((1, 1)), "ndarray"), ("1", "str"),
               (None, "NoneType"), (1j, "complex"), (np.complex64(1), "complex64"), (np.array(1j), "complex128")]


@pytest.mark.parametrize(("semantics", "backend"), ALL_CALLS)
def test_a_threshold_that_is_no_real_number_is_a_type_error_everywhere(semantics, backend):
    g = np.ones(4, np.float32)
    opsnn.threshold_backward(g, g, 1.0, semantics=semantics, backend=backend)  # the lane's memo knows 1.0 now
    for bad, name in NOT_SCALARS:
        with pytest.raises(TypeError, match=f"^threshold must be a real number, not {name}$"):
            opsnn.threshold_backward(g, g, bad, semantics=semantics, backend=backend)
        with pytest.raises(TypeError, match=f"^threshold must be a real number, not {name}$"):
            opsnn.threshold(g, bad, 0.0, semantics=semantics, backend=backend)
        with pytest.raises(TypeError, match=f"^value must be a real number, not {name}$"):
            opsnn.threshold(g, 0.5, bad, semantics=semantics, backend=backend)


def test_names_that_are_no_str_are_a_type_error():
    g = np.ones(4, np.float32)
    for call in (lambda **kw: opsnn.threshold_backward(g, g, 1.0, **kw),
                 lambda **kw: opsnn.threshold(g, 1.0, 0.0, **kw)):
        with pytest.raises(TypeError, match=r"^semantics must be a str \(one of torch, ascend910b, ascend950\), "
                                            "not list$"):
            call(semantics=["torch"])
        with pytest.raises(TypeError, match=r"^backend must be a str \(one of auto, fast, emulator, reference\), "
                                            "not list$"):
            call(backend=["fast"])
        with pytest.raises(ValueError, match="^unknown semantics 'cuda'"):
            call(semantics="cuda")


ZERO_D = [np.array(0.5), np.array(1.5, np.float32), np.array(0.999, np.float16), np.array(1, np.int64),
          np.array(2, np.uint8), np.array(True), np.array(1.0000001, np.longdouble), np.array(1.5, BF16),
          np.array(-0.0), np.array(np.nan, np.float32)]


@pytest.mark.parametrize(("semantics", "backend"), ALL_CALLS)
def test_a_0d_array_scalar_computes_as_its_element(semantics, backend):
    """numpy and torch read a 0-d array as a scalar; so does every backend, bit for bit."""
    rng = np.random.default_rng(5)
    g = rng.standard_normal(40).astype(np.float32)
    f = np.concatenate([rng.uniform(-2, 3, 36), [0.5, 1.5, 1.0, 2.0]]).astype(np.float32)
    for t in ZERO_D:
        element = t[()] if t.dtype != BF16 else float(t)  # bfloat16 scalars are read as the float they hold
        expected = opsnn.threshold_backward(g, f, element, semantics=semantics, backend="reference")
        assert bits(opsnn.threshold_backward(g, f, t, semantics=semantics, backend=backend)).tobytes() == \
            bits(expected).tobytes(), t
        for v in (t, np.array(-0.0)):
            v_element = v[()] if v.dtype != BF16 else float(v)
            expected = opsnn.threshold(f, element, v_element, semantics=semantics, backend="reference")
            assert bits(opsnn.threshold(f, t, v, semantics=semantics, backend=backend)).tobytes() == \
                bits(expected).tobytes(), (t, v)


@pytest.mark.skipif(np.finfo(np.longdouble).max == np.finfo(np.float64).max, reason="long double is a double here")
@pytest.mark.parametrize(("semantics", "backend"), ALL_CALLS)
def test_a_long_double_beyond_float64_is_refused_not_made_inf(semantics, backend):
    g = np.ones(4, np.float32)
    for sign in ("", "-"):
        big = np.longdouble(f"{sign}1e4000")
        said = f"{sign}1e\\+4000 cannot be converted to float64 without overflow$"
        with pytest.raises(ValueError, match=f"^threshold {said}"):
            opsnn.threshold_backward(g, g, big, semantics=semantics, backend=backend)
        with pytest.raises(ValueError, match=f"^threshold {said}"):
            opsnn.threshold(g, np.array(big), 0.0, semantics=semantics, backend=backend)
        with pytest.raises(ValueError, match=f"^value {said}"):
            opsnn.threshold(g, 0.5, big, semantics=semantics, backend=backend)


@pytest.mark.parametrize("semantics", ASCEND)
def test_the_emulator_out_of_device_memory_is_a_memory_error(semantics):
    # 2**40 float32 outputs (4 TiB): numpy's MemoryError on the host backends (not run here: with memory
    # overcommit the host allocation may succeed), the same on the emulated device's 8 GiB
    g, f = np.ones((1 << 20, 1), np.float32), np.ones((1, 1 << 20), np.float32)
    with pytest.raises(MemoryError, match=r"^acl.rt.malloc\(4398046511104\) failed with acl status 207001"):
        opsnn.threshold_backward(g, f, 0.5, semantics=semantics, backend="emulator")


def test_the_emulators_forward_maps_a_failed_device_allocation_to_memory_error(monkeypatch):
    from functools import partial

    from opsnn import acl
    monkeypatch.setattr(acl, "Runtime", partial(acl.Runtime, memory_limit=4096))  # a device of 4 KiB
    x = np.ones(2048, np.float32)
    with pytest.raises(MemoryError, match="failed with acl status 207001"):
        opsnn.threshold(x, 0.5, 0.0, semantics="ascend910b", backend="emulator")


def test_threshold_backward_has_no_default_threshold():
    import inspect

    import opsnn.dask
    for fn in (opsnn.threshold_backward, opsnn.dask.threshold_backward):
        assert inspect.signature(fn).parameters["threshold"].default is inspect.Parameter.empty
    g = np.ones(3, np.float32)
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'threshold'"):
        opsnn.threshold_backward(g, g)
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'threshold'"):
        opsnn.threshold_backward(g, g, out=g)
