"""`opsnn example sigmoid_grad|selu_grad` and their C++ twins (`--cpp`, compiled against the generated
aclnnop headers): each prints its four documented lines on both SoCs, under the sanitizer, with
nothing on stderr (no leak report, no warning), and what numpy's API gives for the same inputs."""
import os
import subprocess
import sys

import numpy as np
import pytest

import opsnn
from opsnn import cli, registry
from opsnn.capi import programs

CASES = {
    "sigmoid_grad": (opsnn.sigmoid_backward, [1, 2, 3, 4], [0.5, 0.25, 0.75, 0.125]),
    "selu_grad": (opsnn.selu_backward, [1, 2, 3, 4], [-1, -0.5, 0.5, 2]),
}


def lines(op: str) -> list[str]:
    fn, grad, other = CASES[op]
    got = fn(np.float32(grad), np.float32(other), semantics="ascend910b", backend="emulator")
    return [f"result[{i}] is: {v:f}" for i, v in enumerate(got)]


def test_the_documented_lines():
    assert lines("sigmoid_grad") == [f"result[{i}] is: {v:f}" for i, v in enumerate([0.25, 0.375, 0.5625, 0.4375])]
    assert lines("selu_grad") == [f"result[{i}] is: {v}" for i, v in
                                  enumerate(["0.758099", "2.516199", "3.152103", "4.202804"])]


@pytest.mark.parametrize("op", sorted(CASES))
@pytest.mark.parametrize("soc", ["Ascend910B2", "Ascend950"])
@pytest.mark.parametrize("cpp", [False, True])
def test_example_prints_its_lines(tmp_path, op, soc, cpp):
    env = dict(os.environ, OPSNN_SOC=soc, OPSNN_SANITIZE="1")
    proc = subprocess.run([sys.executable, "-W", "always", "-m", "opsnn.cli", "example", op,
                           *(["--cpp"] if cpp else [])], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert [x for x in proc.stdout.splitlines() if not x.startswith("# ")] == lines(op) and proc.stderr == ""


@pytest.mark.parametrize("op", sorted(CASES))
def test_in_process_and_the_cpp_file(op, capsys):
    assert cli.main(["example", op]) == 0
    assert capsys.readouterr().out.splitlines() == lines(op)
    api = registry.get(op).aclnn_functions[1]
    assert [p.name for p in programs.examples(registry.get(op))] == [f"test_aclnn_{api}.cpp"]
