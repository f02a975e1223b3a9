"""`opsnn example` runs the operator's examples/test_aclnn_threshold_backward.py: exactly the four lines of
docs/threshold-grad-v2d.md §10, nothing on stderr (no leak report), exit 0."""
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
    from opsnn import registry

    monkeypatch.setattr(registry.Operator, "example_path", lambda self: tmp_path / "gone.py")
    assert cli.main(["example"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "gone.py" in err and "missing" in err


def test_named_operator_example(capsys):
    assert cli.main(["example", "threshold_grad_v2_d"]) == 0
    assert capsys.readouterr().out == EXPECTED
