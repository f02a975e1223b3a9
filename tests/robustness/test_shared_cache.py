"""Processes that share one compiled-code cache directory (as every process of a user shares the
default) must each run their own code: issue 20's three writers, then a checker comparing the fast
path with the reference bit for bit on every mode, size class and layout. Before the fix the
checker found 632,492 (plain int32) and 2,665,157 (ReluGrad float32) wrong elements of 4 M.
`make fuzz` runs every order of the writers and writers running at once."""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="the numba engine is not installed")

PROCESS = Path(__file__).with_name("cache_process.py")


def run(role: str, cache: Path, *extra: str) -> None:
    env = dict(os.environ, OPSNN_CACHE_DIR=str(cache))
    env.pop("OPSNN_FAST_ENGINE", None)
    done = subprocess.run([sys.executable, str(PROCESS), role, *extra], capture_output=True, text=True, env=env,
                          timeout=600)
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), f"{role}: {done.stdout}{done.stderr[-3000:]}"


def test_writers_then_a_checker_share_one_cache(tmp_path):
    for role in ("writer1", "writer2", "writer3"):
        run(role, tmp_path)
    run("check", tmp_path, "auto")
    run("check", tmp_path, "numba")


def test_each_process_numbers_its_functions_apart():
    """The cause, directly: numba's per-process function counter starts somewhere else in every
    process (and forked child), and the streaming loops have names of their own."""
    code = ("import os, sys; from opsnn.backends import numba_kernels as k; from numba.core import bytecode\n"
            "names = {f.py_func.__qualname__ for f in (k._plain_streaming, k._relu_streaming,"
            " k._int32_via_float32_streaming)}\n"
            "assert len(names) == 3, names\n"
            "r, w = os.pipe()\n"
            "if os.fork() == 0:\n"
            "    os.write(w, str(next(bytecode.FunctionIdentity._unique_ids)).encode()); os._exit(0)\n"
            "os.wait(); child = int(os.read(r, 64))\n"
            "print(next(bytecode.FunctionIdentity._unique_ids), child)")
    starts = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        starts += [int(v) for v in done.stdout.split()]
    assert len(set(starts)) == 4 and min(starts) > 1 << 20, starts
