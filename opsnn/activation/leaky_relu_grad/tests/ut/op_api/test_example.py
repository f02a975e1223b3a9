"""`opsnn example leaky_relu_grad` (examples/test_aclnn_leaky_relu_backward.py) and its C++ twin
(`--cpp`, compiled against the generated aclnnop/aclnn_leaky_relu_backward.h) print upstream's
example output on both SoCs."""
import os
import subprocess
import sys

import pytest

from opsnn import cli, registry
from opsnn.aclnn.declarations import operator_apis
from opsnn.capi import programs

LINES = [f"result[{i}] is: {v:f}" for i, v in enumerate([2, 3, 4, 5])]


@pytest.mark.parametrize("soc", ["Ascend910B2", "Ascend950"])
@pytest.mark.parametrize("cpp", [False, True])
def test_example_prints_upstream_results(tmp_path, soc, cpp):
    env = dict(os.environ, OPSNN_SOC=soc, OPSNN_SANITIZE="1")
    proc = subprocess.run([sys.executable, "-W", "always", "-m", "opsnn.cli", "example", "leaky_relu_grad",
                           *(["--cpp"] if cpp else [])], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = [line for line in proc.stdout.splitlines() if not line.startswith("# ")]
    assert lines == LINES and proc.stderr == ""


def test_in_process(capsys):
    assert cli.main(["example", "leaky_relu_grad"]) == 0
    assert capsys.readouterr().out.splitlines() == LINES


def test_declaration():
    op = registry.get("leaky_relu_grad")
    (api,) = operator_apis(op)
    assert api.phase1_decl() == (
        "aclnnStatus aclnnLeakyReluBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self, "
        "const aclScalar *negativeSlope, bool selfIsResult, aclTensor *out, uint64_t *workspaceSize, "
        "aclOpExecutor **executor)")
    assert (api.numpy_api, api.aten, api.header) == ("leaky_relu_backward", "leaky_relu_backward",
                                                     "aclnn_leaky_relu_backward")
    assert [p.name for p in programs.examples(op)] == ["test_aclnn_leaky_relu_backward.cpp"]
