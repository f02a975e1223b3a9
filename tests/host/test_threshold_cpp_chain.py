"""opsnn's own ThresholdGradV2D as a C++ operator folder, end to end (issue 33 item 6): its C++
op_api (checks, Contiguous, BroadcastTo, ViewCopy), op_host (def, infershape, tiling) and
op_kernel -- and ReluGrad's, which the op_api reaches at |threshold| <= FLT_EPSILON -- built by the
host twin and called from numpy, equal the Python operator under ascend910b semantics bit for bit;
the C++ tilings give the Python tilings' bytes over a sweep; the C++ example runs through
`opsnn run`; mistakes in each layer are named errors."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import opsnn
from opsnn.activation.relu_grad.op_host import tiling as relu_grad_tiling
from opsnn.activation.threshold_grad_v2_d.op_host import tiling as threshold_tiling
from opsnn.dtypes import bfloat16, to_numpy
from opsnn.platform import get_platform

ROOT = Path(__file__).resolve().parents[2]
OP_DIR = ROOT / "opsnn" / "activation" / "threshold_grad_v2_d"
DRIVER = Path(__file__).resolve().parent / "cpp" / "tiling_driver.cpp"
DTYPES = ("float32", "float16", "bfloat16", "int32", "int8", "uint8")
GE_CODES = {"float32": 0, "float16": 1, "int8": 2, "int32": 3, "uint8": 4, "bfloat16": 27, "int64": 9}


@pytest.fixture(scope="module")
def op():
    host = pytest.importorskip("opsnn.host.operator")
    try:
        return host.load_operator(OP_DIR)
    except Exception as e:  # no compiler or no shared libpython here
        if type(e).__name__ == "BuildUnavailable":
            pytest.skip(f"the host twin cannot be built here: {e}")
        raise


def _bits(a) -> list[int]:
    a = np.asarray(a)
    return a.reshape(-1).view(f"u{a.dtype.itemsize}").tolist()


def _inputs(dtype: str, shape, threshold: float, seed: int):
    rng = np.random.default_rng(seed)
    t = to_numpy(dtype)
    n = int(np.prod(shape))
    if t.kind in "iu":
        info = np.iinfo(t)
        grad = rng.integers(info.min, info.max, n, endpoint=True).astype(t)
        feature = rng.integers(max(info.min, -4), min(info.max, 4), n, endpoint=True).astype(t)
    else:
        special = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, threshold, 1e-30], np.float32)
        grad = (rng.standard_normal(n) * 3).astype(np.float32)
        feature = (rng.standard_normal(n) * 3).astype(np.float32)
        grad[rng.integers(0, n, max(1, n // 8))] = rng.choice(special, max(1, n // 8))
        feature[rng.integers(0, n, max(1, n // 4))] = rng.choice(special, max(1, n // 4))
        grad, feature = grad.astype(t), feature.astype(t)
    return grad.reshape(shape), feature.reshape(shape)


# 40,000 elements: several cores with big and small shares; 0.0: the op_api's ReluGrad path
CHAIN_CASES = {1.0: ((2, 2), (3, 1001), (40_000,)), -0.5: ((3, 1001),), 0.0: ((2, 2), (40_000,))}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("threshold", list(CHAIN_CASES))
def test_the_cpp_chain_equals_the_python_operator(op, dtype, threshold):
    for seed, shape in enumerate(CHAIN_CASES[threshold]):
        grad, feature = _inputs(dtype, shape, threshold, seed)
        scalar = np.float32(threshold)
        got = op.call("aclnnThresholdBackward", grad, feature, scalar, np.empty_like(grad))
        want = opsnn.threshold_backward(grad, feature, threshold, semantics="ascend910b")
        assert got.shape == want.shape and got.dtype == want.dtype
        assert _bits(got) == _bits(want), (dtype, threshold, shape)


def test_broadcast_and_empty_inputs(op):
    grad = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
    feature = np.array([[0.5], [2.0]], np.float32)  # (2, 1): the op_api expands it
    got = op.call("aclnnThresholdBackward", grad, feature, np.float32(1.0), np.empty((2, 3), np.float32))
    assert _bits(got) == _bits(opsnn.threshold_backward(grad, feature, 1.0, semantics="ascend910b"))
    empty = np.empty((2, 0), np.float32)
    assert op.call("aclnnThresholdBackward", empty, empty, np.float32(1.0), empty).shape == (2, 0)


def test_phase_one_refusals_are_the_python_operators_codes(op):
    host = pytest.importorskip("opsnn.host.operator")
    f32, i64 = np.zeros(4, np.float32), np.zeros(4, np.int64)
    cases = [((f32, f32.astype(np.float16), np.float32(1), f32), 161002),  # dtypes differ
             ((i64, i64, np.float32(1), i64), 161002),  # not an Atlas A2 dtype
             ((np.zeros((2, 3), np.float32), np.zeros((3, 2), np.float32), np.float32(1),
               np.zeros((2, 3), np.float32)), 161002),  # not broadcastable
             ((f32, f32, np.float32(1), np.zeros(5, np.float32)), 161002)]  # out of another shape
    for args, status in cases:
        with pytest.raises(host.OperatorError) as e:
            op.call("aclnnThresholdBackward", *args)
        assert e.value.status == status, (args, e.value)


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    pytest.importorskip("opsnn.host.op_build")
    from opsnn.host.op_build import BuildStats, OperatorBuild
    from opsnn.host.op_folder import OperatorFolder

    build = OperatorBuild(OperatorFolder(OP_DIR), "Ascend910B2")
    stats = BuildStats()
    objects = build.compile([*build.sources(), DRIVER], stats)
    return build.link(objects, tmp_path_factory.mktemp("driver") / "tiling_driver", shared=False, stats=stats)


def _cpp_tilings(driver: Path, lines: list[str]) -> list[str]:
    done = subprocess.run([str(driver)], input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=600, env={"PATH": "/usr/bin:/bin", "OPSNN_KT_PYTHON": sys.executable})
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


SIZES = (1, 2, 31, 256, 6976, 6977, 65_537, 700_001, 3 * 2**20 + 5)


def test_the_cpp_tilings_give_the_python_tilings_bytes(driver):
    cases, want = [], []
    for soc in ("Ascend910B2", "Ascend910B3"):
        platform = get_platform(soc)
        for dtype in DTYPES:
            for n in SIZES:
                for op_type in ("ThresholdGradV2D", "ReluGrad"):
                    if op_type == "ThresholdGradV2D":
                        r = threshold_tiling(n, dtype, -0.75, platform)
                        cases.append(f"{op_type} {GE_CODES[dtype]} {n} {soc} -0.75")
                    else:
                        r = relu_grad_tiling(n, dtype, platform)
                        cases.append(f"{op_type} {GE_CODES[dtype]} {n} {soc}")
                    want.append(f"ok {r.block_dim} {r.tiling_key} {r.workspace_size} {r.tiling_data.to_bytes().hex()}")
    assert _cpp_tilings(driver, cases) == want


def test_the_cpp_tilings_refuse_what_the_python_ones_refuse(driver):
    got = _cpp_tilings(driver, [f"ThresholdGradV2D {GE_CODES['int64']} 16 Ascend910B2 1.0",
                                f"ReluGrad {GE_CODES['float32']} 0 Ascend910B2"])
    assert got[0].startswith("failed") and "ThresholdGradV2D does not support" in got[0], got[0]
    assert got[1].startswith("failed") and "cannot tile 0 elements" in got[1], got[1]


def test_the_cpp_example_runs_through_opsnn_run():
    pytest.importorskip("opsnn.host.run")
    example = OP_DIR / "examples" / "test_aclnn_threshold_backward.cpp"
    done = subprocess.run([sys.executable, "-m", "opsnn", "run", str(example)], capture_output=True, text=True,
                          timeout=1200)
    assert done.returncode == 0, done.stderr[-3000:]
    printed = [float(line.rsplit(":", 1)[1]) for line in done.stdout.splitlines() if line.startswith("result[")]
    assert printed == [0.0, 4.4, 4.3, 4.2] or np.allclose(printed, [0.0, 4.4, 4.3, 4.2])


def test_bfloat16_goes_through_as_its_bits(op):
    grad = np.array([1.5, -2.0, 3.0, np.nan], np.float32).astype(bfloat16)
    feature = np.array([2.0, 0.5, -1.0, 2.0], np.float32).astype(bfloat16)
    got = op.call("aclnnThresholdBackward", grad, feature, np.float32(1.0), np.empty_like(grad))
    assert _bits(got) == _bits(opsnn.threshold_backward(grad, feature, 1.0, semantics="ascend910b"))
