"""The C++ kernel runtime (`opsnn ut`, docs/cpp-kernels.md): what a developer waits for.

    .venv/bin/python benchmarks/bench_cpp_kernel.py [--repeats 5] [--json FILE]

1. One 2048-element kernel UT end to end: ThresholdGradV2D's op_kernel UT (opsnn's own, one core,
   one tile), compiled from scratch (compile), then run as `opsnn ut` runs it (the program's whole
   life: Python's start inside it, the launch, the report).
2. A 1 M-element multi-core run: the same kernel on opsnn's tiling of 1,048,576 float32 (48 cores on
   Ascend910B2), sanitizer on and off: the launch's own seconds (from the runtime's record) and the
   program's.
3. The cost of one instruction call from C++: a kernel of 4000 Adds on 64 floats, against the same
   4000 calls made from Python straight to the emulator; the difference is the bridge. Measured in
   CPU time of the thread running the core (and wall time beside it).
Min and median of --repeats runs, the machine's facts beside them; nothing is asserted."""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import measure  # noqa: E402

from opsnn.cpudebug import build as kt_build  # noqa: E402
from opsnn.cpudebug import ut  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OWN_UT = ROOT / "opsnn/activation/threshold_grad_v2_d/tests/ut/op_kernel/test_threshold_grad_v2_d.cpp"
CALLS_UT = Path(__file__).resolve().parent / "cpp" / "bench_calls.cpp"
SOC = "Ascend910B2"
CALLS = 4000  # instruction calls per measurement of the per-call cost


def _stats(xs: list[float]) -> dict:
    return {"min": min(xs), "median": statistics.median(xs), "runs": len(xs)}


def _timed_run(binary: Path, work: Path, gtest_args: list[str], sanitize: bool = True,
               env: dict | None = None) -> tuple[float, dict]:
    old = dict(os.environ)
    os.environ.update(env or {})
    try:
        t0 = time.perf_counter()
        rc, record = ut.run_program(binary, SOC, sanitize, work, gtest_args)
        seconds = time.perf_counter() - t0
    finally:
        os.environ.clear()
        os.environ.update(old)
    if rc != 0:
        raise RuntimeError(f"{binary} exited {rc}: {record}")
    return seconds, record


def ut_end_to_end(repeats: int, cache: Path, work: Path) -> dict:
    compile_s = []
    for i in range(min(repeats, 3)):
        _, seconds, reused = ut.build_binary(OWN_UT, [SOC], ["-DDTYPE_INPUT_GRADIENT=float"], cache / f"fresh{i}")
        assert not reused
        compile_s.append(seconds)
    binary, _, _ = ut.build_binary(OWN_UT, [SOC], ["-DDTYPE_INPUT_GRADIENT=float"], cache / "fresh0")
    run_s, launch_s = [], []
    for _ in range(repeats):
        seconds, record = _timed_run(binary, work, ["--gtest_filter=*one_core_one_tile"])
        run_s.append(seconds)
        launch_s.append(record["launches"][0]["seconds"])
    return {"compile_s": _stats(compile_s), "program_s": _stats(run_s), "launch_s": _stats(launch_s),
            "elements": 2048, "instructions": record["launches"][0]["instructions"]}


def one_million(repeats: int, cache: Path, work: Path) -> dict:
    from opsnn.activation.threshold_grad_v2_d.op_host import tiling
    from opsnn.platform import get_platform
    n = 1 << 20
    result = tiling(n, "float32", 0.5, get_platform(SOC))
    rng = np.random.default_rng(0)
    for name in ("grad", "feature"):
        (work / f"{name}.bin").write_bytes(rng.standard_normal(n).astype(np.float32).tobytes())
    (work / "tiling.bin").write_bytes(result.tiling_data.to_bytes())
    (work / "case.txt").write_text(f"{n} {result.block_dim}\n")
    binary, _, _ = ut.build_binary(OWN_UT, [SOC], ["-DDTYPE_INPUT_GRADIENT=float"], cache / "fresh0")
    args = ["--gtest_also_run_disabled_tests", "--gtest_filter=*DISABLED_from_files"]
    out = {"elements": n, "block_dim": result.block_dim}
    for sanitize in (True, False):
        run_s, launch_s = [], []
        for _ in range(repeats):
            seconds, record = _timed_run(binary, work, args, sanitize, {"OPSNN_CASE_DIR": str(work)})
            run_s.append(seconds)
            launch_s.append(record["launches"][0]["seconds"])
        key = "sanitizer_on" if sanitize else "sanitizer_off"
        out[key] = {"program_s": _stats(run_s), "launch_s": _stats(launch_s),
                    "instructions": record["launches"][0]["instructions"],
                    "elements_per_s_median": n / statistics.median(launch_s)}
    return out


