"""ThresholdGradV2D's C++ kernel (op_kernel/threshold_grad_v2_d.{h,cpp}) against the Python kernel,
bit for bit: its op_kernel UT (test_threshold_grad_v2_d.cpp) built by `opsnn ut`'s machinery for
every dtype, fed inputs and opsnn's own multi-core tilings through files, its output compared with
opsnn.threshold_backward(..., semantics="ascend910b", backend="emulator") (the Python kernel
through aclnn). Also its built-in self-checking cases, and a defect the sanitizer must name."""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import opsnn
from opsnn.cpudebug import build as kt_build
from opsnn.cpudebug import ut
from opsnn.dtypes import bfloat16, to_numpy
from opsnn.platform import get_platform

from ....op_host import tiling

HERE = Path(__file__).resolve().parent
UT_SOURCE = HERE / "test_threshold_grad_v2_d.cpp"
SOC = "Ascend910B2"
CPP_TYPES = {"float32": "float", "float16": "half", "bfloat16": "bfloat16_t", "int32": "int32_t", "int8": "int8_t",
             "uint8": "uint8_t"}
FROM_FILES = ["--gtest_also_run_disabled_tests", "--gtest_filter=*DISABLED_from_files"]


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    try:
        kt_build.build()
    except kt_build.BuildUnavailable as e:  # no compiler or no shared libpython here
        pytest.skip(f"the CPU-debug runtime cannot be built: {e}")
    return tmp_path_factory.mktemp("ut-cache")


def _binary(cache: Path, dtype: str) -> Path:
    binary, _, _ = ut.build_binary(UT_SOURCE, [SOC], [f"-DDTYPE_INPUT_GRADIENT={CPP_TYPES[dtype]}"], cache)
    return binary


