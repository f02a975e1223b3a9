"""A short slice of `make fuzz` (tests/robustness/fuzz.py): random cases on every backend against
the reference, in one process per fast engine (the C engine also with its crossovers at their least:
threaded and streaming from the smallest calls)."""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fuzz  # noqa: E402

ENGINES = ["numpy"] + (["c", "c-small-crossovers"] if importlib.util.find_spec("opsnn.engine._select") else [])


@pytest.mark.parametrize("engine", ENGINES)
def test_random_cases_agree_with_the_reference(engine):
    env = dict(os.environ, PYTHONHASHSEED="0")
    env.pop("OPSNN_TUNING", None)
    done = subprocess.run([sys.executable, fuzz.__file__, "--worker", str(20 + len(engine)), "8", engine],
                          capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stderr[-4000:]
    assert '"failed": null' in done.stdout


def test_the_fuzz_sees_a_wrong_backend(monkeypatch):
    """The comparison itself: a fast path that flips one bit of one element is reported."""
    import opsnn
    real = opsnn.threshold_backward

    def broken(grad, feature, threshold, **kw):
        result = real(grad, feature, threshold, **kw)
        if kw.get("backend") == "fast" and result.size:
            flat = result.reshape(-1).view(np.uint8)
            flat[0] ^= 1
        return result

    monkeypatch.setattr(opsnn, "threshold_backward", broken)
    rng = np.random.default_rng(5)
    case = {"forward": False, "semantics": "torch", "layout": "same", "out": "none", "threshold": 0.5,
            "grad": rng.normal(size=100).astype(np.float32), "feature": rng.normal(size=100).astype(np.float32)}
    assert "1 bytes differ" in fuzz.check_case(case, emulate=False)
    case["out"] = "alias"
    assert fuzz.check_case(case, emulate=False) is not None
    monkeypatch.setattr(opsnn, "threshold_backward", real)
    assert fuzz.check_case(case, emulate=True) is None


def test_the_fuzz_engines_are_the_fast_paths_engines():
    from opsnn.backends import fast
    assert {e.split("-")[0] for e in fuzz.ENGINES} == set(fast.ENGINES)
    assert set(ENGINES) <= set(fuzz.ENGINES)


def test_small_crossovers_are_a_valid_tuning():
    from opsnn.engine import machine
    assert machine.parse_override(fuzz.CROSSOVERS_AT_LEAST) == {"parallel_min": 64, "stream_min": 0, "threads": 3}


def test_the_fuzz_has_a_torch_surface_that_sees_a_departure(monkeypatch):
    """fuzz_torch: torch's own op is the oracle for semantics "torch"; one flipped bit is reported,
    a documented NaN departure is counted apart ("known:"), never as agreement."""
    pytest.importorskip("torch")
    import fuzz_torch

    import opsnn
    assert "torch" in [name for name, _, _ in fuzz.SURFACES]
    rng = np.random.default_rng(5)
    case = {"forward": False, "semantics": "torch", "layout": "same", "out": "none", "threshold": 0.5,
            "grad": rng.normal(size=100).astype(np.float32), "feature": rng.normal(size=100).astype(np.float32)}
    assert fuzz_torch.check(case, rng) is None
    real = opsnn.threshold_backward

    def broken(*args, **kw):
        result = real(*args, **kw)
        result.reshape(-1).view(np.uint8)[0] ^= 1
        return result

    monkeypatch.setattr(opsnn, "threshold_backward", broken)
    problem = fuzz_torch.check(case, rng)  # torch.ops.opsnn's bits differ from it first
    assert problem is not None and not problem.startswith(fuzz_torch.KNOWN)
    monkeypatch.setattr(opsnn, "threshold_backward", real)
    snan = np.full(64, 0x7C01, np.uint16).view(np.float16)  # torch's vectorised loop quiets it
    case.update(grad=snan, feature=np.ones(64, np.float16))
    assert fuzz_torch.check(case, rng).startswith(fuzz_torch.KNOWN)
