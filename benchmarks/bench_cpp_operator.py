"""A C++ operator folder end to end through `opsnn run` (docs/cpp-operators.md): what a developer
waits for between editing and seeing the example's result.

    .venv/bin/python benchmarks/bench_cpp_operator.py [--repeats 3] [--example FILE] [--json FILE]

The seed's example (opsnn's own threshold_grad_v2_d folder: its op_host, op_api and kernel, and
relu_grad's, which its op_api reaches) through `python -m opsnn run`, timed as the whole command:

- cold: the folder's build caches removed first (its objects, its program, its kernel libraries):
  every op_host / op_api source and the example compile, link, and the kernel library compiles at
  the first launch. libopsnn_host and libopsnn_kt, built once per environment, are not removed.
- cached: nothing changed since the last run: the content keys are checked, nothing compiles.

The program's own seconds (the example's run, Python's start inside it included) are the cached
figure minus the check of the caches, shown apart from the command's. Min and median of --repeats
runs, the machine's facts and load beside them; nothing is asserted."""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import measure  # noqa: E402

from opsnn.host.kernels import Manifest  # noqa: E402
from opsnn.host.op_build import OperatorBuild  # noqa: E402
from opsnn.host.op_folder import folder_of  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SEED_EXAMPLE = ROOT / "opsnn/activation/threshold_grad_v2_d/examples/test_aclnn_threshold_backward.cpp"
SOC = "Ascend910B2"


def _stats(xs: list[float]) -> dict:
    return {"min": min(xs), "median": statistics.median(xs), "runs": len(xs)}


def _clear(example: Path) -> None:
    """The folder's objects, program and kernel libraries (what a first build makes)."""
    build = OperatorBuild(folder_of(example), SOC)
    shutil.rmtree(build.work, ignore_errors=True)
    cache = Manifest([]).cache()
    stems = {p.stem for f in build.folders if f.op_kernel_dir for p in f.op_kernel_dir.glob("*.cpp")}
    for entry in cache.glob("*") if cache.is_dir() else []:
        if any(entry.name.startswith(f"{s}-") for s in stems):
            shutil.rmtree(entry, ignore_errors=True)


def _run(example: Path) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the command and its children, stderr)."""
    before = os.times()
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "opsnn", "run", str(example), "--soc", SOC], capture_output=True,
                          text=True, cwd=ROOT)
    wall = time.perf_counter() - t0
    after = os.times()
    if done.returncode != 0:
        raise RuntimeError(f"opsnn run exited {done.returncode}:\n{done.stdout}\n{done.stderr[-3000:]}")
    cpu = (after.children_user + after.children_system) - (before.children_user + before.children_system)
    return wall, cpu, done.stderr


def _program_seconds(example: Path, repeats: int) -> list[float]:
    """The built example alone, run as `opsnn run` runs it (its environment), without the cache checks."""
    build = OperatorBuild(folder_of(example), SOC)
    program = build.work / example.stem
    env = build.environment(sanitize=True)
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        done = subprocess.run([str(program)], capture_output=True, text=True, env=env)
        out.append(time.perf_counter() - t0)
        if done.returncode != 0:
            raise RuntimeError(done.stderr[-3000:])
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--example", default=str(SEED_EXAMPLE), help="an aclnn example inside an operator folder")
    p.add_argument("--json", help="write the figures here (default: benchmarks/results_cpp_operator.json)")
    args = p.parse_args(argv)
    example = Path(args.example).resolve()
    facts = measure.machine_facts()
    for line in measure.facts_lines(facts):
        print(line)
    _run(example)  # libopsnn_host / libopsnn_kt current before anything is timed
    results: dict = {"example": str(example.relative_to(ROOT)) if example.is_relative_to(ROOT) else str(example),
                     "soc": SOC}
    cold, cold_cpu, loads = [], [], []
    for _ in range(args.repeats):
        _clear(example)
        state = measure.machine_state()
        wall, cpu, err = _run(example)
        assert "built in" in err, err
        cold.append(wall)
        cold_cpu.append(cpu)
        loads.append(measure.state_delta(state, measure.machine_state()))
    # A run with nothing changed must compile nothing; one that does is counted and kept out of the
    # cached figure, which times the checks alone (before capi.build.compiler() was made thread-safe,
    # 4 runs in 9 recompiled one source whose cached key had been taken with "c++" for "g++").
    cached, cached_cpu, recompiled = [], [], 0
    while len(cached) < max(args.repeats, 5) and recompiled < 10:
        wall, cpu, err = _run(example)
        if "reused the last build" not in err:
            recompiled += 1
            continue
        cached.append(wall)
        cached_cpu.append(cpu)
    results["cached_runs_that_recompiled"] = recompiled
    program = _program_seconds(example, max(args.repeats, 5))
    results.update(cold_s=_stats(cold), cold_cpu_s=_stats(cold_cpu), cached_s=_stats(cached),
                   cached_cpu_s=_stats(cached_cpu), program_s=_stats(program), cold_runs_load=loads)
    print(f"opsnn run {results['example']} ({SOC}, sanitizer on):")
    for key, label in (("cold_s", "cold (first build)"), ("cold_cpu_s", "  its CPU seconds"),
                       ("cached_s", "cached builds"), ("cached_cpu_s", "  its CPU seconds"),
                       ("program_s", "the example program alone")):
        s = results[key]
        print(f"  {label:<28} min {s['min']:7.2f} s   median {s['median']:7.2f} s   ({s['runs']} runs)")
    print(f"  runs with nothing changed that recompiled a source (left out above): {recompiled}")
    out = Path(args.json) if args.json else Path(__file__).resolve().parent / "results_cpp_operator.json"
    out.write_text(json.dumps(measure.jsonable({"facts": facts, **results}), indent=1))
    print(f"written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
