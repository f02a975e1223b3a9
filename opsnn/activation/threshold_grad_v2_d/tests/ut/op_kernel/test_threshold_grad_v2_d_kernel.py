"""The ThresholdGradV2D kernel on the emulator, bit-exact against §6 (sanitizer on throughout)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from opsnn.activation.threshold_grad_v2_d.op_host import ThresholdGradV2DTilingData, tiling
from opsnn.activation.threshold_grad_v2_d.op_kernel import run_kernel
from opsnn.ascendc import GlobalMemory
from opsnn.platform import Platform, get_platform

from .kernel_helpers import DTYPES, NP, THRESHOLDS, alloc_tensor, as_bits, check, random_inputs, reference, run

SMALL = Platform.custom(ub_size=8192, aiv_cores=3)  # tiles of a few hundred elements, 3 cores
TILE = {d: tiling(1, d, 1.0, get_platform()).tiling_data.tile_data_num for d in DTYPES}


def test_upstream_kernel_case():
    """Upstream's own kernel test: float32, 2048 elements, its hand-written tiling, one core."""
    data = ThresholdGradV2DTilingData(
        small_core_data_num=2048, big_core_data_num=2112, final_big_tile_num=1, final_small_tile_num=1,
        tile_data_num=4032, small_tail_data_num=2048, big_tail_data_num=2112, tail_block_num=0, threshold=1.0)
    rng = np.random.default_rng(2048)
    grad = rng.uniform(-3, 3, 2048).astype(np.float32)
    feature = rng.uniform(-3, 3, 2048).astype(np.float32)
    gm = GlobalMemory()
    args = [alloc_tensor(gm, name, arr, 8192) for name, arr in
            (("input_gradient", grad), ("input_feature", feature), ("output_backprops", None))]
    report = run_kernel(gm=gm, platform=Platform.custom(196608, 48), dtype="float32", block_dim=1,
                        tiling=data.to_bytes(), input_gradient=args[0], input_feature=args[1],
                        output_backprops=args[2], sanitize=True)
    assert report.findings == []
    out = gm.bytes_view(args[2].addr, 8192).view(np.float32)
    np.testing.assert_array_equal(out, np.where(feature > 1.0, grad, 0.0).astype(np.float32))


def _sizes(dtype):
    t = TILE[dtype]
    return [1, 2, 63, 64, 65, t - 1, t, t + 1]


