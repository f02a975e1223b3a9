"""examples/torch_npu_semantics.py runs and explains the gradient differences it finds."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
ROOT = Path(__file__).resolve().parents[1]


def test_example_explains_the_differences():
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "torch_npu_semantics.py"), "--steps", "2"],
                       capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "NaN feature: torch passes the gradient, the NPU gives 0" in out
    assert "backward: float16 threshold rounded to half: 0.3 -> 0.300048828125" in out
    assert "forward: threshold converted to float16: 0.3 -> 0.300048828125" in out
    assert "negative grad x 0 = -0.0" in out
    # the NaN samples: torch's NaN gradient reaches every first-layer bias, Atlas A2's stops at nn.Threshold
    assert "grad of 0.bias    differs in   64 of    64 elements, NaN: torch 64 / ascend910b 0" in out
    assert out.count("== ") == 3


def test_example_ascend950_keeps_torchs_nan_rule():
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "torch_npu_semantics.py"), "--steps", "1",
                        "--semantics", "ascend950"], capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)
    assert r.returncode == 0, r.stderr
    assert "backward: NaN feature" not in r.stdout and "backward: float16 threshold rounded" not in r.stdout
    assert "forward: threshold converted to float16" in r.stdout  # aclnnThreshold: on both NPUs


def test_help_says_the_whole_first_paragraph():
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "torch_npu_semantics.py"), "--help"],
                       capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert "show where the gradients differ from torch's, and why." in " ".join(r.stdout.split())