def per_call(repeats: int, cache: Path, work: Path) -> dict:
    """Seconds per instruction call, in CPU time of the thread that runs the core (the C++ launch's
    record, the Python loop's time.thread_time) as well as wall time: on a shared machine wall time
    mostly measures the wait for a CPU, and the two sides run at different moments. The C++ side is
    a launch of CALLS calls less a launch of none (a program's first launch costs ~10 ms of imports)."""
    binaries = {n: ut.build_binary(CALLS_UT, [SOC], [f"-DCALLS={n}"], cache / f"calls{n}")[0] for n in (0, CALLS)}
    cpp, cpp_wall = [], []
    for _ in range(repeats):
        cpu, wall = {}, {}
        for n, binary in binaries.items():
            _, record = _timed_run(binary, work, [], env={"OPENBLAS_NUM_THREADS": "1"})
            cpu[n], wall[n] = record["launches"][0]["cpu_seconds"], record["launches"][0]["seconds"]
        cpp.append((cpu[CALLS] - cpu[0]) / CALLS)
        cpp_wall.append((wall[CALLS] - wall[0]) / CALLS)
    # the same calls from Python, straight to the emulator (no bridge)
    from opsnn.ascendc import Adds, Duplicate, GlobalMemory, TBuf, TPipe
    from opsnn.ascendc.core import CoreContext
    from opsnn.platform import get_platform
    py, py_wall = [], []
    for _ in range(repeats):
        ctx = CoreContext(0, 1, get_platform(SOC), GlobalMemory(), True)
        buf = TBuf(name="b")
        TPipe(ctx).InitBuffer(buf, 256)
        t = buf.Get(np.float32)
        Duplicate(t, np.float32(1), 64)
        t0, c0 = time.perf_counter(), time.thread_time()
        for _ in range(CALLS):
            Adds(t, t, np.float32(1), 64)
        py.append((time.thread_time() - c0) / CALLS)
        py_wall.append((time.perf_counter() - t0) / CALLS)
    us = [x * 1e6 for x in cpp], [x * 1e6 for x in py]
    return {"cpp_cpu_us_per_call": _stats(us[0]), "python_cpu_us_per_call": _stats(us[1]),
            "cpp_wall_us_per_call": _stats([x * 1e6 for x in cpp_wall]),
            "python_wall_us_per_call": _stats([x * 1e6 for x in py_wall]),
            "bridge_cpu_us_per_call_median": statistics.median(us[0]) - statistics.median(us[1]),
            "cpp_over_python_cpu_median": statistics.median(us[0]) / statistics.median(us[1])}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--only", choices=("ut_2048", "run_1m", "per_call"), help="run one part")
    p.add_argument("--json", help="write the figures here (default: benchmarks/results_cpp_kernel.json)")
    args = p.parse_args(argv)
    kt_build.build()
    facts = measure.machine_facts()
    for line in measure.facts_lines(facts):
        print(line)
    with tempfile.TemporaryDirectory(prefix="opsnn-bench-cpp-") as tmp:
        cache, work = Path(tmp) / "cache", Path(tmp) / "work"
        work.mkdir()
        parts = {"ut_2048": ut_end_to_end, "run_1m": one_million, "per_call": per_call}
        results = {name: fn(args.repeats, cache, work) for name, fn in parts.items()
                   if args.only in (None, name)}
    if args.only:
        print(json.dumps(measure.jsonable(results), indent=1))
        return 0
    u, m, c = results["ut_2048"], results["run_1m"], results["per_call"]
    print(f"2048-element UT: compile {u['compile_s']['min']:.2f}/{u['compile_s']['median']:.2f} s (min/median), "
          f"program {u['program_s']['min'] * 1e3:.0f}/{u['program_s']['median'] * 1e3:.0f} ms, launch "
          f"{u['launch_s']['min'] * 1e3:.1f}/{u['launch_s']['median'] * 1e3:.1f} ms ({u['instructions']} instructions)")
    for key in ("sanitizer_on", "sanitizer_off"):
        r = m[key]
        print(f"1 M float32 on {m['block_dim']} cores, {key.replace('_', ' ')}: launch "
              f"{r['launch_s']['min'] * 1e3:.0f}/{r['launch_s']['median'] * 1e3:.0f} ms, program "
              f"{r['program_s']['min'] * 1e3:.0f}/{r['program_s']['median'] * 1e3:.0f} ms, "
              f"{r['instructions']} instructions, {r['elements_per_s_median'] / 1e6:.1f} M elements/s")
    print(f"one instruction call (Adds, 64 floats), CPU time: from C++ {c['cpp_cpu_us_per_call']['min']:.1f}/"
          f"{c['cpp_cpu_us_per_call']['median']:.1f} us, from Python {c['python_cpu_us_per_call']['min']:.1f}/"
          f"{c['python_cpu_us_per_call']['median']:.1f} us: the bridge {c['bridge_cpu_us_per_call_median']:.1f} us, "
          f"C++ / Python {c['cpp_over_python_cpu_median']:.2f} (wall: {c['cpp_wall_us_per_call']['median']:.1f} / "
          f"{c['python_wall_us_per_call']['median']:.1f} us)")
    out = Path(args.json) if args.json else Path(__file__).resolve().parent / "results_cpp_kernel.json"
    out.write_text(json.dumps(measure.jsonable({"facts": facts, **results}), indent=1))
    print(f"written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
