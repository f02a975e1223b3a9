"""The collector may run at any allocation, inside opsnn while it holds a lock, and run a weakref
callback or a finalizer that enters opsnn again (issue 20: HostRegistry's lock, waited for by its
own thread's weakref callback, hung the emulator backend). Each path runs in a child process with
a time limit while the collector fires at every allocation count in a range."""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

CHILD = Path(__file__).with_name("gc_reentry_child.py")
PATHS = ["emulator", "aclnn", "numpy"]
if importlib.util.find_spec("opsnn.engine._select") is not None:
    PATHS += ["c", "fast"]  # the C engine: the express lane's flat call, the general way's strided one


@pytest.mark.parametrize("path", PATHS)
def test_collector_inside_opsnn_never_deadlocks(path):
    env = dict(os.environ)
    env.pop("OPSNN_FAST_ENGINE", None)
    try:
        done = subprocess.run([sys.executable, str(CHILD), path, "1", "40"], capture_output=True, text=True,
                              timeout=240, env=env)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{path}: no answer within 240 s (deadlocked)")
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]


def test_the_issue_reproducer_finishes(tmp_path):
    """issue 20's public-API reproducer, verbatim, for the thresholds it hung at."""
    script = tmp_path / "repro.py"
    script.write_text(
        "import gc, sys, numpy as np, opsnn\n"
        "class Node: pass\n"
        "a = np.ones(4, np.float32); opsnn.threshold_backward(a, a, 0.5, semantics='ascend910b', backend='emulator')\n"
        "n = Node(); n.self = n; n.a = a; del a, n\n"
        "b = np.ones(4, np.float32); gc.set_threshold(gc.get_count()[0] + int(sys.argv[1]))\n"
        "opsnn.threshold_backward(b, b, 0.5, semantics='ascend910b', backend='emulator'); print('ok')\n")
    for k in (2, 3, 5, 22):
        try:
            done = subprocess.run([sys.executable, str(script), str(k)], capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            pytest.fail(f"K={k}: deadlocked")
        assert done.stdout.strip() == "ok", done.stderr[-2000:]
