"""The emulated arch35 ThresholdV2 kernel against the functional model (and the model against the
oracle on the same data): every dtype, both variants, NaN / inf / -0.0, thresholds and values at
the dtype's limits, many cores and many tiles, under the sanitizer, which must find nothing."""

import numpy as np
import pytest

from opsnn.activation.threshold_v2.functional_models import threshold_v2_arch35
from opsnn.platform import Platform

from .. import oracle as o
from .kernel_run import launch

UT_PLATFORM = Platform.custom(245760, 64, "ascend950")
SMALL_UB = Platform.custom(16384, 4, "ascend950")  # tiles of 256..3072 elements: many tiles per core


def limits(dtype: np.dtype) -> list:
    """Thresholds / values at the dtype's boundaries, already of the dtype (the host's job)."""
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return [info.min, info.max, 0, info.min + 1, info.max - 1]
    with np.errstate(over="ignore"):
        return list(np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 65504.0, 3.3895e38, 1e-45, 1.0],
                             np.float64).astype(np.float32).astype(dtype))


def check(x, t, v, platform):
    """Kernel == model, bit for bit, sanitizer silent; returns the kernel's y."""
    dtype = x.dtype
    thr = np.full(1, t, dtype)
    val = None if v is None else np.full(1, v, dtype)
    run, result = launch(x, thr, val, platform)
    assert run.report.findings == [], [str(f) for f in run.report.findings[:5]]
    assert result.block_dim == run.report.block_dim
    y = run.outputs["y"]
    expected = threshold_v2_arch35(x, thr, val)
    np.testing.assert_array_equal(o.bits(y), o.bits(expected), err_msg=f"{dtype} t={t!r} v={v!r}")
    return y


@pytest.mark.parametrize("dtype", o.DTYPES, ids=str)
def test_limits_and_specials(dtype):
    rng = np.random.default_rng(3)
    lims = limits(dtype)
    finite = [t for t in lims if not np.isnan(np.float32(t))]
    x = o.edge_values(dtype, 3000, rng, around=finite)
    for i, t in enumerate(lims):  # each limit as the threshold, the next one as the value
        check(x, t, lims[(i + 1) % len(lims)], SMALL_UB)
    check(x, lims[2], None, SMALL_UB)  # no-value variant: value 0


@pytest.mark.parametrize("dtype", o.DTYPES, ids=str)
def test_model_agrees_with_oracle_on_kernel_data(dtype):
    """The oracle works from Python scalars; feed it the same, through the host conversion."""
    rng = np.random.default_rng(5)
    x = o.edge_values(dtype, 600, rng, around=[1.5, -2])
    for t, v in ((1.5, -2), (-2, 1.5), (0, 0)):
        tt, vv = o.scalar_as(t, dtype), o.scalar_as(v, dtype)
        y = check(x, tt[()], vv[()], SMALL_UB)
        np.testing.assert_array_equal(o.bits(y), o.bits(o.forward_950(x, t, v)))


@pytest.mark.parametrize("n", [1, 255, 256, 257, 4097, 33_000])
@pytest.mark.parametrize("dtype", ["float16", "int64", "bfloat16", "uint8"])
def test_sizes_cores_and_tails(n, dtype):
    dt = o.BF16 if dtype == "bfloat16" else np.dtype(dtype)
    x = o.edge_values(dt, n, np.random.default_rng(n), around=[0])
    check(x, dt.type(0), dt.type(1), SMALL_UB)


def test_many_cores_on_the_ut_platform():
    x = o.edge_values(np.dtype(np.float32), 600_000, np.random.default_rng(1), around=[0.25])
    run, result = launch(x, np.full(1, 0.25, np.float32), np.full(1, -9, np.float32), UT_PLATFORM)
    # 64 cores of ceil(600000 / 64) = 9375 -> 9728 elements (512-aligned): 62 blocks, the last of 6784
    assert result.block_dim == 62 and run.report.ok and run.report.findings == []
    np.testing.assert_array_equal(run.outputs["y"], np.where(x <= np.float32(0.25), np.float32(-9), x))


def test_only_element_0_of_full_shape_scalars_is_read():
    """Upstream's ST feeds threshold / value as full-shape constant tensors; the DAG reads element 0."""
    rng = np.random.default_rng(2)
    x = rng.integers(-100, 101, (28, 65, 4), endpoint=True).astype(np.int8)
    thr = np.full(x.shape, 6, np.int8)
    val = np.full(x.shape, -9, np.int8)
    thr.reshape(-1)[1:] = 100  # garbage past element 0 must not matter
    val.reshape(-1)[1:] = 0
    run, _ = launch(x, thr, val, SMALL_UB)
    assert run.report.findings == []
    np.testing.assert_array_equal(run.outputs["y"].reshape(x.shape), np.where(x <= 6, np.int8(-9), x))


@pytest.mark.parametrize("dtype, lo, hi, t, v", [  # upstream's ST cases (ttk csv), at smaller shapes
    ("int32", -(2**31), 2**31 - 1, -8, -4), ("uint8", 255, 255, -4 % 256, -10 % 256),
    ("int64", -(2**63), 2**63 - 1, -3, -7), ("int8", -100, 100, 6, -9), ("float16", -(2**-7), 2**-7, -7, 3)])
def test_upstream_st_cases(dtype, lo, hi, t, v):
    rng = np.random.default_rng(11)
    dt = np.dtype(dtype)
    if dt.kind == "f":
        x = rng.uniform(lo, hi, 20_000).astype(dt)
    else:
        x = rng.integers(lo, hi, 20_000, endpoint=True, dtype=dt)
    y = check(x, dt.type(t), dt.type(v), SMALL_UB)
    np.testing.assert_array_equal(y, np.where(x <= dt.type(t), dt.type(v), x))  # the golden: torch.threshold
