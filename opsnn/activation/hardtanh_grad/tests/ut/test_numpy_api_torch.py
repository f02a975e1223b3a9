"""opsnn.hardtanh_backward(semantics="torch") against torch.ops.aten.hardtanh_backward (CPU
eager), bit for bit (-0.0 is not +0.0; any NaN equals any NaN: torch's own vectorised and scalar
loops disagree on NaN payloads), including where torch refuses."""
from __future__ import annotations

import math
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import opsnn
from opsnn.dtypes import bfloat16

torch = pytest.importorskip("torch")

TORCH_OF = {np.dtype(np.bool_): torch.bool, np.dtype(np.uint8): torch.uint8, np.dtype(np.int8): torch.int8,
            np.dtype(np.int16): torch.int16, np.dtype(np.int32): torch.int32, np.dtype(np.int64): torch.int64,
            np.dtype(np.float16): torch.float16, bfloat16: torch.bfloat16, np.dtype(np.float32): torch.float32,
            np.dtype(np.float64): torch.float64}
FLOATS = [np.dtype(np.float16), bfloat16, np.dtype(np.float32), np.dtype(np.float64)]
SMALL_INTS = [np.dtype(np.bool_), np.dtype(np.uint8), np.dtype(np.int8), np.dtype(np.int16)]
BACKENDS = ("auto", "fast", "reference")


def to_torch(a: np.ndarray):
    a = np.array(a, order="C", copy=True)
    if a.dtype == bfloat16:
        return torch.from_numpy(a.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(a)


def to_numpy(t) -> np.ndarray:
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(bfloat16)
    return t.numpy()


def torch_result(grad, x, lo, hi):
    try:
        return to_numpy(torch.ops.aten.hardtanh_backward(to_torch(grad), to_torch(x), lo, hi))
    except (RuntimeError, NotImplementedError, OverflowError, TypeError) as e:
        return e


def assert_same(ours: np.ndarray, theirs: np.ndarray) -> None:
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape, (ours.dtype, theirs.dtype)
    u = f"u{ours.dtype.itemsize}"
    a, b = np.ascontiguousarray(ours).view(u).copy(), np.ascontiguousarray(theirs).view(u).copy()
    nan = np.isnan(ours.astype(np.float64)) & np.isnan(theirs.astype(np.float64))
    a[nan] = b[nan] = 0
    np.testing.assert_array_equal(a, b)


def check(grad, x, lo, hi, backend="auto"):
    grad, x = np.asarray(grad), np.asarray(x)
    g0, x0 = grad.copy(), x.copy()
    want = torch_result(grad, x, lo, hi)
    if isinstance(want, Exception):
        with pytest.raises((TypeError, ValueError)):
            opsnn.hardtanh_backward(grad, x, lo, hi, backend=backend)
        return want
    got = opsnn.hardtanh_backward(grad, x, lo, hi, backend=backend)
    assert_same(got, want)
    assert_same(grad, g0) if grad.dtype != np.bool_ else None
    np.testing.assert_array_equal(x.view(f"u{x.itemsize}") if x.dtype.kind == "f" or x.dtype == bfloat16 else x,
                                  x0.view(f"u{x0.itemsize}") if x0.dtype.kind == "f" or x0.dtype == bfloat16 else x0)
    return got


SPECIALS = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 6.0, math.inf, -math.inf, math.nan, 1e-3, 0.1, 65504.0,
            3e38, 1e-40, 0.0999755859375, 0.10009765625]


@st.composite
def cases(draw):
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=4))
    dt = st.sampled_from(FLOATS + SMALL_INTS)
    gd, xd = draw(dt), draw(dt)
    if draw(st.booleans()):
        xd = gd

    def array(shape, dtype):
        n = int(np.prod(shape, dtype=np.int64))
        vals = draw(st.lists(st.one_of(st.sampled_from(SPECIALS), st.floats(-8, 8, width=32)), min_size=n, max_size=n))
        with np.errstate(over="ignore", invalid="ignore"):
            a = np.array(vals, np.float64).reshape(shape)
            if dtype.kind in "iub":
                a = np.nan_to_num(a, nan=0, posinf=5, neginf=-5).clip(-100, 100).round()
            return a.astype(dtype)

    bound = st.one_of(st.sampled_from(SPECIALS + [1e39, -1e39, 2, -3, 0, True, False]),
                      st.floats(-8, 8), st.integers(-10, 10))
    return (array(shapes.input_shapes[0], gd), array(shapes.input_shapes[1], xd), draw(bound), draw(bound))


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(), st.sampled_from(BACKENDS))
def test_property_bit_exact_with_torch(case, backend):
    grad, x, lo, hi = case
    check(grad, x, lo, hi, backend)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", [1, 3, 17, 64, 1000])
