"""The arch35 kernel on the emulator under the sanitizer, bit for bit against the functional
model (upstream tests/ut/op_kernel/test_hardtanh_grad_apt.cpp and its golden)."""
import numpy as np
import pytest

from opsnn.activation.hardtanh_grad.functional_models import hardtanh_grad_arch35
from opsnn.activation.hardtanh_grad.op_host.arch35 import tiling_for
from opsnn.activation.hardtanh_grad.op_kernel.arch35 import HardtanhGradTilingData, run_kernel
from opsnn.ascendc import EmulatorError
from opsnn.atvoss import EleBaseTilingData
from opsnn.dtypes import bfloat16
from opsnn.op_common.kernel_run import run_exact
from opsnn.platform import Platform, get_platform

A950 = get_platform("Ascend950")
SMALL = Platform.custom(16384, 4, "ascend950")  # many tiles per core, ping and pong, 4 cores
DTYPES = {"float16": np.float16, "bfloat16": bfloat16, "float32": np.float32}


def bits(a):
    a = np.ascontiguousarray(a)
    return a.view(f"u{a.itemsize}")


def run(result, grad, lo, hi, platform=A950, tiling=None, key=None, block_dim=None):
    name = {np.dtype(v): k for k, v in DTYPES.items()}[result.dtype]
    t = tiling_for(result.shape, name, lo, hi, platform)
    return run_exact(run_kernel, platform=platform, block_dim=block_dim or t.block_dim,
                     tiling=tiling or t.tiling_data.to_bytes(), inputs={"result": result, "grad": grad},
                     outputs={"y": (result.dtype, result.size)}, padding={}, dtype=name,
                     tiling_key=t.tiling_key if key is None else key)


def specials(rng, dtype, n, lo, hi):
    v = (rng.standard_normal(n) * 2).astype(np.float32)
    pick = rng.random(n) < 0.3
    extra = np.array([lo, hi, np.nan, np.inf, -np.inf, -0.0, 0.0], np.float32)
    v[pick] = extra[rng.integers(0, extra.size, int(pick.sum()))]
    return v.astype(dtype)


def test_upstream_kernel_ut():
    """fp32 x 256, min -1, max 1, the hand-filled base tiling (ubFormer 1024, scheMode 0), <0, 1>."""
    rng = np.random.default_rng(1)
    r, g = rng.uniform(-2, 2, 256).astype(np.float32), rng.uniform(-2, 2, 256).astype(np.float32)
    base = EleBaseTilingData(256, 1, 1024, 256, 1, 1, 1, 256, 256, 256, 0)
    raw = HardtanhGradTilingData(base, -1.0, 1.0).to_bytes()
    got = run(r, g, -1.0, 1.0, tiling=raw, key=2, block_dim=1)
    assert got.report.ok and got.report.findings == []
    golden = np.where((r <= -1) | (r >= 1), np.float32(0), g)
    np.testing.assert_array_equal(bits(got.outputs["y"]), bits(golden))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("n", "platform"), [(1, A950), (1000, A950), (70001, SMALL), (300_000, A950)])
def test_matches_the_model_bit_for_bit(dtype, n, platform):
    rng = np.random.default_rng(n)
    lo, hi = -0.75, 1.5
    r, g = specials(rng, DTYPES[dtype], n, lo, hi), specials(rng, DTYPES[dtype], n, lo, hi)
    got = run(r, g, lo, hi, platform)
    assert got.report.ok and got.report.findings == [], got.report.findings[:3]
    np.testing.assert_array_equal(bits(got.outputs["y"]), bits(hardtanh_grad_arch35(r, g, lo, hi)))


def test_semantics_on_the_device():
    r = np.array([-1, 1, -0.999, 0.999, np.nan, -np.inf, np.inf, -0.0, 5, 5, 5], np.float32)
    g = np.array([1, 2, 3, 4, 5, 6, 7, 8, -1, np.inf, np.nan], np.float32)
    y = run(r, g, -1.0, 1.0).outputs["y"]
    want = np.array([0, 0, 3, 4, 5, 0, 0, 8, 0, 0, 0], np.float32)
    np.testing.assert_array_equal(bits(y), bits(want))  # bounds exclusive, NaN self keeps grad, +0.0


@pytest.mark.parametrize(("lo", "hi", "keep"), [
    (2.0, -2.0, [False, False, True]),  # min > max: only NaN self keeps grad
    (float("nan"), 1.0, [False, False, True]),  # a NaN bound compares false both ways
    (float("-inf"), float("inf"), [True, True, True]),
])
def test_odd_bounds(lo, hi, keep):
    r = np.array([0.0, 0.5, np.nan], np.float16)
    g = np.array([1, 2, 3], np.float16)
    y = run(r, g, lo, hi).outputs["y"]
    np.testing.assert_array_equal(y, np.where(keep, g, np.float16(0)))


def test_bounds_are_float32_not_rounded_to_the_tensor_dtype():
    x = np.float16(0.1)  # 0.0999755859375; a float32 max just above it must keep the element
    hi = float(np.nextafter(np.float32(x), np.float32(1)))
    y = run(np.array([x], np.float16), np.array([1], np.float16), -1.0, hi).outputs["y"]
    assert y[0] == 1


def test_bad_launches():
    r = np.zeros(8, np.float32)
    with pytest.raises(EmulatorError, match="block_dim"):
        run(r, r, 0, 1, block_dim=2)
    with pytest.raises(EmulatorError, match="tiling key"):
        run(r, r, 0, 1, key=1)


# upstream's ST rows (tests/st/arch35/ttk_kernel_hardtanh_grad_st.csv) that are small enough here;
# inputs drawn from the rows' ranges (-1, 1) with the listed specials mixed in
ST_ROWS = [
    ("hardtanh_grad_fuzz_57", "bfloat16", (1,), 0.0, -975.75),  # min > max
    ("hardtanh_grad_fp16_001", "bfloat16", (1,), -0.5, 0.8),
    ("hardtanh_grad_fuzz_71", "float16", (23, 25), 511.06, -523.07),  # min > max
    ("hardtanh_grad_fuzz_43", "bfloat16", (30, 8, 22, 21, 11), -502.3696188281812, 0.0),
]


@pytest.mark.parametrize(("name", "dtype", "shape", "lo", "hi"), ST_ROWS, ids=[r[0] for r in ST_ROWS])
def test_st_rows_against_upstreams_golden(name, dtype, shape, lo, hi):
    from opsnn.activation.hardtanh_grad.functional_models import hardtanh_grad_golden
    rng = np.random.default_rng(len(name))
    n = int(np.prod(shape))
    pool = np.array([np.nan, -0.0, np.inf], np.float32)

    def draw():
        v = rng.uniform(-1, 1, n).astype(np.float32)
        pick = rng.random(n) < 0.2
        v[pick] = pool[rng.integers(0, 3, int(pick.sum()))]
        return v.astype(DTYPES[dtype]).reshape(shape)
    r, g = draw(), draw()
    got = run(r.reshape(-1), g.reshape(-1), lo, hi)
    assert got.report.ok and got.report.findings == []
    golden = hardtanh_grad_golden(r, g, lo, hi).reshape(-1)
    y = got.outputs["y"]
    nan = np.isnan(y.astype(np.float32)) & np.isnan(golden.astype(np.float32))
    np.testing.assert_array_equal(bits(y)[~nan], bits(golden)[~nan])
    assert (np.isnan(y.astype(np.float32)) == np.isnan(golden.astype(np.float32))).all()
