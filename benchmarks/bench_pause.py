"""Calls after a pause (issue 27 item 17): opsnn's threshold_backward against torch's when each block of
calls follows an idle gap, as in a training step (the pools' workers have gone to sleep by then).

    .venv/bin/python benchmarks/bench_pause.py [--sizes 1M] [--dtypes int8,uint8] [--pause-ms 5]
        [--rounds 30] [--calls 16] [--semantics torch]
    .venv/bin/python benchmarks/bench_pause.py --ab A.so B.so [--ab-rounds 4] ...   # two builds, A/B

Per cell (size x dtype) the two sides take turns, in a new order each round; before each block of
`calls` calls the process sleeps --pause-ms. A sample is the time per call of one block; its first
call is also kept apart (the one that wakes the workers). Each side: min and median over its
samples, and the ratio torch/opsnn of each (> 1: opsnn faster). Beside every figure: the load
average and the cores' worth of CPU other processes took during the cell (measure.others_cores).

--ab runs the same measurement in fresh processes that alternate between two builds of
opsnn.engine._select (A, B, A, B, ...: a slow phase of a shared machine hits both alike), each
build loaded in place of the installed one (--engine-so), and prints both builds' figures side by
side with the ratio B/A of opsnn's times (< 1: B faster).
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import measure as M  # noqa: E402

MODULE = "opsnn.engine._select"


def load_engine(path: str) -> None:
    """Make the build at `path` the engine this process uses (before opsnn imports its own)."""
    spec = importlib.util.spec_from_file_location(MODULE, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules[MODULE] = module


def inputs(dtype: str, n: int):
    """(grad, feature) of the main bench's data: mixed values, about half above the threshold 1."""
    import numpy as np
    rng = np.random.default_rng(0)
    g, f = (rng.standard_normal(n, np.float32) * 2 + 1 for _ in range(2))
    dt = np.dtype(dtype)
    if dt.kind in "iu":
        lo = 0 if dt.kind == "u" else -100
        return tuple(np.clip(np.rint(a * 30), lo, 100).astype(dt) for a in (g, f))
    return g.astype(dt), f.astype(dt)


def measure_cells(sizes, dtypes, pause: float, rounds: int, calls: int | None, semantics: str) -> dict:
    import numpy as np
    import torch

    import opsnn
    backward = torch.ops.aten.threshold_backward.grad_input
    cells = {}
    for size in sizes:
        n = M.parse_size(size)
        for dtype in dtypes:
            g, f = inputs(dtype, n)
            out = np.empty_like(g)
            tg, tf, tout = (torch.from_numpy(a) for a in (g, f, out))
            sides = {"opsnn": lambda g=g, f=f, out=out: opsnn.threshold_backward(g, f, 1.0, out=out,
                                                                                  semantics=semantics),
                     "torch": lambda tg=tg, tf=tf, tout=tout: backward(tg, tf, 1.0, grad_input=tout)}
            k = calls or M.calls_for(n)
            M.warm(sides, k)
            blocks = {s: [] for s in sides}
            firsts = {s: [] for s in sides}
            perf = time.perf_counter
            load0, before = os.getloadavg()[0], M.cpu_snapshot()
            for r in range(rounds):
                order = list(sides)
                random.Random(r).shuffle(order)
                for s in order:
                    fn = sides[s]
                    time.sleep(pause)
                    t0 = perf()
                    fn()
                    t1 = perf()
                    for _ in range(k - 1):
                        fn()
                    firsts[s].append(t1 - t0)
                    blocks[s].append((perf() - t0) / k)
            cells[f"{size}/{dtype}"] = {
                "calls": k, "load": [load0, os.getloadavg()[0]], "others": M.others_cores(before, M.cpu_snapshot()),
                "block": {s: M.summary(v) for s, v in blocks.items()},
                "first": {s: M.summary(v) for s, v in firsts.items()}}
    return cells


