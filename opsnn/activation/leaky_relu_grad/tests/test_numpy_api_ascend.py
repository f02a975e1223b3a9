"""opsnn.leaky_relu_backward under the ascend semantics: the checks of aclnnLeakyReluBackward as
Python errors, the functional models as the result, and the three backends agreeing bit for bit
(NaN payloads included) -- the emulator one running the aclnn path on an emulated device."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from opsnn.activation.leaky_relu_grad import functional_models as fm
from opsnn.activation.leaky_relu_grad.numpy_api import CHUNK, leaky_relu_backward
from opsnn.dtypes import bfloat16

from .torch_oracle import same, torch_leaky_relu_backward

FAMILIES = ["ascend910b", "ascend950"]
DTYPES = [np.dtype(np.float16), bfloat16, np.dtype(np.float32), np.dtype(np.float64)]
SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 3.0, -7.0, 1e-6, 65504.0], np.float64)


def values(rng, dtype, shape):
    v = np.where(rng.random(shape) < 0.4, rng.choice(SPECIAL, shape), rng.standard_normal(shape) * 4)
    with np.errstate(over="ignore"):
        return v.astype(dtype)


def bits(a):
    a = np.asarray(a)
    return a.view(f"u{a.itemsize}")


@settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, max_side=6),
       dtypes=st.tuples(st.sampled_from(DTYPES), st.sampled_from(DTYPES)),
       slope=st.one_of(st.sampled_from([0.0, 0.01, -0.3, 7e4, float("nan"), -np.inf, 1]),
                       st.floats(-1e3, 1e3, width=32)),
       semantics=st.sampled_from(FAMILIES), seed=st.integers(0, 2**31))
def test_backends_agree_bit_for_bit(shapes, dtypes, slope, semantics, seed):
    rng = np.random.default_rng(seed)
    g, x = values(rng, dtypes[0], shapes.input_shapes[0]), values(rng, dtypes[1], shapes.input_shapes[1])
    results = {}
    for backend in ("fast", "reference", "emulator"):
        try:
            results[backend] = leaky_relu_backward(g, x, slope, semantics=semantics, backend=backend)
        except RuntimeError as e:  # the 950 tiling's refusal of an empty gradOutput: every backend alike
            results[backend] = type(e)
    first = results["reference"]
    for backend, r in results.items():
        if isinstance(first, type):
            assert r is first, backend
        else:
            assert r.dtype == first.dtype and r.shape == first.shape
            np.testing.assert_array_equal(bits(r), bits(first), err_msg=backend)


@pytest.mark.parametrize("semantics", FAMILIES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_large_arrays_fast_equals_reference(semantics, dtype):
    rng = np.random.default_rng(2)
    g, x = values(rng, dtype, (2 * CHUNK + 5,)), values(rng, dtype, (2 * CHUNK + 5,))
    for slope in (0.1, -2.0, 0.0):
        fast = leaky_relu_backward(g, x, slope, semantics=semantics)
        ref = leaky_relu_backward(g, x, slope, semantics=semantics, backend="reference")
        np.testing.assert_array_equal(bits(fast), bits(ref))


@pytest.mark.parametrize("dtype", [np.float16, bfloat16, np.float32])
def test_ascend950_equals_torch_for_same_dtype_inputs(dtype):
    """The DAG is torch's formula (float32 product, one rounding): equal where the slope is a float32."""
    rng = np.random.default_rng(4)
    g, x = values(rng, dtype, (500,)), values(rng, dtype, (500,))
    for slope in (0.01, -3.5, 0.0, float("nan")):
        assert same(leaky_relu_backward(g, x, slope, semantics="ascend950"),
                    torch_leaky_relu_backward(g, x, slope, False))


def test_ascend910b_rounds_the_slope_to_half_types():
    g, x = np.array([3.0, 7.0, -5.0], np.float16), -np.ones(3, np.float16)
    np.testing.assert_array_equal(leaky_relu_backward(g, x, 0.1, semantics="ascend910b"), g * np.float16(0.1))
    assert (leaky_relu_backward(g, x, 0.1, semantics="ascend910b")
            != leaky_relu_backward(g, x, 0.1, semantics="ascend950")).any()
    assert np.isnan(leaky_relu_backward(np.zeros(1, np.float16), -np.ones(1, np.float16), 1e5,
                                        semantics="ascend910b")).all()  # the slope is inf in half: 0 * inf
    assert leaky_relu_backward(np.zeros(1, np.float16), -np.ones(1, np.float16), 1e5, semantics="ascend950")[0] == 0
    f32 = np.array([3.0], np.float32)
    assert same(leaky_relu_backward(f32, -f32, 0.1, semantics="ascend910b"),
                leaky_relu_backward(f32, -f32, 0.1, semantics="ascend950"))


def test_float64_goes_through_aicpu_with_a_float32_slope():
    g, x = np.array([1.0, 1.0]), np.array([-1.0, 1.0])
    for semantics in FAMILIES:
        got = leaky_relu_backward(g, x, 0.1, semantics=semantics)
        assert got[0] == float(np.float32(0.1)) and got[1] == 1.0
    assert leaky_relu_backward(g, x, 0.1)[0] == 0.1  # torch multiplies by the double


