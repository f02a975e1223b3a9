"""Phase 2 of aclnnHardtanhBackward: the results on both SoCs against the functional models, the
SoCs' difference (out of range: 950 writes +0.0, the 910B TBE kernel 0 * grad), strided inputs
and outputs, 0-d."""
import numpy as np
import pytest

from opsnn import acl
from opsnn.aclnn.testing import bits
from opsnn.activation.hardtanh_grad.functional_models import hardtanh_grad_910b, hardtanh_grad_arch35
from opsnn.dtypes import bfloat16

MODELS = {"Ascend910B2": hardtanh_grad_910b, "Ascend950": hardtanh_grad_arch35}
DTYPES = (np.float32, np.float16, bfloat16)


def values(rng, dtype, shape, lo, hi):
    v = np.array(rng.standard_normal(shape) * 2, np.float32)
    pick = np.asarray(rng.random(shape) < 0.3)
    extra = np.array([lo, hi, np.nan, np.inf, -np.inf, -0.0, 0.0, -5.0], np.float32)
    v[pick] = extra[rng.integers(0, extra.size, int(pick.sum()))]
    return v.astype(dtype)


def compute(dev, g, x, lo, hi, out_dtype=None):
    out = dev.empty(x.shape, out_dtype or x.dtype)
    assert dev.hardtanh_backward(dev.tensor(g), dev.tensor(x), dev.scalar(lo), dev.scalar(hi), out) == 0
    return dev.read(out)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(), (1,), (7, 33), (3, 1000)])
def test_matches_the_models(any_dev, dtype, shape):
    dev = any_dev
    rng = np.random.default_rng(len(shape))
    lo, hi = -0.5, 1.25
    g, x = values(rng, dtype, shape, lo, hi), values(rng, dtype, shape, lo, hi)
    got = compute(dev, g, x, lo, hi)
    want = MODELS[dev.runtime.get_soc_name()](x, g, np.float32(lo), np.float32(hi))
    assert got.shape == shape and got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(bits(got), bits(want))


def test_the_two_socs_differ_only_out_of_range_for_negative_inf_nan_grads(dev, dev950):
    x = np.array([5, 5, 5, 5, -5, 0.5, np.nan], np.float32)
    g = np.array([3, -3, np.inf, np.nan, -0.0, -2, -7], np.float32)
    b910 = compute(dev, g, x, -1.0, 1.0)
    b950 = compute(dev950, g, x, -1.0, 1.0)
    np.testing.assert_array_equal(bits(b950), bits(np.array([0, 0, 0, 0, 0, -2, -7], np.float32)))
    assert np.signbit(b910[[1, 4]]).all() and np.isnan(b910[[2, 3]]).all() and b910[0] == 0
    np.testing.assert_array_equal(b910[5:], [-2, -7])


def test_upstream_example_values(any_dev):
    g = np.arange(8, dtype=np.float32).reshape(4, 2)
    x = np.array([1, 1, 1, 2, 1, 2, 3, 3], np.float32).reshape(4, 2)
    got = compute(any_dev, g, x, 1.2, 2.4)
    np.testing.assert_array_equal(got.reshape(-1), [0, 0, 0, 3, 0, 5, 0, 0])


def test_bounds_are_read_as_float32(any_dev):
    """aclScalar::ToFloat: a double bound just above a float16 value but equal in float32 excludes it."""
    x = np.array([0.1], np.float16)  # 0.0999755859375
    just_above = float(x[0]) + 1e-12  # rounds to float(x) in float32: x >= max -> 0
    assert compute(any_dev, np.ones(1, np.float16), x, -1.0, just_above)[0] == 0
    above = float(np.nextafter(np.float32(x[0]), np.float32(1)))
    assert compute(any_dev, np.ones(1, np.float16), x, -1.0, above)[0] == 1


def test_strided_inputs_and_output(any_dev):
    dev = any_dev
    rng = np.random.default_rng(3)
    storage_g = values(rng, np.float32, (40,), -1, 1)
    storage_x = values(rng, np.float32, (40,), -1, 1)
    g = dev.strided(storage_g, (3, 4), (1, 5), 2)  # a transposed-like view
    x = dev.strided(storage_x, (3, 4), (8, 2), 1)
    out = dev.strided(np.full(64, 9, np.float32), (3, 4), (16, 3), 4)
    assert dev.hardtanh_backward(g, x, dev.scalar(-1.0), dev.scalar(1.0), out) == 0
    gv, xv = dev.read(g), dev.read(x)
    want = MODELS[dev.runtime.get_soc_name()](xv, gv, -1.0, 1.0)
    np.testing.assert_array_equal(bits(dev.read(out)), bits(want))
    storage = dev.read_storage(out)  # the elements outside the view are untouched
    touched = {4 + 16 * i + 3 * j for i in range(3) for j in range(4)}
    assert all(storage[k] == 9 for k in range(64) if k not in touched)


def test_integer_and_half_scalars(any_dev):
    dev = any_dev
    x = np.array([-2, -1, 0, 1, 2], np.float32)
    out = dev.empty(x.shape, np.float32)
    assert dev.hardtanh_backward(dev.tensor(np.ones(5, np.float32)), dev.tensor(x), dev.scalar(-2, acl.ACL_INT64),
                                 dev.scalar(2.0, acl.ACL_FLOAT16), out) == 0
    np.testing.assert_array_equal(dev.read(out), [0, 1, 1, 1, 0])
