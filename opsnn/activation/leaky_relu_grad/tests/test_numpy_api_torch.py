"""opsnn.leaky_relu_backward(semantics="torch") against torch.ops.aten.leaky_relu_backward: bit
for bit (NaN equals NaN), dtypes, promotion, broadcasting, 0-d, errors; hypothesis properties
and fixed cases. Both backends of the torch semantics are checked."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import opsnn
from opsnn.activation.leaky_relu_grad.numpy_api import CHUNK, leaky_relu_backward
from opsnn.dtypes import bfloat16

from .torch_oracle import same, torch_leaky_relu_backward

FLOATS = [np.dtype(np.float16), bfloat16, np.dtype(np.float32), np.dtype(np.float64)]
OTHERS = [np.dtype(np.int8), np.dtype(np.uint8), np.dtype(np.int16), np.dtype(np.int32), np.dtype(np.int64),
          np.dtype(np.bool_)]
SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 1e-8, -1e-8, 65504.0, -65520.0, 3.3895e38, 1e-45]
SLOPES = st.one_of(st.sampled_from([0.0, -0.0, 0.01, 0.2, -0.1, 1.0, -1.0, 458.9240251987642, -752.277139130999,
                                    float("nan"), float("inf"), -float("inf"), 1e-40, 3e38, -3.5e38, 1e300]),
                   st.floats(-1e6, 1e6), st.integers(-1000, 1000), st.booleans())


def values(dtype, shape, draw_seed):
    rng = np.random.default_rng(draw_seed)
    if dtype.kind in "iub":
        return rng.integers(-100 if dtype.kind == "i" else 0, 100, shape).astype(dtype)
    v = np.where(rng.random(shape) < 0.3, rng.choice(SPECIAL, shape), rng.standard_normal(shape) * 10)
    with np.errstate(over="ignore"):
        return v.astype(dtype)


@settings(deadline=None, max_examples=250, suppress_health_check=[HealthCheck.too_slow])
@given(shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4, max_side=5),
       dtypes=st.tuples(st.sampled_from(FLOATS + FLOATS + OTHERS), st.sampled_from(FLOATS + FLOATS + OTHERS)),
       slope=SLOPES, self_is_result=st.booleans(), seed=st.integers(0, 2**32 - 1),
       backend=st.sampled_from(["auto", "fast", "reference"]))
def test_matches_torch(shapes, dtypes, slope, self_is_result, seed, backend):
    g = values(dtypes[0], shapes.input_shapes[0], seed)
    x = values(dtypes[1], shapes.input_shapes[1], seed + 1)
    g0, x0 = g.copy(), x.copy()
    want = torch_leaky_relu_backward(g, x, slope, self_is_result)
    if isinstance(want, type):
        with pytest.raises(want):
            leaky_relu_backward(g, x, slope, self_is_result, backend=backend)
    else:
        got = leaky_relu_backward(g, x, slope, self_is_result, backend=backend)
        assert same(got, want), (got, want)
    assert same(g, g0) and same(x, x0)  # never mutated


@pytest.mark.parametrize("dtype", FLOATS)
def test_large_arrays_take_the_chunked_path(dtype):
    n = 3 * CHUNK + 17
    g, x = values(dtype, (n,), 1), values(dtype, (n,), 2)
    for slope in (0.01, -2.5, float("nan"), 0.0):
        want = torch_leaky_relu_backward(g, x, slope, False)
        assert same(leaky_relu_backward(g, x, slope), want)
        out = np.empty(n, dtype)
        assert leaky_relu_backward(g, x, slope, out=out) is out and same(out, want)


def test_rounding_once_in_float32_for_halves():
    # 0.1 * 3 in float32 rounds to half differently from half(0.1) * half(3)
    g = np.array([3.0, 7.0, 1000.0, -5.0], np.float16)
    x = -np.ones(4, np.float16)
    got = leaky_relu_backward(g, x, 0.1)
    np.testing.assert_array_equal(got, (g.astype(np.float32) * np.float32(0.1)).astype(np.float16))
    assert same(got, torch_leaky_relu_backward(g, x, 0.1, False))
    gb = g.astype(bfloat16)
    assert same(leaky_relu_backward(gb, x.astype(bfloat16), 0.1), torch_leaky_relu_backward(gb, x.astype(bfloat16),
                                                                                           0.1, False))


def test_signed_zeros_inf_and_nan():
    g = np.array([-0.0, 0.0, np.inf, np.inf, np.nan, 2.0, -3.0], np.float32)
    x = np.array([1.0, -1.0, -0.0, 1.0, 2.0, np.nan, 0.0], np.float32)
    got = leaky_relu_backward(g, x, 0.0)
    assert np.signbit(got[0]) and not np.signbit(got[1])  # the grad's -0.0 passes; +0 * 0 = +0
    assert np.isnan(got[2]) and got[3] == np.inf and np.isnan(got[4])  # inf * 0 is NaN: a product, not a select
    assert got[5] == 0.0 and np.signbit(got[6])  # NaN and zero features take the product
    assert same(got, torch_leaky_relu_backward(g, x, 0.0, False))


def test_zero_dim_operands_lift_only_the_category():
    g = np.array(2.5, np.float64)  # a 0-d float64 does not widen an n-d float16
    x = np.array([-1.0, 1.0], np.float16)
    got = leaky_relu_backward(g, x, 0.5)
    assert got.dtype == np.float16 and same(got, torch_leaky_relu_backward(g, x, 0.5, False))
    got = leaky_relu_backward(np.array([1, -2], np.int32), np.array(-1.0, np.float32), 0.5)
    assert got.dtype == np.float32 and list(got) == [0.5, -1.0]
    assert leaky_relu_backward(3.0, -1.0, 0.5) == 1.5  # Python floats: 0-d float64
    with pytest.raises(TypeError, match="not implemented for int64"):
        leaky_relu_backward(3, -1, 0.5)  # Python ints are int64 tensors to torch too: no kernel

def test_errors():
    g = np.ones(3, np.float32)
    with pytest.raises(ValueError, match="self_is_result"):
        leaky_relu_backward(g, g, -0.1, True)
    with pytest.raises(ValueError, match="self_is_result"):
        leaky_relu_backward(g, g, float("nan"), True)  # torch: NaN >= 0 is false
    assert same(leaky_relu_backward(g, g, -0.0, True), g)
    with pytest.raises(TypeError, match="not implemented"):
        leaky_relu_backward(np.ones(3, np.int32), np.ones(3, np.int64))
    with pytest.raises(TypeError):
        leaky_relu_backward(np.ones(3, np.complex64), g)
    with pytest.raises(ValueError, match="broadcast"):
        leaky_relu_backward(np.ones((2, 3)), np.ones((4, 3)))
    with pytest.raises(ValueError, match="overflow"):
        leaky_relu_backward(g, g, 1e39)
    assert np.isinf(leaky_relu_backward(-g, -g, float("inf"))).all()
    assert same(leaky_relu_backward(-g.astype(np.float64), -g.astype(np.float64), 1e39), np.full(3, -1e39))
    with pytest.raises(TypeError, match="real number"):
        leaky_relu_backward(g, g, 1j)
    with pytest.raises(TypeError, match="real number"):
        leaky_relu_backward(g, g, [0.1])
    with pytest.raises(TypeError, match="self_is_result"):
        leaky_relu_backward(g, g, 0.1, "yes")
    with pytest.raises(ValueError, match="unknown semantics"):
        leaky_relu_backward(g, g, semantics="cuda")
    with pytest.raises(TypeError, match="backend must be a str"):
        leaky_relu_backward(g, g, backend=None)
    with pytest.raises(ValueError, match="ascend semantics only"):
        leaky_relu_backward(g, g, backend="emulator")


def test_out():
    g = np.array([1.0, -2.0, 3.0], np.float32)
    x = np.array([1.0, -1.0, -1.0], np.float32)
    out = np.empty(3, np.float32)
    assert leaky_relu_backward(g, x, 0.5, out=out) is out and list(out) == [1.0, -1.0, 1.5]
    assert leaky_relu_backward(g, x, 0.5, out=g) is g and list(g) == [1.0, -1.0, 1.5]  # out may be grad
    with pytest.raises(TypeError, match="dtype"):
        leaky_relu_backward(g, x, out=np.empty(3, np.float64))
    with pytest.raises(ValueError, match="shape"):
        leaky_relu_backward(g, x, out=np.empty(4, np.float32))
    with pytest.raises(TypeError, match="numpy array"):
        leaky_relu_backward(g, x, out=[0.0] * 3)
    frozen = np.empty(3, np.float32)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        leaky_relu_backward(g, x, out=frozen)


def test_published_as_opsnn_leaky_relu_backward():
    assert opsnn.leaky_relu_backward is leaky_relu_backward
    assert "leaky_relu_backward" in dir(opsnn)
    assert list(opsnn.leaky_relu_backward([2.0, 3.0], [1.0, -1.0], 0.01)) == [2.0, 0.03]


def test_empty_and_overlapping_out():
    for g_shape, x_shape in (((0, 3), (1, 3)), ((1, 3), (0, 3)), ((0,), ())):
        g, x = np.ones(g_shape, np.float16), np.ones(x_shape, np.float32)
        want = torch_leaky_relu_backward(g, x, 0.5, False)
        assert same(leaky_relu_backward(g, x, 0.5), want)
    n = 2 * CHUNK + 3
    base = values(np.dtype(np.float32), (n + 5,), 9)
    x = values(np.dtype(np.float32), (n,), 10)
    want = torch_leaky_relu_backward(base[:n].copy(), x, 0.25, False)
    out = base[5:]  # overlaps grad shifted by 5 elements: must not be written chunk by chunk
    assert leaky_relu_backward(base[:n], x, 0.25, out=out) is out and same(out, want)
    g = values(np.dtype(np.float32), (n,), 11)
    want = torch_leaky_relu_backward(g, x, 0.25, False)
    assert leaky_relu_backward(g, x, 0.25, out=x) is x and same(x, want)  # out may be x itself


@pytest.mark.parametrize("slope", [2**63, 2**64 - 1, -(2**63), 2**53 + 1, 2**64, -(2**63) - 1, 2**70])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_integer_slopes_at_the_edges(slope, dtype):
    g = np.array([1.0, -1.0, 3.0], dtype)
    x = -np.ones(3, dtype)
    want = torch_leaky_relu_backward(g, x, slope, False)
    if want is ValueError:
        assert slope >= 2**64 or slope < -(2**63)
        with pytest.raises(ValueError, match="64-bit"):
            leaky_relu_backward(g, x, slope)
    else:
        assert same(leaky_relu_backward(g, x, slope), want)


@pytest.mark.parametrize("n", [3, 15, 16, 17, 64, 1000, 70_000])
@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_nan_bits_are_torchs_on_this_cpu(dtype, n):
    """inf * 0 is the CPU's default NaN (x86: 0xFFC00000, negative), not a NaN with the grad's sign;
    bfloat16 NaNs follow torch's loop split (0xFFFF from the vectorised body, 0x7FC0 or the kept
    grad from the scalar one). Exact bits, every element."""
    rng = np.random.default_rng(n)
    specials = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 1.5, -2.5], np.float32)
    g, x = rng.choice(specials, n).astype(dtype), rng.choice(specials, n).astype(dtype)
    for slope in (0.0, -0.0, 0.01, np.inf):
        want = torch_leaky_relu_backward(g, x, slope, False)
        for backend in ("fast", "reference"):
            got = leaky_relu_backward(g, x, slope, backend=backend)
            bits = f"u{got.dtype.itemsize}"
            assert np.array_equal(got.view(bits), want.view(bits)), (backend, slope)
