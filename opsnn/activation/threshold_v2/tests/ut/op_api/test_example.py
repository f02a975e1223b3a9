"""`opsnn example threshold_v2` runs examples/test_aclnn_threshold.py: upstream's example values."""
import os
import subprocess
import sys

import pytest

from opsnn import cli

EXPECTED = [10, 10, 10, 10, 10, 5, 6, 7]
LINES = [f"result[{i}] is: {v:f}" for i, v in enumerate(EXPECTED)] + \
        [f"inplace result[{i}] is: {v:f}" for i, v in enumerate(EXPECTED)]


@pytest.mark.parametrize("soc", ["Ascend910B2", "Ascend950"])
def test_example_prints_upstream_results(tmp_path, soc):
    env = dict(os.environ, OPSNN_SOC=soc)
    proc = subprocess.run([sys.executable, "-W", "always", "-m", "opsnn.cli", "example", "threshold_v2"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == LINES and proc.stderr == ""


def test_in_process(capsys):
    assert cli.main(["example", "threshold_v2"]) == 0
    assert capsys.readouterr().out.splitlines() == LINES
