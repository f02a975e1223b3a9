"""The ReluGrad kernel on the emulator: bit for bit the functional model (a multiply: inf/NaN
grads where the feature is not positive give NaN, negative grads -0.0), sanitizer-clean with the
declared padding, on every dtype, one and many cores and tiles."""
import numpy as np
import pytest

from opsnn.activation.relu_grad import functional_models
from opsnn.activation.relu_grad.op_host import tiling
from opsnn.activation.relu_grad.op_kernel import run_kernel
from opsnn.dtypes import to_numpy
from opsnn.op_common.kernel_run import run_exact
from opsnn.platform import Platform, get_platform

DTYPES = ("float32", "float16", "bfloat16", "int32", "int8", "uint8")
BITS = {1: np.uint8, 2: np.uint16, 4: np.uint32}


def bits(a):
    return np.ascontiguousarray(a).view(BITS[a.dtype.itemsize])


def inputs(dtype, n, rng):
    dt = to_numpy(dtype)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        g = rng.integers(info.min, info.max, n, endpoint=True).astype(dt)
        f = rng.integers(-2, 3, n).clip(info.min, info.max).astype(dt)  # many zeros and +-1
        return g, f
    specials = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-40, -1e-40, 1.0, -1.0], np.float32)
    g = (rng.standard_normal(n) * 3).astype(np.float32)
    f = (rng.standard_normal(n)).astype(np.float32)
    g[rng.integers(0, n, max(1, n // 4))] = rng.choice(specials, max(1, n // 4))
    f[rng.integers(0, n, max(1, n // 4))] = rng.choice(specials, max(1, n // 4))
    return g.astype(dt), f.astype(dt)


def run(grad, feature, platform):
    r = tiling(grad.size, grad.dtype, platform)
    pad = r.padding()
    result = run_exact(run_kernel, platform=platform, block_dim=r.block_dim, tiling=r.tiling_data.to_bytes(),
                       inputs={"gradients": grad, "features": feature}, outputs={"backprops": (grad.dtype, grad.size)},
                       padding=dict.fromkeys(("gradients", "features", "backprops"), pad), dtype=r.dtype)
    return r, result


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n,platform", [(1, "Ascend910B2"), (333, "Ascend910B2"), (70_001, "Ascend910B3"),
                                        (5_000, Platform.custom(4096, 3))])
def test_kernel_is_the_model_bit_for_bit(dtype, n, platform):
    platform = get_platform(platform) if isinstance(platform, str) else platform
    g, f = inputs(dtype, n, np.random.default_rng(n))
    r, result = run(g, f, platform)
    assert result.report.errors == []
    np.testing.assert_array_equal(bits(result.outputs["backprops"]), bits(functional_models.relu_grad(g, f)))


def test_the_multiply_rule_in_exact_values():
    g = np.array([np.inf, -np.inf, np.nan, -3.0, 3.0, -3.0, 2.0] + [1.0] * 57, np.float32)
    f = np.array([0.0, -1.0, -5.0, 0.0, -0.0, 1.0, np.nan] + [1.0] * 57, np.float32)
    _, result = run(g, f, get_platform("Ascend910B2"))
    out = bits(result.outputs["backprops"])[:7]
    # +inf*0 -> +NaN, -inf*0 -> -NaN (the product's sign), NaN*0 -> the NaN, -3*0 -> -0.0, 3*0 -> +0,
    # a positive feature keeps the grad, a NaN feature is not positive
    assert out.tolist() == [0x7FC00000, 0xFFC00000, int(bits(g[2:3])[0] | 0x400000), 0x80000000, 0, 0xC0400000, 0]


def test_many_tiles_per_core_and_big_cores():
    platform = Platform.custom(8192, 5)
    g, f = inputs("bfloat16", 40_003, np.random.default_rng(1))
    r, result = run(g, f, platform)
    assert r.block_dim == 5 and r.tiling_data.final_big_tile_num > 1 and r.tiling_data.tail_block_num > 0
    assert result.report.errors == []
    np.testing.assert_array_equal(bits(result.outputs["backprops"]), bits(functional_models.relu_grad(g, f)))


def test_only_the_last_core_touches_padding():
    g, f = inputs("float32", 100_003, np.random.default_rng(2))
    r, result = run(g, f, get_platform("Ascend910B2"))
    past = [x for x in result.report.findings if x.kind.endswith("past_tensor")]
    assert past and {x.core for x in past} == {r.block_dim - 1} and all(x.level == "expected" for x in past)
