"""Every declared operator's numpy API against the torch op it mirrors (AclnnApi.numpy_api and
.aten: ThresholdBackward, Threshold, LeakyReluBackward, HardtanhBackward, and any operator
registered later), semantics="torch", same inputs, preallocated nothing (both allocate).

    .venv/bin/python benchmarks/bench_declared_ops.py [--sizes 4K,64K,1M,16M] [--dtypes float32,float16]
                                                      [--samples 9] [--ops leaky_relu_backward] [--out FILE]

Method: per cell, `samples` interleaved samples of opsnn and torch (each sample calls one side
enough times to move >= 16 MB, the time per call its figure); min and median per side, the ratio
torch/opsnn of the mins (> 1: opsnn faster) and of the medians; a sample 10x its side's min is
counted as a stall and reported. The machine's facts go beside the figures in the JSON.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from pathlib import Path

import numpy as np
import torch

import opsnn
from opsnn.aclnn.declarations import all_apis
from opsnn.dtypes import bfloat16

SIZES = {"4K": 4 << 10, "64K": 64 << 10, "1M": 1 << 20, "16M": 16 << 20}
SCALARS = {"threshold_backward": (0.5,), "threshold": (0.5, -1.0), "leaky_relu_backward": (0.01, False),
           "hardtanh_backward": (-1.0, 1.0)}  # a typical call's scalars; other operators: 0.5 each
HERE = Path(__file__).resolve().parent


def _machine() -> dict:
    model = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), model)
    except OSError:
        pass
    return {"cpu": model, "cores": os.cpu_count(), "usable": len(os.sched_getaffinity(0)),
            "python": platform.python_version(), "numpy": np.__version__, "torch": torch.__version__,
            "torch_threads": torch.get_num_threads(), "load": os.getloadavg()}


def _torch(a: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(a.view(np.int16)).view(torch.bfloat16) if a.dtype == bfloat16 else torch.from_numpy(a)


def _per_call(fn, nbytes: int) -> float:
    calls = max(1, (16 << 20) // max(nbytes, 1))
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls


def cell(api, dtype, n: int, samples: int) -> dict:
    rng = np.random.default_rng(0)
    tensors = [rng.standard_normal(n).astype(np.float32).astype(dtype) for p in api.inputs if p.kind == "tensor"]
    scalars = SCALARS.get(api.numpy_api, tuple(0.5 for p in api.inputs if p.kind != "tensor"))
    ours = getattr(opsnn, api.numpy_api)
    theirs = getattr(torch.ops.aten, api.aten).default
    t_args = [_torch(t) for t in tensors] + list(scalars)

    def run_ours():
        ours(*tensors, *scalars)

    def run_theirs():
        theirs(*t_args)

    run_ours(), run_theirs()  # first calls (loading, compiling) are not this bench's business
    nbytes = sum(t.nbytes for t in tensors) + tensors[0].nbytes
    a, b = [], []
    for _ in range(samples):
        a.append(_per_call(run_ours, nbytes))
        b.append(_per_call(run_theirs, nbytes))
    stalls = sum(x > 10 * min(a) for x in a) + sum(x > 10 * min(b) for x in b)
    return {"op": api.numpy_api, "dtype": str(np.dtype(dtype)), "n": n,
            "opsnn_min_us": min(a) * 1e6, "opsnn_median_us": statistics.median(a) * 1e6,
            "torch_min_us": min(b) * 1e6, "torch_median_us": statistics.median(b) * 1e6,
            "ratio_min": min(b) / min(a), "ratio_median": statistics.median(b) / statistics.median(a),
            "stalls": stalls}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default=",".join(SIZES))
    p.add_argument("--dtypes", default="float32,float16,bfloat16")
    p.add_argument("--samples", type=int, default=9)
    p.add_argument("--ops", default="", help="numpy-API names (default: every declared one)")
    p.add_argument("--out", default=str(HERE / "results_declared_ops.json"))
    args = p.parse_args(argv)
    dtypes = [bfloat16 if d == "bfloat16" else np.dtype(d) for d in args.dtypes.split(",")]
    wanted = set(filter(None, args.ops.split(",")))
    apis = [a for a in all_apis() if a.numpy_api and a.aten and (not wanted or a.numpy_api in wanted)]
    rows = []
    print(f"{'op':<22}{'dtype':<10}{'n':>10}{'opsnn us':>12}{'torch us':>12}{'ratio':>14}  stalls")
    for api in apis:
        for dtype in dtypes:
            for label in args.sizes.split(","):
                r = cell(api, dtype, SIZES[label], args.samples)
                rows.append(r)
                print(f"{r['op']:<22}{r['dtype']:<10}{label:>10}{r['opsnn_min_us']:>12.1f}{r['torch_min_us']:>12.1f}"
                      f"{r['ratio_min']:>7.2f}/{r['ratio_median']:<6.2f}  {r['stalls']}", flush=True)
    ratios = [r["ratio_min"] for r in rows]
    geomean = float(np.exp(np.mean(np.log(ratios)))) if ratios else float("nan")
    print(f"geometric mean of torch/opsnn (mins): {geomean:.2f}; worst {min(ratios):.2f}")
    Path(args.out).write_text(json.dumps({"machine": _machine(), "geomean_ratio_min": geomean, "rows": rows},
                                         indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
