"""LaunchKernel alone (opsnn_host/launch.h), through a C++ driver with a hand-written tiling
(cpp/launch_driver.cpp): opsnn's own ThresholdGradV2D kernel chosen by its OpDef (the C++ def,
linked in) and run on the emulator; the named errors of the op_kernel layer."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from opsnn.capi.build import BuildUnavailable, compiler
from opsnn.host import build as host_build
from opsnn.host.kernels import Manifest

REPO = Path(__file__).resolve().parents[2]
OP = REPO / "opsnn" / "activation" / "threshold_grad_v2_d"
DRIVER = Path(__file__).resolve().parent / "cpp" / "launch_driver.cpp"


@pytest.fixture(scope="module")
def driver(tmp_path_factory) -> tuple[Path, dict]:
    try:
        host_build.build()
    except BuildUnavailable as e:
        pytest.skip(f"the host twin cannot be built: {e}")
    work = tmp_path_factory.mktemp("launch")
    exe = work / "driver"
    cmd = [*compiler(), *host_build.host_cflags(), f"-I{host_build.SRC_DIR}", f"-I{OP / 'op_kernel'}", "-w", "-g",
           str(DRIVER), str(OP / "op_host" / "threshold_grad_v2_d_def.cpp"), "-o", str(exe),
           *host_build.host_libs()]
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    manifest = Manifest([OP / "op_kernel"], cache_dir=work / "kernels").write(work / "kernels.json")
    env = dict(os.environ, OPSNN_HOST_KERNELS=str(manifest), OPSNN_KT_PYTHON=sys.executable,
               PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]), OPSNN_UT_SANITIZE="on")
    return exe, env


def run(driver, case: str, tmp_path: Path) -> tuple[subprocess.CompletedProcess, str, Path]:
    exe, env = driver
    out = tmp_path / f"{case}.bin"
    done = subprocess.run([str(exe), case, str(out)], capture_output=True, text=True, env=env, timeout=600)
    answer = next((ln for ln in done.stdout.splitlines() if ln.startswith("launch: ")), "")
    return done, answer.removeprefix("launch: "), out


def expected() -> np.ndarray:
    i = np.arange(2048, dtype=np.float32)
    grad = i * np.float32(0.5) - np.float32(3)
    feature = (np.arange(2048) % 7).astype(np.float32) - np.float32(2.5)
    return np.where(feature > np.float32(0.5), grad, np.float32(0))


def test_the_opdefs_float_kernel_runs_on_two_cores_bit_for_bit(driver, tmp_path):
    done, answer, out = run(driver, "ok", tmp_path)
    assert answer == "ok" and done.returncode == 0, done.stderr
    assert np.array_equal(np.fromfile(out, np.float32).view(np.uint32), expected().view(np.uint32))
    assert "kernel threshold_grad_v2_d on 2 core(s) launched at launch_driver.cpp:42: clean" in done.stderr


def test_a_second_launch_reuses_the_loaded_library(driver, tmp_path):
    done, answer, out = run(driver, "twice", tmp_path)
    assert answer == "ok", done.stderr
    assert done.stderr.count("launched at launch_driver.cpp:42: clean (2 core(s)") == 2
    assert np.array_equal(np.fromfile(out, np.float32), expected())


def test_a_dtype_the_opdef_lacks_is_named_with_the_combinations_it_has(driver, tmp_path):
    _, answer, _ = run(driver, "dtype", tmp_path)
    assert answer.startswith("op_kernel: ThresholdGradV2D has no kernel for input_gradient DT_DOUBLE, "
                             "input_feature DT_DOUBLE -> output_backprops DT_DOUBLE: its OpDef (ascend910b) lists")
    assert "input_gradient DT_FLOAT, input_feature DT_FLOAT -> output_backprops DT_FLOAT" in answer


def test_a_tiling_key_without_an_instantiation_names_the_keys_that_exist(driver, tmp_path):
    done, answer, _ = run(driver, "key", tmp_path)
    assert answer.startswith("op_kernel: ThresholdGradV2D (block dim 2, tiling key 7): ")
    assert "no instantiation for this tiling key (7)" in answer
    assert "combinations: 0 (schMode=THRESHOLD_GRAD_V2D_SCH_MODE_0)" in answer
    assert done.returncode == 1  # the session's failure is the program's status


def test_a_block_dim_past_the_data_is_the_sanitizers_finding_with_file_and_line(driver, tmp_path):
    _, answer, _ = run(driver, "overrun", tmp_path)
    assert answer.startswith("op_kernel: ThresholdGradV2D (block dim 3, tiling key 0): ")
    assert "core 2 DataCopy at threshold_grad_v2_d.h:" in answer
    assert "on 3 core(s) launched at launch_driver.cpp:42" in answer


def test_a_soc_the_opdef_has_no_config_for_is_named(driver, tmp_path):
    _, answer, _ = run(driver, "soc", tmp_path)
    assert answer == ("op_kernel: ThresholdGradV2D: its OpDef has no AICore config for ascend950 (Ascend950): "
                      "AICore().AddConfig names ascend910b")