def _inputs(dtype: str, n: int, threshold: float, seed: int):
    rng = np.random.default_rng(seed)
    t = to_numpy(dtype)
    if t.kind in "iu":
        info = np.iinfo(t)
        grad = rng.integers(info.min, info.max, n, endpoint=True).astype(t)
        feature = rng.integers(max(info.min, -8), min(info.max, 8), n, endpoint=True).astype(t)
        return grad, feature
    special = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, threshold, np.nextafter(threshold, 9)],
                       np.float32)
    grad = (rng.standard_normal(n) * 3).astype(np.float32)
    feature = (rng.standard_normal(n) * 3).astype(np.float32)
    grad[rng.integers(0, n, n // 16)] = rng.choice(special, n // 16)
    feature[rng.integers(0, n, n // 8)] = rng.choice(special, n // 8)
    return grad.astype(t), feature.astype(t)


def _run_cpp(binary: Path, work: Path, grad: np.ndarray, feature: np.ndarray, threshold: float,
             require_clean: bool = True):
    """The C++ kernel on opsnn's tiling for these inputs: (output, block_dim, the runtime's record)."""
    n = grad.size
    result = tiling(n, grad.dtype if grad.dtype != bfloat16 else "bfloat16", threshold, get_platform(SOC))
    data = result.tiling_data
    padded = max(data.big_core_data_num * data.tail_block_num
                 + data.small_core_data_num * (result.block_dim - data.tail_block_num), n)
    for name, values in (("grad", grad), ("feature", feature)):
        full = np.zeros(padded, grad.dtype)
        full[:n] = values
        (work / f"{name}.bin").write_bytes(full.tobytes())
    (work / "tiling.bin").write_bytes(data.to_bytes())
    (work / "case.txt").write_text(f"{padded} {result.block_dim}\n")
    os.environ["OPSNN_CASE_DIR"] = str(work)
    try:
        rc, record = ut.run_program(binary, SOC, True, work, FROM_FILES)
    finally:
        del os.environ["OPSNN_CASE_DIR"]
    assert len(record["launches"]) == 1
    if require_clean:
        assert rc == 0 and record["failures"] == 0, record
    out = np.frombuffer((work / "out.bin").read_bytes(), grad.dtype)[:n]
    return out, result.block_dim, record


@pytest.mark.parametrize("dtype", list(CPP_TYPES))
def test_cpp_kernel_equals_the_python_kernel_bit_for_bit(cache, tmp_path, dtype):
    binary = _binary(cache, dtype)
    for n, threshold, seed in ((2048, 1.0, 0), (50_001, -0.5, 1)):
        grad, feature = _inputs(dtype, n, threshold, seed)
        got, block_dim, _ = _run_cpp(binary, tmp_path, grad, feature, threshold)
        want = opsnn.threshold_backward(grad, feature, threshold, semantics="ascend910b", backend="emulator")
        assert got.view(f"u{got.itemsize}").tolist() == np.asarray(want).view(f"u{got.itemsize}").tolist()
        if n > 10_000:
            assert block_dim > 1  # a multi-core tiling (big and small cores)


UPSTREAM = os.environ.get("OPSNN_UPSTREAM_OPS_NN")  # a checkout of hicann/ops-nn: its kernel is run too


@pytest.mark.skipif(not UPSTREAM, reason="set OPSNN_UPSTREAM_OPS_NN to a checkout of upstream's ops-nn")
@pytest.mark.parametrize("dtype", list(CPP_TYPES))
def test_upstream_kernel_equals_the_python_kernel(cache, tmp_path, dtype):
    """Upstream's unchanged experimental ThresholdGradV2D kernel, driven by this UT's harness on
    opsnn's tilings (a copy of the UT beside a link to upstream's op_kernel folder, so its relative
    #include resolves there), equals the Python kernel bit for bit. Its int8/uint8 path sizes a
    float temporary at 2 bytes an element: the sanitizer names that overflow (a real defect; the
    values still come out right, the overflow lands in UB nothing else uses)."""
    kernel_dir = Path(UPSTREAM) / "experimental" / "activation" / "threshold_grad_v2_d" / "op_kernel"
    assert kernel_dir.is_dir(), kernel_dir
    tree = tmp_path / "op"
    (tree / "tests" / "ut" / "op_kernel").mkdir(parents=True)
    (tree / "op_kernel").symlink_to(kernel_dir)
    test = tree / "tests" / "ut" / "op_kernel" / UT_SOURCE.name
    test.write_text(UT_SOURCE.read_text())
    binary, _, _ = ut.build_binary(test, [SOC], [f"-DDTYPE_INPUT_GRADIENT={CPP_TYPES[dtype]}"], cache)
    work = tmp_path / "work"
    work.mkdir()
    errors = set()
    # the last size gives every core one full tile: where the int8/uint8 temporary overflows
    for n, threshold, seed in ((2048, 1.0, 0), (50_001, -0.5, 1), (700_001, 2.0, 2)):
        grad, feature = _inputs(dtype, n, threshold, seed)
        got, _, record = _run_cpp(binary, work, grad, feature, threshold, require_clean=False)
        want = opsnn.threshold_backward(grad, feature, threshold, semantics="ascend910b", backend="emulator")
        assert got.view(f"u{got.itemsize}").tolist() == np.asarray(want).view(f"u{got.itemsize}").tolist()
        errors |= {(f["kind"], f["instruction"]) for launch in record["launches"] for f in launch["findings"]
                   if f["level"] == "error"}
    # every instruction on the undersized float temporary (the Casts into it, the compare and the
    # select reading it) runs past it
    assert errors == ({("local_tensor_overflow", i) for i in ("Cast", "Compares", "Select")}
                      if dtype in ("int8", "uint8") else set())


def test_the_ut_builtin_cases_pass_for_half(cache, tmp_path):
    rc, record = ut.run_program(_binary(cache, "float16"), SOC, True, tmp_path, [])
    assert rc == 0 and len(record["launches"]) == 3 and all(launch["ok"] for launch in record["launches"])
    assert [launch["block_dim"] for launch in record["launches"]] == [1, 8, 4]
