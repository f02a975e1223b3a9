"""`opsnn run` (opsnn/host/run.py): an aclnn example built unchanged with opsnn's own C++
ThresholdGradV2D folder (op_host, op_api, op_kernel, and relu_grad, which its op_api reaches) and
run on the emulator; a copy of the folder with one fault per run names the failing layer."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import opsnn

REPO = Path(__file__).resolve().parents[2]
OWN = REPO / "opsnn" / "activation" / "threshold_grad_v2_d"
OWN_EXAMPLE = OWN / "examples" / "test_aclnn_threshold_backward.cpp"
EXAMPLE = Path(__file__).resolve().parent / "cpp" / "threshold_example.cpp"
FAULT = "OPSNN_TEST_FAULT"
HELPER = ('#include <cstdlib>\n#include <cstring>\nstatic bool Fault(const char *what) {\n'
          f'    const char *f = std::getenv("{FAULT}");\n    return f != nullptr && std::strcmp(f, what) == 0;\n}}\n')


pytestmark = pytest.mark.usefixtures("host_twin")  # tests/host/conftest.py


def opsnn_run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "opsnn", "run", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=1800, cwd=REPO)


def values(stdout: str) -> np.ndarray:
    return np.array([float(x) for x in re.findall(r"^(-?[\d.e+-]+|-?nan|-?inf)$", stdout, re.M)], np.float64)


def expected(n: int = 1000) -> np.ndarray:
    i = np.arange(n, dtype=np.float32)
    grad = i * np.float32(0.25) - np.float32(7)
    self = (np.arange(n) % 11).astype(np.float32) * np.float32(0.5) - np.float32(2)
    return opsnn.threshold_backward(grad, self, 0.75, semantics="ascend910b")


def test_the_seeds_example_prints_what_the_device_does_and_reuses_its_build():
    first = opsnn_run(str(OWN_EXAMPLE))
    assert first.returncode == 0, first.stderr
    got = [float(v) for v in re.findall(r"result\[\d+\] is: (\S+)", first.stdout)]
    want = opsnn.threshold_backward(np.float32([4.5, 4.4, 4.3, 4.2]), np.float32([0.2, 1.2, 2.2, 3.2]), 1.0,
                                    semantics="ascend910b")
    assert got == [float(f"{w:f}") for w in want]  # printed with %f
    assert "operators threshold_grad_v2_d, relu_grad" in first.stderr
    again = opsnn_run(str(OWN_EXAMPLE))
    assert again.returncode == 0 and "reused the last build" in again.stderr
    assert again.stdout == first.stdout


def test_an_example_outside_the_folder_with_op_dir_on_48_cores_bit_for_bit():
    done = opsnn_run(str(EXAMPLE), "--op-dir", str(OWN), "--", "3000")
    assert done.returncode == 0, done.stderr
    got = values(done.stdout).astype(np.float32)
    assert np.array_equal(got.view(np.uint32), expected(3000).view(np.uint32))  # %.9g round-trips float32


@pytest.mark.parametrize("args, message", [
    (["no_such_example.cpp"], "no such example: no_such_example.cpp"),
    (["{alone}"], "is in no operator folder"),
    ([str(EXAMPLE), "--op-dir", str(REPO / "docs")], "is no operator folder"),
    ([str(OWN_EXAMPLE), "--soc", "Ascend999"], "Ascend999"),
])
def test_command_problems_are_status_2_by_name(args, message, tmp_path):
    alone = tmp_path / "example.cpp"  # in no operator folder
    alone.write_text(EXAMPLE.read_text())
    done = opsnn_run(*(a.format(alone=alone) for a in args))
    assert done.returncode == 2 and message in done.stderr, done.stderr


@pytest.fixture(scope="module")
def faulty(tmp_path_factory) -> Path:
    """A copy of the folder, its dependency and the block-split header they include by relative
    path, with faults chosen at run time by $OPSNN_TEST_FAULT."""
    root = tmp_path_factory.mktemp("tree")
    for rel in ("activation/threshold_grad_v2_d/op_host", "activation/threshold_grad_v2_d/op_api",
                "activation/threshold_grad_v2_d/op_kernel", "activation/relu_grad", "op_common/op_host"):
        shutil.copytree(REPO / "opsnn" / rel, root / rel, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    op = root / "activation" / "threshold_grad_v2_d"

    def patch(rel: str, old: str, new: str) -> None:
        path = op / rel
        text = path.read_text()
        assert old in text, (rel, old)
        path.write_text(("" if text.startswith(HELPER) else HELPER) + text.replace(old, new))

    patch("op_host/threshold_grad_v2_d_tiling.cpp", "context->SetBlockDim(static_cast<uint32_t>(split.blockDim));",
          'context->SetBlockDim(static_cast<uint32_t>(split.blockDim) + (Fault("blockdim") ? 1 : 0));')
    patch("op_host/threshold_grad_v2_d_tiling.cpp", "SetTilingKey(GET_TPL_TILING_KEY(THRESHOLD_GRAD_V2D_SCH_MODE_0))",
          'SetTilingKey(Fault("key") ? 5 : GET_TPL_TILING_KEY(THRESHOLD_GRAD_V2D_SCH_MODE_0))')
    patch("op_host/threshold_grad_v2_d_infershape.cpp", "    *outShape = *gradShape;\n",
          '    if (Fault("infershape")) return ge::GRAPH_FAILED;\n    *outShape = *gradShape;\n')
    patch("op_host/threshold_grad_v2_d_def.cpp", "const std::vector<ge::DataType> dtypes",
          "std::vector<ge::DataType> dtypes")
    patch("op_host/threshold_grad_v2_d_def.cpp", "ge::DT_INT32,   ge::DT_INT8,  ge::DT_UINT8};",
          "ge::DT_INT32,   ge::DT_INT8,  ge::DT_UINT8};\n"
          '        if (Fault("dtype")) dtypes[1] = ge::DT_DOUBLE;  // float32 leaves the OpDef')
    patch("op_kernel/threshold_grad_v2_d.cpp", "    op.Process();\n",
          "    op.Process();\n#ifdef OPSNN_TEST_BREAK_KERNEL\n    not_a_function();\n#endif\n")
    return op


@pytest.fixture(scope="module")
def fault_run(faulty):
    def run(fault: str) -> subprocess.CompletedProcess:
        return opsnn_run(str(EXAMPLE), "--op-dir", str(faulty), env={FAULT: fault})
    clean = run("")
    assert clean.returncode == 0, clean.stderr
    assert np.array_equal(values(clean.stdout).astype(np.float32), expected())
    return run


def test_a_block_dim_past_the_data_is_found_by_the_sanitizer(fault_run):
    done = fault_run("blockdim")
    assert done.returncode != 0
    m = re.search(r"op_kernel: ThresholdGradV2D \(block dim (\d+), tiling key 0\)", done.stdout + done.stderr)
    assert m is not None, done.stderr
    extra = int(m.group(1)) - 1  # the core the tiling added: it starts past the data
    assert re.search(rf"\[error\] \w+: core {extra} DataCopy at threshold_grad_v2_d\.h:\d+", done.stderr)


def test_a_tiling_key_without_a_kernel_instance_is_named(fault_run):
    done = fault_run("key")
    assert done.returncode != 0
    assert "no instantiation for this tiling key (5)" in done.stderr
    assert "0 (schMode=THRESHOLD_GRAD_V2D_SCH_MODE_0)" in done.stderr


def test_an_op_api_launching_a_dtype_its_opdef_lacks_is_named(fault_run):
    done = fault_run("dtype")
    assert done.returncode != 0
    assert ("op_kernel: ThresholdGradV2D has no kernel for input_gradient DT_FLOAT, input_feature DT_FLOAT -> "
            "output_backprops DT_FLOAT") in done.stdout + done.stderr


def test_an_infershape_that_fails_is_named(fault_run):
    done = fault_run("infershape")
    assert done.returncode != 0
    assert done.stdout.startswith("aclnnThresholdBackwardGetWorkspaceSize(")  # phase 1 fails, not the launch
    assert "op_host infershape: ThresholdGradV2D: InferShape returned GRAPH_FAILED" in done.stdout


def test_a_kernel_that_does_not_compile_shows_the_compilers_error(faulty):
    kernel = faulty / "op_kernel" / "threshold_grad_v2_d.cpp"
    text = kernel.read_text()
    kernel.write_text("#define OPSNN_TEST_BREAK_KERNEL\n" + text)
    try:
        done = opsnn_run(str(EXAMPLE), "--op-dir", str(faulty))
    finally:
        kernel.write_text(text)
    assert done.returncode != 0
    out = done.stdout + done.stderr
    assert "compiling ThresholdGradV2D's kernel" in out and "not_a_function" in out
