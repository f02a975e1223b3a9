"""The C engine's pool keeps its workers off the caller's CPU (issue 27 item 17: a woken worker the
kernel placed on the caller's CPU preempted the caller and ran every part alone). No timing: the
workers' affinity masks, read from /proc, in a fresh process."""
import json
import os
import subprocess
import sys

import pytest

from opsnn.engine import lanes

SCRIPT = r"""
import json, os, threading
import numpy as np
import opsnn

usable = sorted(os.sched_getaffinity(0))
g = np.ones(1 << 21, np.float32)  # 8 MiB of output: the pool's, on 2 threads
out = np.empty_like(g)
call = lambda: opsnn.threshold_backward(g, g, 0.5, out=out, semantics="torch")
call()  # starts the workers, with every usable CPU
main = threading.get_native_id()
seen = {}
for cpu in usable[:2]:
    os.sched_setaffinity(0, {cpu})  # this thread only (Linux): the caller now runs on `cpu`
    for _ in range(3):
        call()
    seen[cpu] = sorted(sorted(os.sched_getaffinity(int(t))) for t in os.listdir("/proc/self/task") if int(t) != main)
os.sched_setaffinity(0, usable)
right = np.array_equal(out, opsnn.threshold_backward(g, g, 0.5, semantics="torch", backend="reference"))
print(json.dumps({"usable": usable, "seen": seen, "right": right}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux") or len(os.sched_getaffinity(0)) < 2,
                    reason="Linux, 2 usable CPUs or more")
@pytest.mark.skipif(lanes.compiled() is None, reason="the C engine is not built")
def test_workers_are_kept_off_the_callers_cpu():
    env = dict(os.environ, OPSNN_NUM_THREADS="2", OPSNN_FAST_ENGINE="c")
    env.pop("OPSNN_TUNING", None)
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout.strip().splitlines()[-1])
    usable = got["usable"]
    assert got["right"]
    for cpu, masks in got["seen"].items():
        # the worker's mask: every usable CPU but the caller's (other threads, e.g. a BLAS pool's, keep theirs)
        assert [c for c in usable if c != int(cpu)] in masks, (cpu, masks)
