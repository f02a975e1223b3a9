"""`opsnn example` runs examples/test_aclnn_threshold_backward.py: exactly the four lines of
spec §10, nothing on stderr (no leak report), exit 0."""
import os
import subprocess
import sys

import pytest

from opsnn import cli

EXPECTED = "result[0] is: 0.000000\nresult[1] is: 4.400000\nresult[2] is: 4.300000\nresult[3] is: 4.200000\n"


@pytest.mark.parametrize("soc", [None, "Ascend950"])
def test_opsnn_example_prints_the_four_lines(tmp_path, soc):
    env = {k: v for k, v in os.environ.items() if k != "OPSNN_SOC"}
    if soc:
        env["OPSNN_SOC"] = soc
    # from an unrelated directory: the command finds the example beside its package
    proc = subprocess.run([sys.executable, "-W", "always", "-m", "opsnn.cli", "example"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, EXPECTED, "")


def test_in_process(capsys):
    assert cli.main(["example"]) == 0
    assert capsys.readouterr().out == EXPECTED


def test_missing_example_is_a_clear_error(tmp_path, monkeypatch, capsys):
    fake_pkg = tmp_path / "opsnn"
    fake_pkg.mkdir()
    monkeypatch.setattr(cli, "__file__", str(fake_pkg / "cli.py"))
    assert cli.main(["example"]) == 2
    assert "reference example" in capsys.readouterr().err