@pytest.mark.parametrize("threshold", THRESHOLDS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_sizes_around_blocks_and_tiles(dtype, threshold):
    rng = np.random.default_rng(abs(hash((dtype, threshold))) % 2 ** 32)
    for n in _sizes(dtype):
        g, f = random_inputs(dtype, n, threshold, rng)
        check(dtype, g, f, threshold)


@pytest.mark.parametrize("threshold", THRESHOLDS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_multi_core_big_and_small_cores(dtype, threshold):
    rng = np.random.default_rng(7)
    per_block = 256 // NP[dtype].itemsize
    for blocks in (16, 17, 49):  # not multiples of 3 cores: big and small cores both run
        n = blocks * per_block - 3
        r = tiling(n, dtype, threshold, SMALL)
        d = r.tiling_data
        assert r.block_dim == 3 and 0 < d.tail_block_num < 3  # both kinds of core take part
        g, f = random_inputs(dtype, n, threshold, rng)
        check(dtype, g, f, threshold, SMALL)


@pytest.mark.parametrize("dtype", DTYPES)
def test_multi_core_on_the_default_soc(dtype):
    rng = np.random.default_rng(11)
    n = 100_003
    r = tiling(n, dtype, 1.0, get_platform())
    assert r.block_dim == 48 and r.tiling_data.tail_block_num > 0
    g, f = random_inputs(dtype, n, 1.0, rng)
    report = check(dtype, g, f, 1.0)
    assert report.block_dim == 48


@pytest.mark.parametrize("dtype, thresholds", [
    ("float32", THRESHOLDS), ("float16", (0.25,)), ("bfloat16", (-1.5,)), ("int32", (1.0,)),
    ("int8", (1e30,)), ("uint8", (float("-inf"),)),
])
def test_large_tensor(dtype, thresholds):
    rng = np.random.default_rng(3)
    n = 3 * 1024 * 1024 + 17
    for t in thresholds:
        g, f = random_inputs(dtype, n, t, rng)
        check(dtype, g, f, t)


def test_float_special_values():
    specials = np.array([np.nan, -np.nan, np.inf, -np.inf, -0.0, 0.0, 1e-45, -1e-45, 1e-40, 1.0,
                         np.nextafter(np.float32(1), np.float32(2)), np.float32(3.4028235e38)], dtype=np.float32)
    g = np.tile(specials, len(specials))
    f = np.repeat(specials, len(specials))
    for dtype in ("float32", "float16", "bfloat16"):
        with np.errstate(over="ignore"):
            gd, fd = g.astype(NP[dtype]), f.astype(NP[dtype])
        for t in (1.0, 0.0, -0.0, 1e-45, float("inf"), float("-inf")):
            out, report = run(dtype, gd, fd, t)
            np.testing.assert_array_equal(as_bits(out), as_bits(reference(gd, fd, t, dtype)))
            nan_feature = np.isnan(fd.astype(np.float32))
            assert not as_bits(out)[nan_feature].any()  # NaN features give +0.0
            assert report.errors == []


def test_half_threshold_is_rounded_to_half():
    # 1.0004 is 1.0 in half: a half feature of 1.0 is not above it.
    f = np.full(64, 1.0, dtype=np.float16)
    g = np.full(64, 5.0, dtype=np.float16)
    out, _ = run("float16", g, f, 1.0004)
    assert not out.any()
    out, _ = run("float16", g, f, 0.9997)  # 0.9997 -> 0.99951 in half: 1.0 is above
    assert np.all(out == 5.0)
    out, _ = run("float16", g, f, 0.9999)  # 0.9999 -> 1.0 in half: not above (in float32 it would be)
    assert not out.any()


def test_int32_beyond_2_24_and_extremes():
    big = np.array([2 ** 24, 2 ** 24 + 1, 2 ** 24 + 3, -(2 ** 24 + 1), 2 ** 31 - 1, -(2 ** 31), 2 ** 31 - 64,
                    123456789, -123456789, 0, 1, 2], dtype=np.int32)
    g = np.tile(big, len(big))
    f = np.repeat(big, len(big))
    for t in (1.0, 16777216.0, 16777217.0, 2147483520.0, -1.5):
        out, _ = run("int32", g, f, t)
        np.testing.assert_array_equal(out, reference(g, f, t, "int32"))
    out, _ = run("int32", g, np.full_like(g, 5), 1.0)
    # Grads pass through float32: 2**31-1 becomes 2**31 and saturates back; 2**24+1 loses its last bit.
    assert out[4] == 2 ** 31 - 1 and out[1] == 2 ** 24 and out[2] == 2 ** 24 + 4 and out[5] == -(2 ** 31)
    # A feature of 2**24+1 is 2**24 in float32: not above a threshold of 2**24.
    out, _ = run("int32", np.full(2, 7, np.int32), np.array([2 ** 24 + 1, 2 ** 24 + 3], np.int32), 16777216.0)
    assert list(out) == [0, 7]


@pytest.mark.parametrize("dtype", ["int8", "uint8"])
def test_small_int_extremes(dtype):
    info = np.iinfo(NP[dtype])
    vals = np.arange(info.min, info.max + 1).astype(NP[dtype])
    g = np.tile(vals, len(vals))
    f = np.repeat(vals, len(vals))
    for t in (1.0, -1.5, 0.25, 126.5, 127.0, -128.0, 254.9, 1e30, float("-inf")):
        out, report = run(dtype, g, f, t)
        np.testing.assert_array_equal(out, reference(g, f, t, dtype))
        assert report.errors == []


def test_results_do_not_depend_on_the_sanitizer():
    rng = np.random.default_rng(5)
    for dtype in DTYPES:
        g, f = random_inputs(dtype, 5000, 0.25, rng)
        a, _ = run(dtype, g, f, 0.25, SMALL, sanitize=True)
        b, report = run(dtype, g, f, 0.25, SMALL, sanitize=False)
        np.testing.assert_array_equal(as_bits(a), as_bits(b))
        assert report.findings == []


@settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(dtype=st.sampled_from(DTYPES), n=st.integers(1, 3000),
       threshold=st.one_of(st.sampled_from(THRESHOLDS), st.floats(-300, 300, width=32)),
       seed=st.integers(0, 2 ** 32 - 1))
def test_any_size_and_threshold(dtype, n, threshold, seed):
    g, f = random_inputs(dtype, n, threshold, np.random.default_rng(seed))
    check(dtype, g, f, threshold, SMALL)
