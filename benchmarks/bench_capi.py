"""The C ABI's cost, in both device modes (OPSNN_DEVICE_MODE=fast, the default, and emulator):
one aclnnThresholdBackward call from C++ (GetWorkspaceSize + launch + aclrtSynchronizeStream) at
4 elements and 1 M against the Python fast path (opsnn.threshold_backward into an output array);
the first result after process start (aclInit starting Python included); and 8 C++ threads
against 1 at 1 M, each on its own stream (throughput ratio; OPSNN_NUM_THREADS=1, so the
parallelism is the program's threads, not the engine's).

    python benchmarks/bench_capi.py [--repeat 3]

Each figure is the median of --repeat runs (a process each, for C++). The program is the tests'
tests/capi/programs/process.cpp (modes `bench` and `threads`)."""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import opsnn
from opsnn.capi.programs import compile_program

PROGRAM = Path(__file__).resolve().parents[1] / "tests" / "capi" / "programs" / "process.cpp"
SIZES = (4, 1 << 20)
MODES = ("fast", "emulator")


def run(program: Path, argv: list[str], mode: str, **env) -> dict[str, float]:
    out = subprocess.run([str(program), *argv], capture_output=True, text=True, check=True,
                         env={**os.environ, "OPSNN_DEVICE_MODE": mode, "OPSNN_SANITIZE": "", **env})
    return {k: float(v) for k, v in (line.split("=") for line in out.stdout.split())}


def rounds(n: int, mode: str) -> int:
    return (5000 if mode == "fast" else 500) if n <= 4 else (100 if mode == "fast" else 5)


def python_fast_us(n: int) -> float:
    grad = np.full(n, 1.5, np.float32)
    feature = (np.arange(n) % 4).astype(np.float32)
    out = np.empty(n, np.float32)
    iters = rounds(n, "fast")
    opsnn.threshold_backward(grad, feature, 1.0, semantics="ascend910b", out=out)
    start = time.perf_counter()
    for _ in range(iters):
        opsnn.threshold_backward(grad, feature, 1.0, semantics="ascend910b", out=out)
    return (time.perf_counter() - start) / iters * 1e6


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        program = compile_program(PROGRAM, Path(tmp) / "process", std="c++11", extra=("-O2", "-pthread"))
        print(f"{'mode':>9} {'elements':>9} {'C++ call us':>12} {'Python fast us':>15} {'C/Python':>9} "
              f"{'first result ms':>16}")
        for mode in MODES:
            for n in SIZES:
                runs = [run(program, ["bench", str(n), str(rounds(n, mode))], mode) for _ in range(args.repeat)]
                c_us = statistics.median(r["call_ns"] for r in runs) / 1000
                py_us = statistics.median(python_fast_us(n) for _ in range(args.repeat))
                first = statistics.median(r["first_result_s"] for r in runs) * 1000
                print(f"{mode:>9} {n:>9} {c_us:>12.1f} {py_us:>15.1f} {c_us / py_us:>9.2f} {first:>16.1f}")
        n, calls = 1 << 20, 80
        for mode in MODES:
            if mode == "emulator":
                calls = 16
            one = statistics.median(run(program, ["threads", "1", str(n), str(calls)], mode, OPSNN_NUM_THREADS="1")
                                    ["seconds"] for _ in range(args.repeat))
            eight = statistics.median(run(program, ["threads", "8", str(n), str(calls // 8)], mode,
                                          OPSNN_NUM_THREADS="1")["seconds"] for _ in range(args.repeat))
            print(f"{mode:>9}: 8 threads x {calls // 8} calls vs 1 x {calls} at 1 M: {one / eight:.2f}x the "
                  f"throughput ({eight * 1000:.0f} ms vs {one * 1000:.0f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
