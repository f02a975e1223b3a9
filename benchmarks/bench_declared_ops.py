"""Every declared operator's numpy API against the torch op it mirrors (AclnnApi.numpy_api and
.aten: ThresholdBackward, Threshold, LeakyReluBackward, HardtanhBackward, and any operator
registered later), semantics="torch", same inputs, preallocated nothing (both allocate).

    .venv/bin/python benchmarks/bench_declared_ops.py [--quick] [--sizes 4K,64K,1M,16M]
        [--dtypes float32,float16] [--samples 3] [--passes 3] [--ops leaky_relu_backward] [--out FILE]

Method (benchmarks/measure.py, docs/benchmarking.md; the same as bench_threshold_backward.py): per
cell, interleaved samples of opsnn and torch (each sample calls one side enough times to touch
>= 16 M elements; in a new order each round), and torch in its own block; `passes` repeats of the whole
table (cell order alternating); min and median per side over every sample, the ratio torch/opsnn of
the mins (> 1: opsnn faster) and of the medians; a sample 10x its side's min is a stall, counted
and printed. torch and opsnn use every usable core. The machine's facts go beside the figures.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

import numpy as np
import torch

import opsnn
from opsnn.aclnn.declarations import all_apis
from opsnn.dtypes import bfloat16

sys.path.insert(0, str(Path(__file__).resolve().parent))
import measure as M  # noqa: E402

SIZES = {"4K": 4 << 10, "64K": 64 << 10, "1M": 1 << 20, "16M": 16 << 20}
SCALARS = {"threshold_backward": (0.5,), "threshold": (0.5, -1.0), "leaky_relu_backward": (0.01, False),
           "hardtanh_backward": (-1.0, 1.0)}  # a typical call's scalars; other operators: 0.5 each
QUICK = {"sizes": "4K,1M", "dtypes": "float32", "passes": 2, "samples": 3}
HERE = Path(__file__).resolve().parent


def _torch(a: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(a.view(np.int16)).view(torch.bfloat16) if a.dtype == bfloat16 else torch.from_numpy(a)


def contenders(api, dtype, n: int) -> dict:
    rng = np.random.default_rng(0)
    tensors = [rng.standard_normal(n).astype(np.float32).astype(dtype) for p in api.inputs if p.kind == "tensor"]
    scalars = SCALARS.get(api.numpy_api, tuple(0.5 for p in api.inputs if p.kind != "tensor"))
    ours = getattr(opsnn, api.numpy_api)
    theirs = getattr(torch.ops.aten, api.aten).default
    t_args = [_torch(t) for t in tensors] + list(scalars)
    return {"opsnn": lambda: ours(*tensors, *scalars), "torch": lambda: theirs(*t_args)}


def run(apis, dtypes, sizes, samples: int, passes: int) -> tuple:
    cells = [(api, dtype, label) for api in apis for dtype in dtypes for label in sizes]
    taken = {id(c): {} for c in cells}
    others = {id(c): [] for c in cells}
    states = {}
    for p in range(passes):
        before = M.machine_state()
        for cell in cells if p % 2 == 0 else cells[::-1]:
            api, dtype, label = cell
            duel = contenders(api, dtype, SIZES[label])
            calls = M.calls_for(SIZES[label])
            snap = M.cpu_snapshot()
            M.warm(duel, calls)  # first calls (loading, compiling) are not this bench's business
            into = taken[id(cell)]
            alone = into.setdefault("torch_alone", [])
            if p % 2:
                M.block(duel["torch"], calls, samples, alone)
            M.interleaved(duel, calls, samples, seed=p, into=into)
            if not p % 2:
                M.block(duel["torch"], calls, samples, alone)
            others[id(cell)].append(M.others_cores(snap, M.cpu_snapshot()))
        states[f"pass {p + 1}"] = M.state_delta(before, M.machine_state())
        print(f"  pass {p + 1}/{passes} done ({states[f'pass {p + 1}']['seconds']:.0f} s)", flush=True)
    rows = []
    for cell in cells:
        api, dtype, label = cell
        s = {k: M.summary(v) for k, v in taken[id(cell)].items()}
        rows.append({"op": api.numpy_api, "dtype": str(np.dtype(dtype)), "size": label, "n": SIZES[label],
                     "seconds": s, "torch_over_opsnn": M.ratio(s["torch"], s["opsnn"]),
                     "torch_alone_over_opsnn": M.ratio(s["torch_alone"], s["opsnn"]),
                     "others_cores_per_pass": others[id(cell)],
                     # the previous format's keys
                     "opsnn_min_us": s["opsnn"]["min"] * 1e6, "opsnn_median_us": s["opsnn"]["median"] * 1e6,
                     "torch_min_us": s["torch"]["min"] * 1e6, "torch_median_us": s["torch"]["median"] * 1e6,
                     "ratio_min": s["torch"]["min"] / s["opsnn"]["min"],
                     "ratio_median": s["torch"]["median"] / s["opsnn"]["median"],
                     "stalls": s["opsnn"]["stalls"] + s["torch"]["stalls"]})
    return rows, states


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help=f"a short run: {QUICK}; written to a temporary file")
    p.add_argument("--sizes", default=None)
    p.add_argument("--dtypes", default=None, help="default float32,float16,bfloat16")
    p.add_argument("--samples", type=int, default=None, help="interleaved samples per side per pass (default 3)")
    p.add_argument("--passes", type=int, default=None, help="repeats of the whole table (default 3)")
    p.add_argument("--ops", default="", help="numpy-API names (default: every declared one)")
    p.add_argument("--out", default=None, help="default benchmarks/results_declared_ops.json")
    args = p.parse_args(argv)
    preset = QUICK if args.quick else {"sizes": ",".join(SIZES), "dtypes": "float32,float16,bfloat16", "passes": 3,
                                       "samples": 3}
    sizes = (args.sizes or preset["sizes"]).split(",")
    dtypes = [bfloat16 if d == "bfloat16" else np.dtype(d) for d in (args.dtypes or preset["dtypes"]).split(",")]
    samples, passes = args.samples or preset["samples"], args.passes or preset["passes"]
    out = Path(args.out) if args.out else (Path(tempfile.gettempdir()) / "opsnn-bench-declared-quick.json"
                                           if args.quick else HERE / "results_declared_ops.json")
    cores = len(os.sched_getaffinity(0))
    torch.set_num_threads(cores)
    started = M.machine_state()
    facts = M.machine_facts()
    for line in M.facts_lines(facts):
        print(line)
    wanted = set(filter(None, args.ops.split(",")))
    apis = [a for a in all_apis() if a.numpy_api and a.aten and (not wanted or a.numpy_api in wanted)]
    print(f"threads: torch {torch.get_num_threads()}, opsnn every usable core ({cores}); {passes} passes x "
          f"{samples} interleaved samples per side, each >= {M.SAMPLE_ELEMENTS >> 20} M elements", flush=True)
    rows, states = run(apis, dtypes, sizes, samples, passes)
    print(f"\n{'op':<22}{'dtype':<10}{'n':>5}{'opsnn us min (med)':>22}{'torch us min (med)':>22}"
          f"{'torch/opsnn':>15}{'alone/opsnn':>13}  stalls")
    for r in rows:
        s = r["seconds"]
        print(f"{r['op']:<22}{r['dtype']:<10}{r['size']:>5}"
              f"{M.us(s['opsnn']['min']) + ' (' + M.us(s['opsnn']['median']) + ')':>22}"
              f"{M.us(s['torch']['min']) + ' (' + M.us(s['torch']['median']) + ')':>22}"
              f"{r['torch_over_opsnn']['min']:>8.2f} ({r['torch_over_opsnn']['median']:.2f})"
              f"{r['torch_alone_over_opsnn']['min']:>8.2f}     {s['opsnn']['stalls']}/{s['torch']['stalls']}"
              f"/{s['torch_alone']['stalls']}")
    head = {}
    for basis in ("min", "median"):
        ratios = {f"{r['op']}/{r['dtype']}/{r['size']}": r["torch_over_opsnn"][basis] for r in rows}
        label, value = M.worst(ratios)
        head[basis] = {"geomean": M.geomean(ratios.values()), "worst": [label, value],
                       "below_1": sum(v < 1 for v in ratios.values()), "cells": len(ratios)}
    print(f"geometric mean torch/opsnn: mins {head['min']['geomean']:.2f} (worst {head['min']['worst'][1]:.2f}, "
          f"{head['min']['worst'][0]}), medians {head['median']['geomean']:.2f} (worst "
          f"{head['median']['worst'][1]:.2f}); cells below 1 (mins): {head['min']['below_1']}/{head['min']['cells']}")
    per_op = {}
    for op in dict.fromkeys(r["op"] for r in rows):
        ratios = {f"{r['dtype']}/{r['size']}": r["torch_over_opsnn"]["min"] for r in rows if r["op"] == op}
        label, value = M.worst(ratios)
        per_op[op] = {"geomean": M.geomean(ratios.values()), "worst": [label, value],
                      "below_1": sum(v < 1 for v in ratios.values()), "cells": len(ratios)}
        print(f"  {op:22s} mins: geometric mean {per_op[op]['geomean']:.2f}, worst {value:.2f} ({label}), "
              f"{per_op[op]['below_1']}/{len(ratios)} below 1")
    head["per_op"] = per_op
    lines = M.stall_lines({f"{r['op']}/{r['dtype']}/{r['size']}": r["seconds"] for r in rows})
    total = {side: sum(r["seconds"][side]["stalls"] for r in rows) for side in ("opsnn", "torch", "torch_alone")}
    print(f"stalls (a sample >= {M.STALL_FACTOR:.0f}x its side's min in its cell; kept in the medians): "
          + ", ".join(f"{k} {v}" for k, v in total.items()))
    for line in lines:
        print(line)
    states["whole run"] = M.state_delta(started, M.machine_state())
    for line in M.state_lines(states):
        print("  " + line)
    loaded = M.busy(states, cores)
    if loaded:
        print("WARNING: the machine was loaded: trust the mins more than the medians.")
    out.write_text(json.dumps(M.jsonable({"method": __doc__, "machine": facts, "passes": passes, "samples": samples,
                                          "headline": head, "geomean_ratio_min": head["min"]["geomean"],
                                          "stalls": {"per_side": total, "lines": lines}, "machine_states": states,
                                          "loaded_warning": loaded, "rows": rows}), indent=1))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