def test_specials_every_dtype_scalar_and_vector_loops(dtype, n):
    rng = np.random.default_rng(n)
    pool = np.array(SPECIALS, np.float64)
    with np.errstate(over="ignore"):
        g = pool[rng.integers(0, pool.size, n)].astype(dtype) * np.where(rng.random(n) < 0.5, -1, 1).astype(dtype)
        x = pool[rng.integers(0, pool.size, n)].astype(dtype) * np.where(rng.random(n) < 0.5, -1, 1).astype(dtype)
    for lo, hi in ((-1.0, 1.0), (0.0, 6.0), (0.1, 0.1000001), (-0.0, 0.0), (2.0, -2.0), (math.nan, 1.0),
                   (-math.inf, math.inf), (0.0999755859375 - 1e-5, 0.0999755859375 + 1e-5)):
        for backend in BACKENDS:
            check(g, x, lo, hi, backend)


def test_half_bounds_are_float32_not_the_tensor_dtype():
    """spec H.8, measured: torch compares float16 / bfloat16 in float32 against float32 bounds."""
    for dtype in (np.float16, bfloat16):
        x = np.full(5, 0.1, dtype)
        xv = float(x[0])
        for eps, kept in ((1e-5, True), (1e-12, False)):  # 1e-12 vanishes in float32 (x >= max), 1e-5 does not
            got = opsnn.hardtanh_backward(np.ones(5, dtype), x, -5, xv + eps)
            assert (got == 1).all() == kept
            check(np.ones(5, dtype), x, -5, xv + eps)


def test_refusals_like_torch():
    f32 = np.ones(3, np.float32)
    for args in ((np.ones(3, np.int32), np.ones(3, np.int32), -1, 1),  # no integer kernel
                 (f32, f32, -1e39, 1.0),  # a finite bound beyond float32
                 (f32, np.ones(3, np.complex64), -1, 1)):
        assert isinstance(torch_result(*args), Exception)
        with pytest.raises((TypeError, ValueError)):
            opsnn.hardtanh_backward(*args)
    # float64 takes bounds beyond float32's range
    check(np.ones(3), np.array([1e38, 3e38, 1e300]), -1e39, 1e39)


def test_promotion_like_torch():
    pairs = [(np.float16, np.float32), (bfloat16, np.float16), (np.int16, np.float16), (np.bool_, bfloat16),
             (np.float32, np.float64), (np.uint8, np.float32)]
    for a, b in pairs:
        for ga, xa in ((np.ones(4, a), np.zeros(4, b)), (np.ones((), a), np.zeros(4, b)),
                       (np.ones(4, a), np.zeros((), b))):
            got = check(ga, xa, -1, 1)
            assert got is not None


def test_broadcasting_and_0d():
    check(np.arange(6, dtype=np.float32).reshape(2, 3), np.array([-2.0, 0.5, 2.0], np.float32), -1, 1)
    check(np.float32(3), np.linspace(-2, 2, 9, dtype=np.float32), -1, 1)
    check(np.float32(3), np.float32(0.5), -1, 1)
    with pytest.raises(ValueError):
        opsnn.hardtanh_backward(np.ones((2, 3)), np.ones((4, 3)))