def test_promotion():
    h, b, f, d = (np.ones(2, t) for t in (np.float16, bfloat16, np.float32, np.float64))
    for semantics in FAMILIES:
        assert leaky_relu_backward(h, b, semantics=semantics).dtype == np.float32
        assert leaky_relu_backward(b, f, semantics=semantics).dtype == np.float32
        assert leaky_relu_backward(h, d, semantics=semantics).dtype == np.float64
        assert leaky_relu_backward(np.float16(1), np.ones(2, np.float32), semantics=semantics).dtype == np.float32


@pytest.mark.parametrize("semantics", FAMILIES)
def test_checks_in_order(semantics):
    f = np.ones(3, np.float32)
    with pytest.raises(TypeError, match="grad dtype int32"):
        leaky_relu_backward(np.ones(3, np.int32), np.ones((2, 2), np.uint8), semantics=semantics)
    with pytest.raises(TypeError, match="x dtype bool"):
        leaky_relu_backward(f, np.ones(3, bool), semantics=semantics)
    for slope in (np.uint16(1), np.uint32(1), 2**63, np.longdouble(1)):
        with pytest.raises(TypeError, match="negative_slope"):
            leaky_relu_backward(f, f, slope, semantics=semantics)
    with pytest.raises(ValueError, match="64-bit"):
        leaky_relu_backward(f, f, 2**64, semantics=semantics)
    with pytest.raises(ValueError, match="rank 9"):
        leaky_relu_backward(np.ones((1,) * 9, np.float32), f, semantics=semantics)
    with pytest.raises(ValueError, match="broadcastable"):
        leaky_relu_backward(np.ones((2, 3), np.float32), np.ones((4, 3), np.float32), -1.0, True, semantics=semantics)
    with pytest.raises(ValueError, match="must not be negative"):
        leaky_relu_backward(f, f, -1, True, semantics=semantics)
    for slope in (float("nan"), -0.0, np.float16(0), True, np.int8(3), bfloat16.type(0.5)):
        assert leaky_relu_backward(f, f, slope, True, semantics=semantics).shape == (3,)  # NaN passes here
    for backend in ("reference", "emulator"):  # the emulator refuses the same way (through aclnn)
        with pytest.raises(ValueError):
            leaky_relu_backward(f, f, -1, True, semantics=semantics, backend=backend)


@pytest.mark.parametrize("backend", ["fast", "reference", "emulator"])
def test_empty(backend):
    for semantics in FAMILIES:
        r = leaky_relu_backward(np.ones((1, 3), np.float16), np.ones((0, 3), np.float32), semantics=semantics,
                                backend=backend)
        assert r.shape == (0, 3) and r.dtype == np.float32
    r = leaky_relu_backward(np.ones((0, 3), np.float16), np.ones((1, 3), np.float16), semantics="ascend910b",
                            backend=backend)
    assert r.shape == (0, 3)
    with pytest.raises(RuntimeError, match="561103"):  # the arch35 tiling refuses the 0 dim (docs §9.5)
        leaky_relu_backward(np.ones((0, 3), np.float16), np.ones((1, 3), np.float16), semantics="ascend950",
                            backend=backend)


def test_emulator_out_and_inputs_untouched():
    g = np.array([[1.0, -2.0, 3.0]], np.float32)
    x = np.array([[1.0], [-1.0]], np.float32)
    g0, x0 = g.copy(), x.copy()
    out = np.empty((2, 3), np.float32)
    assert leaky_relu_backward(g, x, 0.5, semantics="ascend950", backend="emulator", out=out) is out
    np.testing.assert_array_equal(out, [[1.0, -2.0, 3.0], [0.5, -1.0, 1.5]])
    np.testing.assert_array_equal(g, g0)
    np.testing.assert_array_equal(x, x0)


def test_models_agree_with_the_formula():
    g = np.array([2.0, np.inf, 3.0], np.float32)
    x = np.array([1.0, -1.0, np.nan], np.float32)
    for model in (fm.leaky_relu_grad_arch35, fm.leaky_relu_grad_910b):
        np.testing.assert_array_equal(model(g, x, 0.5), [2.0, np.inf, 1.5])
    with pytest.raises(TypeError):
        fm.leaky_relu_grad_arch35(g, x.astype(np.float16), 0.5)
    with pytest.raises(TypeError):
        fm.leaky_relu_grad_aicpu(g, x, 0.5)
    assert fm.promote_type(np.float16, bfloat16) == np.float32


@pytest.mark.parametrize("slope", [bfloat16.type(0.5), np.int32(1), np.float16(0.25), np.float32(0.1), True,
                                   np.uint8(2), np.int8(-3), np.int16(-2), 7, np.int64(-2), 2**63 - 1, 0.1])
def test_every_scalar_dtype_travels_the_same_through_the_emulator(slope):
    rng = np.random.default_rng(6)
    for dtype in (np.float16, bfloat16, np.float32, np.float64):
        g, x = values(rng, dtype, (40,)), values(rng, dtype, (40,))
        for semantics in FAMILIES:
            ref = leaky_relu_backward(g, x, slope, semantics=semantics, backend="reference")
            emu = leaky_relu_backward(g, x, slope, semantics=semantics, backend="emulator")
            np.testing.assert_array_equal(bits(emu), bits(ref))
