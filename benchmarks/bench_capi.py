"""The C ABI's cost, in both device modes (OPSNN_DEVICE_MODE=fast, the default, and emulator):
one aclnnThresholdBackward call from C++ (GetWorkspaceSize + launch + aclrtSynchronizeStream) at
4 elements and 1 M against the Python fast path (opsnn.threshold_backward into an output array);
the first result after process start (aclInit starting Python included); and 8 C++ threads
against 1 at 1 M, each on its own stream (throughput ratio; OPSNN_NUM_THREADS=1, so the
parallelism is the program's threads, not the engine's).

    python benchmarks/bench_capi.py [--repeat 3] [--threads-only]

Each figure is the median of --repeat runs (a process each, for C++). The program is the tests'
tests/capi/programs/process.cpp (modes `bench` and `threads`).

Thread scaling is measured in interleaved rounds (min, median and max of the rounds, with the
load average): each round first runs the same loop in plain C++ (y = f > 1 ? g : 0 over 1 M
floats, 640 calls, in 1 and in 8 threads with their own buffers, as the C ABI's threads have),
compiled as a plain build does (-O2: a scalar loop, compute-bound) and vectorised (-O3
-march=native: memory-bound, as the engine is), which says what the machine gives right now,
then the C ABI's 1 thread x 640 calls and 8 threads x 80 (each thread's first 3 calls, which teach
the library, and its final check outside the clock), with its remembered launches (no Python
in a repeated call) and without them (OPSNN_CAPI_REMEMBER=0). Beside the ratios, the times: a
ratio compares a program with itself, and a faster single thread makes a smaller one. The same
threads doing arithmetic only (no memory traffic) say whether the cores themselves scale."""
from __future__ import annotations

import argparse
import atexit
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from pathlib import Path

import numpy as np

import opsnn
from opsnn.capi.programs import compile_program

PROGRAM = Path(__file__).resolve().parents[1] / "tests" / "capi" / "programs" / "process.cpp"
SIZES = (4, 1 << 20)
MODES = ("fast", "emulator")


# The programs' Python caches its compiled modules as an installed Python does (pip compiles an
# install's .pyc files): PYTHONDONTWRITEBYTECODE, which some shells set, would make every start
# compile opsnn's ~200 modules again (~90 ms of the first result). The cache goes to a folder of
# the benchmark's own, not into the source tree; `main` fills it with one run before measuring.
_PYCACHE = tempfile.mkdtemp(prefix="opsnn-bench-pycache-")
atexit.register(shutil.rmtree, _PYCACHE, True)
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run(program: Path, argv: list[str], mode: str, **env) -> dict[str, float]:
    out = subprocess.run([str(program), *argv], capture_output=True, text=True, check=True,
                         env={**_ENV, "PYTHONPYCACHEPREFIX": _PYCACHE, "OPSNN_DEVICE_MODE": mode,
                              "OPSNN_SANITIZE": "", **env})
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


THREAD_CALLS = 640  # calls in all, 80 per thread of 8: long enough that a thread's start and end are not the figure
PLAIN_CPP = r"""
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>
static volatile float sink;
struct Buffers {  // this thread's own, made before the clock starts (as the C ABI's threads make theirs)
    std::vector<float> g, f, y;
    Buffers() : g(1 << 20, 1.5f), f(1 << 20), y(1 << 20) {
        for (size_t i = 0; i < f.size(); ++i) f[i] = float(i % 4);
    }
};
static void calls(Buffers &b, int count) {  // the kernel's loop
    const int n = 1 << 20;
    for (int c = 0; c < count; ++c)
        for (int i = 0; i < n; ++i) b.y[i] = b.f[i] > 1.0f ? b.g[i] : 0.0f;
    sink = b.y[n - 1];
}
static void spin(int count) {  // arithmetic only, no memory: what the cores give
    volatile double x = 0;
    for (long i = 0; i < count * 1000000L; ++i) x = x + 1.0;
    sink = static_cast<float>(x);
}
template <class F> static double seconds(int threads, F work) {  // from the moment every thread is ready
    std::atomic<int> ready(0);
    std::atomic<bool> go(false);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&] {
            Buffers b;
            ++ready;
            while (!go) {}
            work(b);
        });
    while (ready < threads) std::this_thread::yield();
    auto start = std::chrono::steady_clock::now();
    go = true;
    for (auto &t : pool) t.join();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
int main(int argc, char **argv) {
    int threads = argc > 1 ? atoi(argv[1]) : 8;
    const int total = argc > 2 ? atoi(argv[2]) : 640;
    double one = seconds(1, [=](Buffers &b) { calls(b, total); });
    double many = seconds(threads, [=](Buffers &b) { calls(b, total / threads); });
    double spin1 = seconds(1, [](Buffers &) { spin(400); }), spins = seconds(threads, [=](Buffers &) {
        spin(400 / threads);
    });
    printf("one=%.5f\nmany=%.5f\nspin=%.4f\n", one, many, spin1 / spins);
}
"""