def test_defaults_are_minus_one_and_one():
    x = np.array([-1.0, -0.5, 0.5, 1.0, 2.0], np.float32)
    np.testing.assert_array_equal(opsnn.hardtanh_backward(np.ones(5, np.float32), x), [0, 1, 1, 0, 0])
    assert_same(opsnn.hardtanh_backward(np.ones(5, np.float32), x), torch_result(np.ones(5, np.float32), x, -1, 1))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize(("gshape", "xshape"), [
    ((100001,), (100001,)), ((20,), (3, 20)), ((3, 1), (3, 20)), ((), (3, 40)), ((5, 1, 7), (5, 3, 7)),
    ((70000,), (70000,)), ((2, 35000), (2, 35000)), ((200,), (300, 200)), ((4, 1, 1), (4, 33, 17)), ((47,), (47,))])
def test_nan_x_follows_torchs_vector_and_scalar_loops(dtype, gshape, xshape):
    """Where x is NaN, torch's vectorised body gives 0 and its scalar tail grad: opsnn follows the
    loop element by element (threads: torch's default count, which opsnn reads the same way)."""
    from opsnn.activation.hardtanh_grad.functional_models import torch_threads
    assert torch_threads() == torch.get_num_threads()
    rng = np.random.default_rng(7)
    g = (rng.standard_normal(gshape) * 3).astype(dtype)
    x = (rng.standard_normal(xshape) * 3).astype(dtype)
    x[rng.random(xshape) < 0.4] = np.nan
    for backend in BACKENDS:
        check(g, x, -1.0, 1.0, backend)
    check(g, x, math.nan, 1.0)
    check(g, x, -2.0, math.nan, "reference")


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", [5, 47, 70001, 100001])
@pytest.mark.parametrize("into", ["new", "grad", "x"])
def test_scalar_tails_in_place_and_on_the_express_entry(dtype, n, into):
    """The scalar body's tails (a NaN x keeps grad) where out is grad or x itself (the tails' inputs
    are read before the vectorised body overwrites them), on a first call and on a repeat (the
    express entry learnt from the first)."""
    rng = np.random.default_rng(n)
    g = (rng.standard_normal(n) * 3).astype(dtype)
    x = (rng.standard_normal(n) * 3).astype(dtype)
    x[rng.random(n) < 0.4] = np.nan
    want = torch_result(g, x, -1.5, 0.75)
    for _ in range(2):
        gc, xc = g.copy(), x.copy()
        out = {"new": None, "grad": gc, "x": xc}[into]
        got = opsnn.hardtanh_backward(gc, xc, -1.5, 0.75, out=out)
        assert_same(got, want)
        if out is not None:
            assert got is out


def test_one_thread_changes_the_split(monkeypatch):
    """With one thread the whole range is one segment (checked against the model only: torch in
    this process keeps its thread count); without torch loaded, OMP_NUM_THREADS says how many."""
    from opsnn.activation.hardtanh_grad import functional_models as fm
    lanes = fm.torch_vector_lanes((70001,), (70001,), 4, threads=1)
    assert lanes[:70000].all() and not lanes[70000]
    # [0, 35001) and [35001, 70001), each its own tail
    lanes = fm.torch_vector_lanes((70001,), (70001,), 4, threads=2)
    assert np.flatnonzero(~lanes).tolist() == [*range(34992, 35001), *range(69993, 70001)]
    monkeypatch.delitem(sys.modules, "torch")  # as a process without torch sees it
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    assert fm.torch_threads() == 1


@pytest.mark.parametrize(("gdtype", "xdtype", "gshape", "xshape"), [
    (np.float16, np.float32, (1000,), (1000,)), (np.float32, np.float16, (), (3, 40)),
    (bfloat16, np.float16, (5, 33), (33,)), (np.int16, bfloat16, (40000,), (40000,)),
    (np.float64, np.float32, (7, 9), (9,))])
def test_nan_x_with_promotion(gdtype, xdtype, gshape, xshape):
    """Promotion makes cast copies of the inputs; the loop split is that of the common dtype."""
    rng = np.random.default_rng(3)
    g = (rng.standard_normal(gshape) * 3).astype(gdtype)
    x = np.array(rng.standard_normal(xshape) * 3, np.float32)
    x[np.asarray(rng.random(xshape) < 0.5)] = np.nan
    for backend in BACKENDS:
        check(g, x.astype(xdtype), -1.0, 1.0, backend)
