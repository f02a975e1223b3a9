"""The arch35 ThresholdGradV2D kernel (atvoss broadcast schedules) against the functional model,
bit for bit, over dtypes, broadcast shapes, NaN/inf data and thresholds at the dtype edges; the
sanitizer finds nothing (the copies are exact: no padding is declared, none is touched)."""
from __future__ import annotations

import numpy as np
import pytest

from opsnn.activation.threshold_grad_v2_d.functional_models import arch35_threshold_grad
from opsnn.activation.threshold_grad_v2_d.op_host.arch35 import tiling_arch35
from opsnn.activation.threshold_grad_v2_d.op_kernel.arch35 import run_kernel
from opsnn.op_common.kernel_run import run_exact
from opsnn.platform import Platform, get_platform

from ..op_api.expectations import make
from .kernel_helpers import NP, as_bits

P950 = get_platform("Ascend950")
SMALL = Platform.custom(12288, 8, "ascend950")  # many tiles and split axes past 0 on small shapes
SHAPES = [((300,), (300,)), ((1,), (257,)), ((64, 33), (33,)), ((5, 1, 7), (1, 6, 7)), ((16, 48), (16, 1)),
          ((2, 1, 2048), (2, 3, 2048)), ((3, 4, 5, 6), (4, 1, 6)), ((), ()), ((1, 1), (1,))]
EDGES = {
    "float32": (0.5, -0.0, float("nan"), float("inf"), -float("inf"), 3.4e38),
    "float16": (0.5, 65504.0, 65520.0, 1e-8, float("nan"), -1e5),
    "bfloat16": (0.5, 3.3e38, -1.0, 1.0000001, float("nan")),
    "int32": (0.5, 16777217.0, -16777217.0, 2.0**31, -(2.0**31), 2147483520.0),
    "int8": (0.5, 127.0, 127.5, -128.0, -128.5, 200.0),
    "uint8": (0.5, 255.0, 254.5, -1.0, 0.0),
}


def _run(g: np.ndarray, f: np.ndarray, dtype: str, t: float, platform=P950):
    r = tiling_arch35([g.shape, f.shape], dtype, t, platform)
    shape = np.broadcast_shapes(g.shape, f.shape)
    run = run_exact(run_kernel, platform=platform, block_dim=r.block_dim, tiling=r.tiling_data.to_bytes(),
                    inputs={"gradOutput": g, "self": f}, outputs={"out": (g.dtype, int(np.prod(shape)))},
                    padding={}, dtype=dtype, schedule_mode=r.schedule_mode)
    return run.outputs["out"].reshape(shape), run.report, r


def _make(dt, n, t, rng):
    with np.errstate(over="ignore"):  # thresholds beyond the dtype's range: their neighbours are inf
        return make(dt, n, t, rng)


def _expected(g, f, t):
    gb, fb = (np.ascontiguousarray(a) for a in np.broadcast_arrays(g, f))
    return arch35_threshold_grad(gb, fb, t)


@pytest.mark.parametrize("dtype", list(EDGES))
@pytest.mark.parametrize(("g_shape", "f_shape"), SHAPES, ids=[f"{a}-{b}" for a, b in SHAPES])
def test_matches_the_model(dtype, g_shape, f_shape):
    rng = np.random.default_rng(len(g_shape) * 7 + len(f_shape))
    dt = NP[dtype]
    for t in EDGES[dtype][:3]:
        g = _make(dt, max(1, int(np.prod(g_shape))), t, rng).reshape(g_shape)
        f = _make(dt, max(1, int(np.prod(f_shape))), t, rng).reshape(f_shape)
        out, report, _ = _run(g, f, dtype, t)
        assert report.findings == []
        np.testing.assert_array_equal(as_bits(out), as_bits(_expected(g, f, t)))


@pytest.mark.parametrize("dtype", list(EDGES))
def test_thresholds_at_dtype_edges(dtype):
    rng = np.random.default_rng(3)
    dt = NP[dtype]
    for t in EDGES[dtype]:
        g, f = _make(dt, 700, t, rng), _make(dt, 700, t, rng)
        out, report, _ = _run(g, f, dtype, t)
        assert report.findings == []
        np.testing.assert_array_equal(as_bits(out), as_bits(_expected(g, f, t)))


@pytest.mark.parametrize("dtype", ["float16", "int8", "int32"])
def test_small_ub_many_tiles(dtype):
    rng = np.random.default_rng(5)
    dt = NP[dtype]
    for g_shape, f_shape in (((9, 4, 300), (9, 1, 300)), ((40, 3, 1), (1, 3, 50)), ((5000,), (5000,))):
        g = _make(dt, int(np.prod(g_shape)), 1.0, rng).reshape(g_shape)
        f = _make(dt, int(np.prod(f_shape)), 1.0, rng).reshape(f_shape)
        out, report, r = _run(g, f, dtype, 1.0, SMALL)
        assert report.findings == [] and r.block_dim > 1
        np.testing.assert_array_equal(as_bits(out), as_bits(_expected(g, f, 1.0)))


def test_int32_rounds_through_float32():
    g = np.array([16777217, -16777217, 2**31 - 1, -(2**31), 123456789], np.int32)
    f = np.full(5, 100, np.int32)
    out, _, _ = _run(g, f, "int32", 1.0)
    assert out.tolist() == [16777216, -16777216, 2**31 - 1, -(2**31), 123456792]


def test_nan_feature_and_nan_threshold_keep_grad():
    g = np.array([1.5, -2.0, np.inf], np.float32)
    f = np.array([np.nan, 5.0, -5.0], np.float32)
    out, _, _ = _run(g, f, "float32", 0.5)
    np.testing.assert_array_equal(as_bits(out), as_bits(np.array([1.5, -2.0, 0.0], np.float32)))
    out, _, _ = _run(g, f, "float32", float("nan"))
    np.testing.assert_array_equal(as_bits(out), as_bits(g))


def test_fp16_compares_against_the_float32_threshold():
    f = np.array([1.0, 1.0009765625], np.float16)  # 1 and the next half
    g = np.array([3.0, 4.0], np.float16)
    out, _, _ = _run(g, f, "float16", 1.0001)  # rounds to 1.0 in half, not in float32
    assert out.tolist() == [0.0, 4.0]
