"""The arch35 ReluGrad kernel (atvoss broadcast schedules) against the ReluGrad model, bit for
bit, over every dtype (int64 included), broadcast shapes and inf/NaN gradients; sanitizer clean."""
from __future__ import annotations

import numpy as np
import pytest

from opsnn.activation.relu_grad.functional_models import relu_grad
from opsnn.activation.relu_grad.op_host.arch35 import tiling_arch35
from opsnn.activation.relu_grad.op_kernel.arch35 import run_kernel
from opsnn.dtypes import BY_NAME
from opsnn.op_common.kernel_run import run_exact
from opsnn.platform import get_platform

P950 = get_platform("Ascend950")
SHAPES = [((500,), (500,)), ((1,), (70,)), ((33, 9), (9,)), ((4, 1, 64), (4, 5, 64)), ((), ())]


def _bits(a):
    return np.ascontiguousarray(a).view(f"u{a.dtype.itemsize}")


def _data(dtype, n, rng):
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        v = rng.integers(info.min, info.max, n, endpoint=True).astype(dtype)
        v[: min(n, 3)] = np.array([0, 1, info.min], dtype)[: min(n, 3)]
        return v
    v = (rng.standard_normal(n) * 4).astype(np.float32)
    specials = np.array([np.inf, -np.inf, np.nan, -0.0, 0.0, -np.nan], np.float32)
    v[: min(n, 6)] = specials[: min(n, 6)]
    return rng.permutation(v).astype(dtype) if n > 1 else v.astype(dtype)


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16", "int32", "int8", "uint8", "int64"])
@pytest.mark.parametrize(("g_shape", "f_shape"), SHAPES, ids=[f"{a}-{b}" for a, b in SHAPES])
def test_matches_the_model(dtype, g_shape, f_shape):
    dt = BY_NAME[dtype]
    rng = np.random.default_rng(len(g_shape) + 3 * len(f_shape))
    g = _data(dt, max(1, int(np.prod(g_shape))), rng).reshape(g_shape)
    f = _data(dt, max(1, int(np.prod(f_shape))), rng).reshape(f_shape)
    r = tiling_arch35([g.shape, f.shape], dtype, P950)
    shape = np.broadcast_shapes(g.shape, f.shape)
    run = run_exact(run_kernel, platform=P950, block_dim=r.block_dim, tiling=r.tiling_data.to_bytes(),
                    inputs={"gradients": g, "features": f}, outputs={"backprops": (dt, int(np.prod(shape)))},
                    padding={}, dtype=dtype, schedule_mode=r.schedule_mode)
    assert run.report.findings == []
    gb, fb = (np.ascontiguousarray(a) for a in np.broadcast_arrays(g, f))
    np.testing.assert_array_equal(_bits(run.outputs["backprops"].reshape(shape)), _bits(relu_grad(gb, fb)))


def test_keys_and_refusal():
    assert tiling_arch35([(8,), (8,)], "int64", P950).tiling_key == 7 | 7 << 16
    with pytest.raises(ValueError):
        tiling_arch35([(8,), (8,)], "float64", P950)
