"""issue 27 item 0: entering and leaving npu_semantics while other threads call the intercepted aten
ops. Opening the first context used to register a CPU kernel override and closing the last one to
remove it, rewriting the dispatch table under other threads' calls: SIGSEGV within seconds. The
stress runs in a child process (a crash must fail the test, not end pytest)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
CHILD = Path(__file__).with_name("npu_semantics_threads_child.py")


def test_entering_and_leaving_while_other_threads_call_is_safe():
    done = subprocess.run([sys.executable, str(CHILD), "6"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.startswith("ok"), (done.returncode, done.stderr[-2000:])
