"""opsnn.hardtanh_backward: the numpy API's conventions, the ascend semantics against the
functional models, and the emulator backend (aclnnHardtanhBackward on the emulated device)."""
from __future__ import annotations

import numpy as np
import pytest

import opsnn
from opsnn.activation.hardtanh_grad import numpy_api
from opsnn.activation.hardtanh_grad.functional_models import hardtanh_grad_910b, hardtanh_grad_arch35
from opsnn.dtypes import bfloat16

ASCEND = ("ascend910b", "ascend950")
MODELS = {"ascend910b": hardtanh_grad_910b, "ascend950": hardtanh_grad_arch35}
DTYPES = (np.float32, np.float16, bfloat16)


def bits(a):
    a = np.ascontiguousarray(a)
    return a.view(f"u{a.itemsize}")


def sample(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    v = np.array(rng.standard_normal(shape) * 2, np.float32)
    pick = np.asarray(rng.random(shape) < 0.3)
    extra = np.array([-1, 1, np.nan, np.inf, -np.inf, -0.0, 0.0, -5], np.float32)
    v[pick] = extra[rng.integers(0, extra.size, int(pick.sum()))]
    return v.astype(dtype)


def test_published_as_opsnn_attribute():
    assert opsnn.hardtanh_backward is numpy_api.hardtanh_backward
    assert "hardtanh_backward" in dir(opsnn)


@pytest.mark.parametrize("semantics", ASCEND)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("backend", ["auto", "fast", "reference"])
def test_ascend_semantics_are_the_models(semantics, dtype, backend):
    g, x = sample(dtype, (5, 7), 1), sample(dtype, (5, 7), 2)
    got = opsnn.hardtanh_backward(g, x, -0.5, 2.0, semantics=semantics, backend=backend)
    np.testing.assert_array_equal(bits(got), bits(MODELS[semantics](x, g, -0.5, 2.0)))


@pytest.mark.parametrize("semantics", ASCEND)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(), (3,), (4, 33)])
def test_emulator_backend_agrees_bit_for_bit(semantics, dtype, shape):
    g, x = sample(dtype, shape, 3), sample(dtype, shape, 4)
    want = opsnn.hardtanh_backward(g, x, -1.0, 1.5, semantics=semantics, backend="reference")
    got = opsnn.hardtanh_backward(g, x, -1.0, 1.5, semantics=semantics, backend="emulator")
    assert got.shape == shape and got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(bits(got), bits(want))


def test_emulator_backend_scalars_and_empty():
    x = np.array([-2, -1, 0, 1, 2], np.float32)
    for lo, hi in ((-2, 2), (np.float16(-1.5), True), (np.array(-0.5), 1e39)):
        for sem in ASCEND:
            want = opsnn.hardtanh_backward(np.ones(5, np.float32), x, lo, hi, semantics=sem)
            got = opsnn.hardtanh_backward(np.ones(5, np.float32), x, lo, hi, semantics=sem, backend="emulator")
            np.testing.assert_array_equal(bits(got), bits(want))
    e = np.zeros((0, 3), np.float16)
    assert opsnn.hardtanh_backward(e, e, semantics="ascend950", backend="emulator").shape == (0, 3)


def test_the_socs_differ_out_of_range():
    g = np.array([-3, np.inf, np.nan, 4], np.float32)
    x = np.array([5, 5, 5, 0], np.float32)
    a = opsnn.hardtanh_backward(g, x, semantics="ascend950")
    b = opsnn.hardtanh_backward(g, x, semantics="ascend910b")
    np.testing.assert_array_equal(bits(a), bits(np.array([0, 0, 0, 4], np.float32)))
    assert np.signbit(b[0]) and np.isnan(b[1:3]).all() and b[3] == 4


@pytest.mark.parametrize("semantics", ASCEND)
def test_ascend_refusals(semantics):
    f32, f16 = np.ones((2, 3), np.float32), np.ones((2, 3), np.float16)
    for backend in ("auto", "emulator"):
        with pytest.raises(TypeError):
            opsnn.hardtanh_backward(f32, f16, semantics=semantics, backend=backend)  # no promotion
        with pytest.raises(TypeError):
            opsnn.hardtanh_backward(np.ones(3), np.ones(3), semantics=semantics, backend=backend)  # float64
        with pytest.raises(TypeError):
            opsnn.hardtanh_backward(np.ones(3, np.int32), np.ones(3, np.int32), semantics=semantics, backend=backend)
        with pytest.raises(ValueError):
            opsnn.hardtanh_backward(np.ones((1, 3), np.float32), f32, semantics=semantics, backend=backend)
        with pytest.raises(ValueError):
            opsnn.hardtanh_backward(np.ones((1,) * 9, np.float32), np.ones((1,) * 9, np.float32),
                                    semantics=semantics, backend=backend)


def test_names_and_scalars_are_checked():
    f = np.ones(3, np.float32)
    with pytest.raises(ValueError):
        opsnn.hardtanh_backward(f, f, semantics="cuda")
    with pytest.raises(TypeError):
        opsnn.hardtanh_backward(f, f, backend=1)
    with pytest.raises(ValueError):
        opsnn.hardtanh_backward(f, f, backend="emulator")  # torch semantics on the device
    for bad in ("1", None, [1.0], 1j, np.ones(2)):
        with pytest.raises(TypeError):
            opsnn.hardtanh_backward(f, f, bad)
    with pytest.raises(ValueError):
        opsnn.hardtanh_backward(f, f, 2**64)