def thread_scaling(program: Path, tmp: Path, rounds: int) -> None:
    """Interleaved rounds: plain C++ 8 threads vs 1 (as compiled by default, and vectorised), then
    the C ABI's (fast mode, 1 M), with its remembered launches and without them."""
    source = tmp / "plain.cpp"
    source.write_text(PLAIN_CPP)
    plains = {"-O2": tmp / "plain", "-O3 -march=native": tmp / "plain-vec"}
    for flags, binary in plains.items():
        subprocess.run(["g++", *flags.split(), "-pthread", str(source), "-o", str(binary)], check=True)
    n, calls = 1 << 20, THREAD_CALLS
    loads, spins = [], []
    rows: dict[str, list[tuple[float, float]]] = {name: [] for name in (
        "plain C++ (the same loop, -O2)", "plain C++ vectorised (-O3 -march=native)", "C ABI (fast mode)",
        "C ABI, OPSNN_CAPI_REMEMBER=0")}
    names = list(rows)
    for _ in range(rounds):
        loads.append(os.getloadavg()[0])
        for name, binary in zip(names, plains.values(), strict=False):
            out = subprocess.run([str(binary), "8", str(calls)], capture_output=True, text=True, check=True).stdout
            got = dict(line.split("=") for line in out.split())
            rows[name].append((float(got["one"]), float(got["many"])))
            spins.append(float(got["spin"]))
        for name, remember in zip(names[2:], ("1", "0"), strict=True):
            env = {"OPSNN_NUM_THREADS": "1", "OPSNN_CAPI_REMEMBER": remember}
            one = run(program, ["threads", "1", str(n), str(calls)], "fast", **env)["seconds"]
            eight = run(program, ["threads", "8", str(n), str(calls // 8)], "fast", **env)["seconds"]
            rows[name].append((one, eight))

    def spread(xs: list[float], unit: str) -> str:
        return f"{min(xs):.2f}{unit} {statistics.median(xs):.2f}{unit} {max(xs):.2f}{unit}"
    print(f"8 threads vs 1 at 1 M, {rounds} interleaved rounds, load average {min(loads):.1f}-{max(loads):.1f} "
          f"on {os.cpu_count()} CPUs (min, median, max):")
    print(f"  {'plain C++, arithmetic only (what the cores give)':<44} ratio {spread(spins, 'x')}")
    for name, pairs in rows.items():
        print(f"  {name:<44} ratio {spread([a / b for a, b in pairs], 'x')}   "
              f"8 threads ms {spread([b * 1e3 for _, b in pairs], '')}   "
              f"1 thread ms {spread([a * 1e3 for a, _ in pairs], '')}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--threads-only", action="store_true", help="only the thread-scaling rounds")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        program = compile_program(PROGRAM, Path(tmp) / "process", std="c++11", extra=("-O2", "-pthread"))
        if args.threads_only:
            thread_scaling(program, Path(tmp), args.repeat)
            return 0
        for mode in MODES:  # the bytecode cache (see _PYCACHE), and each mode's modules once
            run(program, ["bench", "4", "1"], mode)
        # this shared machine's speed drifts by ~20% over minutes: a fixed CPython loop, timed
        # now, lets figures of different runs be compared (best of 7 of sum(range(10000)))
        reference = min(timeit.repeat("sum(range(10000))", number=200, repeat=7)) / 200 * 1e6
        print(f"CPython reference now: sum(range(10000)) {reference:.0f} us (best of 7)")
        print("Python bytecode cached (as an installed opsnn has it); "
              f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
        print(f"{'mode':>9} {'elements':>9} {'C++ call us':>12} {'Python fast us':>15} {'C/Python':>9} "
              f"{'first result ms':>16}")
        for mode in MODES:
            for n in SIZES:
                runs = [run(program, ["bench", str(n), str(rounds(n, mode))], mode) for _ in range(args.repeat)]
                c_us = statistics.median(r["call_ns"] for r in runs) / 1000
                py_us = statistics.median(python_fast_us(n) for _ in range(args.repeat))
                first = statistics.median(r["first_result_s"] for r in runs) * 1000
                print(f"{mode:>9} {n:>9} {c_us:>12.1f} {py_us:>15.1f} {c_us / py_us:>9.2f} {first:>16.1f}")
        thread_scaling(program, Path(tmp), args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
