"""`opsnn example hardtanh_grad` (Python) and `--cpp` (the C++ example against the C ABI) print
upstream's expected output on both SoCs."""
import os
import shutil
import subprocess
import sys

import pytest

from opsnn import cli

EXPECTED = [0, 0, 0, 3, 0, 5, 0, 0]
LINES = [f"result[{i}] is: {v:f}" for i, v in enumerate(EXPECTED)]


@pytest.mark.parametrize("soc", ["Ascend910B2", "Ascend950"])
def test_example_prints_upstream_results(tmp_path, soc):
    env = dict(os.environ, OPSNN_SOC=soc)
    proc = subprocess.run([sys.executable, "-W", "always", "-m", "opsnn.cli", "example", "hardtanh_grad"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == LINES and proc.stderr == ""


def test_in_process(capsys):
    assert cli.main(["example", "hardtanh_grad"]) == 0
    assert capsys.readouterr().out.splitlines() == LINES


@pytest.mark.skipif(shutil.which("g++") is None and shutil.which("c++") is None, reason="no C++ compiler")
@pytest.mark.parametrize("soc", ["Ascend910B2", "Ascend950"])
def test_cpp_example(tmp_path, soc):
    env = dict(os.environ, OPSNN_SOC=soc)
    proc = subprocess.run([sys.executable, "-m", "opsnn.cli", "example", "hardtanh_grad", "--cpp"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == ["# test_aclnn_hardtanh_backward.cpp", *LINES]