@pytest.mark.parametrize("semantics", ("torch", *ASCEND))
def test_out_and_no_mutation(semantics):
    g, x = sample(np.float16, (4, 5), 5), sample(np.float16, (4, 5), 6)
    g0, x0 = g.copy(), x.copy()
    want = opsnn.hardtanh_backward(g, x, semantics=semantics)
    np.testing.assert_array_equal(bits(g), bits(g0))
    np.testing.assert_array_equal(bits(x), bits(x0))
    out = np.empty_like(g)
    assert opsnn.hardtanh_backward(g, x, semantics=semantics, out=out) is out
    np.testing.assert_array_equal(bits(out), bits(want))
    # out may be an input
    gg = g.copy()
    assert opsnn.hardtanh_backward(gg, x, semantics=semantics, out=gg) is gg
    np.testing.assert_array_equal(bits(gg), bits(want))
    xx = x.copy()
    opsnn.hardtanh_backward(g, xx, semantics=semantics, out=xx)
    np.testing.assert_array_equal(bits(xx), bits(want))
    with pytest.raises(TypeError):
        opsnn.hardtanh_backward(g, x, semantics=semantics, out=np.empty((4, 5), np.float32))
    with pytest.raises(ValueError):
        opsnn.hardtanh_backward(g, x, semantics=semantics, out=np.empty((5, 4), np.float16))
    with pytest.raises(TypeError):
        opsnn.hardtanh_backward(g, x, semantics=semantics, out=[0] * 20)
    ro = np.empty_like(g)
    ro.flags.writeable = False
    with pytest.raises(ValueError):
        opsnn.hardtanh_backward(g, x, semantics=semantics, out=ro)


def test_torch_semantics_backends_agree_without_torch():
    g = sample(np.float32, (3, 50), 8)
    x = sample(np.float32, (50,), 9)
    a = opsnn.hardtanh_backward(g, x, 0, 6)
    b = opsnn.hardtanh_backward(g, x, 0, 6, backend="reference")
    np.testing.assert_array_equal(bits(a), bits(b))
    assert a.shape == (3, 50)


def test_lists_and_python_scalars():
    assert opsnn.hardtanh_backward([1.0, 2.0, 3.0], [-2.0, 0.0, 2.0]).tolist() == [0.0, 2.0, 0.0]
    assert opsnn.hardtanh_backward(2.0, 0.5).shape == ()


@pytest.mark.parametrize("dtype", DTYPES + (np.float64,))
def test_fast_equals_reference_on_every_bit_pattern(dtype):
    """Random bit patterns (every NaN payload, signalling ones included, denormals, infinities),
    bounds among them: the fast paths give the functional models' bits."""
    rng = np.random.default_rng(11)
    u = np.dtype(f"u{np.dtype(dtype).itemsize}")
    g = rng.integers(0, np.iinfo(u).max, 4099, dtype=u, endpoint=True).view(dtype)
    x = rng.integers(0, np.iinfo(u).max, 4099, dtype=u, endpoint=True).view(dtype)
    specials = np.array([-1.0, 1.0, 0.5, -0.0, np.nan, np.inf, -np.inf], np.float32).astype(dtype)
    x[::7] = specials[rng.integers(0, 7, x[::7].size)]
    semantics = ("torch",) if dtype == np.float64 else ("torch", *ASCEND)
    for sem in semantics:
        for lo, hi in ((-1.0, 1.0), (0.0, 6.0), (float("nan"), 1.0), (3.0, -3.0)):
            fast = opsnn.hardtanh_backward(g, x, lo, hi, semantics=sem, backend="fast")
            ref = opsnn.hardtanh_backward(g, x, lo, hi, semantics=sem, backend="reference")
            np.testing.assert_array_equal(bits(fast), bits(ref), err_msg=f"{sem} {lo} {hi}")


@pytest.mark.parametrize("semantics", ("torch", *ASCEND))
def test_strided_out_and_inputs(semantics):
    base_g = sample(np.float32, (6, 8), 12)
    base_x = sample(np.float32, (6, 8), 13)
    g, x = base_g[::2, ::2], base_x.T[::2, ::2].T  # non-contiguous views, shape (3, 4)
    g[0, 0] = np.inf
    want = opsnn.hardtanh_backward(np.ascontiguousarray(g), np.ascontiguousarray(x), semantics=semantics,
                                   backend="reference")
    holder = np.full((3, 8), 7, np.float32)
    out = holder[:, ::2]
    assert opsnn.hardtanh_backward(g, x, semantics=semantics, out=out) is out
    np.testing.assert_array_equal(bits(out), bits(want))
    assert (holder[:, 1::2] == 7).all()


@pytest.mark.parametrize("dtype", [np.float16, np.float32], ids=str)
def test_zero_d_inputs_warn_nothing(dtype):
    """0-d grad and x on the 910B fast path: the mask arithmetic wraps silently (it warned
    'overflow encountered in scalar subtract'; found by make fuzz)."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kept = opsnn.hardtanh_backward(np.array(2.0, dtype), np.array(0.5, dtype), -1, 1, semantics="ascend910b")
        dropped = opsnn.hardtanh_backward(np.array(-2.0, dtype), np.array(5.0, dtype), -1, 1, semantics="ascend910b")
    assert kept == 2.0 and dropped == 0.0 and np.signbit(dropped)  # 0 * -2: -0.0 on the 910B kernel
