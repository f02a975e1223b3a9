"""Emulator throughput of every registered operator's kernels, on both schemes, sanitizer off and
on (medians of several launches; tiling and GM set-up are not timed).

    .venv/bin/python benchmarks/bench_emulator.py [--n 1048576] [--repeats 5] [--ops a,b] [--dtypes a,b]

The operators come from opsnn.registry: each one's tools give an ExactRun (tensors allocated and
filled) that is launched here with the sanitizer off and on, interleaved so background load hits
both alike. Targets: ThresholdGradV2D float32 on Ascend910B2 >= 50 M elements/s with the
sanitizer off and the sanitizer costing at most 3x (issue 3); the arch35 kernels at least as fast
as the 910B ones (issue 11) -- reported per dtype, not asserted."""
from __future__ import annotations

import argparse
import os
import statistics
import time

from opsnn import registry
from opsnn.platform import get_platform

SCHEMES = ("Ascend910B2", "Ascend950")
TARGET_F32 = 50e6


def _request(op: registry.Operator, dtype: str, n: int, soc: str) -> registry.ToolRequest:
    n_inputs = sum(1 for t in op.op_def.inputs if t.param_type == "REQUIRED")
    options = {o.name: o.default for o in op.options if "sanitize" in o.commands}
    return registry.ToolRequest(((n,),) * n_inputs, dtype, get_platform(soc), options)


def bench(op: registry.Operator, dtype: str, n: int, soc: str, repeats: int) -> tuple[float, float, int] | None:
    """(elements/s sanitizer off, on, block_dim), or None where the scheme has no kernel for it."""
    try:
        run = op.tools_module().prepare_run(_request(op, dtype, n, soc))
    except (ValueError, TypeError):  # e.g. ThresholdV2 on 910B (a TBE kernel), a dtype one scheme lacks
        return None
    times: dict[bool, list[float]] = {False: [], True: []}
    for rep in range(repeats + 1):  # the first round warms caches and is dropped
        for sanitize in (False, True):
            t0 = time.perf_counter()
            report = run.launch(sanitize)
            if rep:
                times[sanitize].append(time.perf_counter() - t0)
            if sanitize and not report.ok:
                raise RuntimeError(f"{op.name} {dtype} on {soc}: {report.errors[:2]}")
    elements = run.num_elements
    return elements / statistics.median(times[False]), elements / statistics.median(times[True]), run.block_dim


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1 << 20, help="elements per input")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--ops", default=None, help="comma-separated operator names (default: every registered one)")
    ap.add_argument("--dtypes", default=None, help="comma-separated dtypes (default: each operator's)")
    a = ap.parse_args(argv)
    ops = registry.discover()
    names = a.ops.split(",") if a.ops else [name for name, op in ops.items() if op.tools]
    print(f"emulator throughput, n={a.n}, median of {a.repeats}, M elements/s; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    met = True
    for name in names:
        op = registry.get(name)
        dtypes = a.dtypes.split(",") if a.dtypes else list(dict.fromkeys(op.op_def.inputs[0].dtypes))
        print(f"\n{op.op_type}")
        print(f"  {'dtype':<9} {'910B off':>9} {'910B on':>8} {'950 off':>8} {'950 on':>7} {'950/910B':>9}")
        for dtype in dtypes:
            r = {soc: bench(op, dtype, a.n, soc, a.repeats) for soc in SCHEMES}
            cells = []
            for soc in SCHEMES:
                cells += ["-", "-"] if r[soc] is None else [f"{r[soc][0] / 1e6:.1f}", f"{r[soc][1] / 1e6:.1f}"]
            ratio = f"{r['Ascend950'][0] / r['Ascend910B2'][0]:.2f}x" if all(r.values()) else "-"
            print(f"  {dtype:<9} {cells[0]:>9} {cells[1]:>8} {cells[2]:>8} {cells[3]:>7} {ratio:>9}")
            if name == "threshold_grad_v2_d" and dtype == "float32" and r["Ascend910B2"]:
                off, on, _ = r["Ascend910B2"]
                met = off >= TARGET_F32 and off / on <= 3.0
    print("\nThresholdGradV2D float32 target (910B >= 50 M/s off, sanitizer <= 3x):", "met" if met else "NOT met")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
