"""Facts the README states that are not code it runs: torch's own bfloat16/float16 NaN-gradient
rewrite (the caveat to "bit for bit"), the benchmark's peak-RSS line as the bench prints it, and
build outputs kept out of git."""
from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import opsnn

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def _torch_213():
    torch = pytest.importorskip("torch")
    if not torch.__version__.startswith("2.13."):
        pytest.skip(f"the README states torch 2.13's behaviour; this is {torch.__version__}")
    return torch


def _aten_bits(torch, bits: int, dtype, n: int) -> np.ndarray:
    """aten.threshold_backward of n NaN grads with these bits, every feature above the threshold."""
    grad = torch.from_numpy(np.full(n, bits, np.uint16).view(np.int16)).view(dtype)
    out = torch.ops.aten.threshold_backward(grad, torch.full((n,), 2.0, dtype=dtype), 1.0)
    return out.view(torch.int16).numpy().view(np.uint16)


def _opsnn_bits(bits: int, dtype, n: int) -> np.ndarray:
    grad = np.full(n, bits, np.uint16).view(dtype)
    return opsnn.threshold_backward(grad, np.full(n, 2.0, dtype), 1.0).view(np.uint16)


@pytest.mark.parametrize("bits", [0x7FC0, 0x7F81, 0xFFC1, 0x7FFF])
def test_torch_vectorised_loop_turns_a_bfloat16_nan_grad_into_0xffff_and_opsnn_keeps_its_bits(bits):
    torch = _torch_213()
    from opsnn.dtypes import bfloat16

    n = 1024  # a multiple of every vector width: all of it goes through torch's vectorised loop
    assert set(_aten_bits(torch, bits, torch.bfloat16, n).tolist()) == {0xFFFF}
    assert set(_aten_bits(torch, bits, torch.bfloat16, 1).tolist()) == {bits}  # its scalar loop keeps them
    assert set(_opsnn_bits(bits, bfloat16, n).tolist()) == {bits}
    assert "0xFFFF" in README


def test_torch_vectorised_loop_quiets_a_float16_signalling_nan_grad_and_opsnn_does_not():
    torch = _torch_213()
    n = 1024
    assert set(_aten_bits(torch, 0xFC01, torch.float16, n).tolist()) == {0xFE01}
    assert set(_opsnn_bits(0xFC01, np.float16, n).tolist()) == {0xFC01}
    assert "0x7C01" in README and "0x7E01" in README


def test_the_peak_rss_line_is_quoted_once_as_the_bench_prints_it():
    pytest.importorskip("torch")  # the bench module imports it
    spec = importlib.util.spec_from_file_location("bench", ROOT / "benchmarks" / "bench_threshold_backward.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    results = json.loads((ROOT / "benchmarks" / "results.json").read_text())
    line = bench.rss_line(results["peak_rss"])
    assert [s for s in README.splitlines() if "peak RSS" in s] == [line]


def test_build_outputs_are_ignored_by_git():
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    for path in ("dist/opsnn-0.1.0-py3-none-any.whl", "build/lib/opsnn/api.py", "opsnn.egg-info/PKG-INFO"):
        done = subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT, timeout=30)
        assert done.returncode == 0, f"{path} is not ignored"