def cell_line(label: str, c: dict) -> str:
    b, f = c["block"], c["first"]
    r = M.ratio(b["torch"], b["opsnn"])
    return (f"{label:>10} x{c['calls']:<3} opsnn {M.us(b['opsnn']['min'])}/{M.us(b['opsnn']['median'])} us, "
            f"torch {M.us(b['torch']['min'])}/{M.us(b['torch']['median'])} us (min/median per call); "
            f"torch/opsnn {r['min']:.2f}/{r['median']:.2f}; first call opsnn {M.us(f['opsnn']['min'])}/"
            f"{M.us(f['opsnn']['median'])}, torch {M.us(f['torch']['min'])}/{M.us(f['torch']['median'])}; "
            f"load {c['load'][0]:.2f}->{c['load'][1]:.2f}, others {c['others']:.2f} cores")


def ab(builds, args) -> None:
    """Fresh processes alternating between the builds; every child's cells, then both builds pooled."""
    child = [sys.executable, __file__, "--json", "--sizes", args.sizes, "--dtypes", args.dtypes,
             "--pause-ms", str(args.pause_ms), "--rounds", str(args.rounds), "--semantics", args.semantics]
    if args.calls:
        child += ["--calls", str(args.calls)]
    runs = {b: [] for b in builds}
    for i in range(args.ab_rounds):
        for build in (builds if i % 2 == 0 else builds[::-1]):
            done = subprocess.run([*child, "--engine-so", build], capture_output=True, text=True, check=True)
            cells = json.loads(done.stdout)
            runs[build].append(cells)
            name = "A" if build == builds[0] else "B"
            for label, c in cells.items():
                print(f"run {i} {name}: " + cell_line(label, c), flush=True)
    print(f"\npooled over {args.ab_rounds} runs each (A = {builds[0]}, B = {builds[1]}); "
          "min / median of each run's figure:")
    for label in runs[builds[0]][0]:
        parts = []
        for name, build in zip("AB", builds, strict=True):
            o = [run[label]["block"]["opsnn"] for run in runs[build]]
            t = [run[label]["block"]["torch"] for run in runs[build]]
            ratios = [tt["min"] / oo["min"] for oo, tt in zip(o, t, strict=True)]
            parts.append(f"{name}: opsnn {M.us(min(x['min'] for x in o))}/"
                         f"{M.us(statistics.median(x['median'] for x in o))} us, torch "
                         f"{M.us(min(x['min'] for x in t))}/{M.us(statistics.median(x['median'] for x in t))} us, "
                         f"torch/opsnn (min) {min(ratios):.2f}-{max(ratios):.2f}")
        print(f"  {label}: " + "; ".join(parts))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1M")
    ap.add_argument("--dtypes", default="int8,uint8")
    ap.add_argument("--pause-ms", type=float, default=5.0, help="idle time before each block (default 5)")
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--calls", type=int, default=None, help="calls per block (default: the bench's, 16 at 1 M)")
    ap.add_argument("--semantics", default="torch")
    ap.add_argument("--engine-so", default=None, help="a build of opsnn.engine._select to use instead")
    ap.add_argument("--ab", nargs=2, metavar=("A.so", "B.so"), default=None)
    ap.add_argument("--ab-rounds", type=int, default=4, help="processes per build (--ab)")
    ap.add_argument("--json", action="store_true", help="print the cells as JSON (what --ab's children do)")
    args = ap.parse_args(argv)
    if args.ab:
        ab(args.ab, args)
        return 0
    if args.engine_so:
        load_engine(args.engine_so)
    cells = measure_cells(args.sizes.split(","), args.dtypes.split(","), args.pause_ms / 1e3, args.rounds,
                          args.calls, args.semantics)
    if args.json:
        print(json.dumps(M.jsonable(cells)))
    else:
        print(f"pause {args.pause_ms} ms before each block; {args.rounds} rounds; semantics {args.semantics}")
        for label, c in cells.items():
            print(cell_line(label, c))
    return 0


if __name__ == "__main__":
    sys.exit(main())
