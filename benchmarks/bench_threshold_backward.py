"""make bench: opsnn's fast path against torch, the numpy engine, the emulator and a memory roof.

    .venv/bin/python benchmarks/bench_threshold_backward.py [--passes 3] [--sizes 4K,1M] [--dtypes float32]
                                                            [--no-cold] [--no-plot] [--out results.json]

Method (the machine is shared and has two OpenMP runtimes once torch and numba are both loaded):
- every contender runs in its own block: warm-up calls for WARM_S first (the other runtime's
  spinning workers park, caches and page tables settle), then batches of calls until BLOCK_S,
  the block's figure being the median batch time per call; all write into preallocated outputs;
- the whole table is measured PASSES times (the contenders' order rotating); each figure is
  reported as min / median / max over the passes, each ratio from the pass medians;
- the load average, CPU steal and a fixed single-thread calibration are recorded per pass and a
  warning is printed when they say the machine was busy.
The roof is the faster of numpy and torch doing a 2-read-1-write integer add over the same bytes.
Cold start and peak RSS run in fresh subprocesses. Writes results.json and results.png beside this file.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import ml_dtypes
import numpy as np
import torch

import opsnn
from opsnn.backends import fast, pool
from opsnn.backends.plan import plan_backward

DTYPES = ["float32", "float16", "bfloat16", "int32", "int8", "uint8"]
SIZES = {"4K": 4 << 10, "16K": 16 << 10, "64K": 64 << 10, "256K": 256 << 10, "1M": 1 << 20, "4M": 4 << 20,
         "16M": 16 << 20}
SEMANTICS = ("torch", "ascend910b", "ascend950")
THRESHOLD = 1.0
WARM_S, BLOCK_S, MIN_BATCHES, BATCH_S = 0.012, 0.03, 5, 20e-6
EMULATOR_MAX = 1 << 16
HERE = Path(__file__).resolve().parent
BF16 = np.dtype(ml_dtypes.bfloat16)


def np_dtype(name):
    return BF16 if name == "bfloat16" else np.dtype(name)


def as_torch(a):
    if a.dtype == BF16:
        return torch.from_numpy(a.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(a)


def inputs(name, n, seed=0):
    """Mixed data, about half the features above the threshold."""
    rng = np.random.default_rng(seed)
    dt = np_dtype(name)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo, hi = max(info.min, -100), min(info.max, 100)
        return tuple(rng.integers(lo, hi, n, endpoint=True).astype(dt) for _ in range(2))
    return tuple((rng.standard_normal(n, np.float32) * 2 + THRESHOLD).astype(dt) for _ in range(2))


def block_time(fn) -> float:
    """Median seconds per call over batches, after warming up (see the module docstring)."""
    start = time.perf_counter()
    fn()
    fn()
    while time.perf_counter() - start < WARM_S:
        fn()
    t0 = time.perf_counter()
    fn()
    once = max(time.perf_counter() - t0, 1e-8)
    per_batch = max(1, int(BATCH_S / once))
    samples, start = [], time.perf_counter()
    while len(samples) < MIN_BATCHES or time.perf_counter() - start < BLOCK_S:
        t0 = time.perf_counter()
        for _ in range(per_batch):
            fn()
        samples.append((time.perf_counter() - t0) / per_batch)
    return statistics.median(samples)


def cell_contenders(name, n):
    """name -> zero-argument callable, for one (dtype, size) cell."""
    g, f = inputs(name, n)
    out = np.empty_like(g)
    tg, tf, tout = as_torch(g), as_torch(f), as_torch(out)
    bits, signed = f"u{g.dtype.itemsize}", f"i{g.dtype.itemsize}"  # torch adds no uint16/uint32
    gu, fu, ou = g.view(bits), f.view(bits), out.view(bits)
    tgu, tfu, tou = (torch.from_numpy(x.view(signed)) for x in (g, f, out))
    backward = torch.ops.aten.threshold_backward.grad_input
    forward = torch.ops.aten.threshold.out
    c = {f"opsnn_{s}": (lambda s=s: opsnn.threshold_backward(g, f, THRESHOLD, out=out, semantics=s))
         for s in SEMANTICS}
    c["torch"] = lambda: backward(tg, tf, THRESHOLD, grad_input=tout)
    c["forward_opsnn"] = lambda: opsnn.threshold(f, THRESHOLD, 0.0, out=out)
    c["forward_torch"] = lambda: forward(tf, THRESHOLD, 0.0, out=tout)
    c["roof_numpy"] = lambda: np.add(gu, fu, out=ou)
    c["roof_torch"] = lambda: torch.add(tgu, tfu, out=tou)
    plan = plan_backward(g, f, THRESHOLD, "torch")
    once = {"numpy_engine": lambda: fast.threshold_backward(g, f, plan, out, engine="numpy")}
    if n <= EMULATOR_MAX:
        once["emulator"] = lambda: opsnn.threshold_backward(g, f, THRESHOLD, semantics="ascend910b",
                                                            backend="emulator")
    return c, once


def machine_state():
    with open("/proc/loadavg") as fh:
        load = float(fh.read().split()[0])
    with open("/proc/stat") as fh:
        cpu = [int(x) for x in fh.readline().split()[1:]]
    return load, cpu[7] if len(cpu) > 7 else 0, sum(cpu)


def calibration() -> float:
    """A fixed single-thread job (1 M uint32 adds): its spread across passes shows how loaded we were."""
    a = np.arange(1 << 20, dtype=np.uint32)
    o = np.empty_like(a)
    return block_time(lambda: np.add(a, a, out=o))


def run_table(sizes, dtypes, passes):
    cells = {(d, s): {} for d in dtypes for s in sizes}
    once = {}
    states = []
    for p in range(passes):
        load0, steal0, total0 = machine_state()
        cal = calibration()
        for name in dtypes:
            for label in sizes:
                contenders, extras = cell_contenders(name, SIZES[label])
                order = list(contenders)
                order = order[p % len(order):] + order[: p % len(order)]
                for key in order:
                    cells[(name, label)].setdefault(key, []).append(block_time(contenders[key]))
                if p == 0:
                    once[(name, label)] = {k: block_time(fn) for k, fn in extras.items()}
            print(f"  pass {p + 1}/{passes}: {name} done", flush=True)
        load1, steal1, total1 = machine_state()
        steal = (steal1 - steal0) / max(total1 - total0, 1)
        states.append({"load_start": load0, "load_end": load1, "steal_fraction": steal, "calibration_s": cal})
    return cells, once, states


def summarise(samples):
    return {"min": min(samples), "median": statistics.median(samples), "max": max(samples)}


def ratio_stats(num, den):
    r = [a / b for a, b in zip(num, den, strict=True)]
    return summarise(r)


def rows_from(cells, once, sizes):
    rows = []
    for (name, label), c in cells.items():
        n = SIZES[label]
        roof = [min(a, b) for a, b in zip(c["roof_numpy"], c["roof_torch"], strict=True)]
        row = {"dtype": name, "size": label, "n": n, "bytes_moved": 3 * n * np_dtype(name).itemsize,
               "seconds": {k: summarise(v) for k, v in c.items()}, "roof_seconds": summarise(roof)}
        row["seconds"].update({k: {"median": v} for k, v in once.get((name, label), {}).items()})
        row["torch_over_opsnn"] = {s: ratio_stats(c["torch"], c[f"opsnn_{s}"]) for s in SEMANTICS}
        row["ascend_over_torch_semantics"] = {s: ratio_stats(c["opsnn_torch"], c[f"opsnn_{s}"])
                                              for s in SEMANTICS[1:]}
        row["forward_torch_over_opsnn"] = ratio_stats(c["forward_torch"], c["forward_opsnn"])
        row["roof_over_opsnn"] = ratio_stats(roof, c["opsnn_torch"])
        if "numpy_engine" in row["seconds"]:
            row["numpy_engine_over_opsnn"] = (row["seconds"]["numpy_engine"]["median"]
                                              / row["seconds"]["opsnn_torch"]["median"])
        rows.append(row)
    return rows


def print_tables(rows, sizes, dtypes):
    by = {(r["dtype"], r["size"]): r for r in rows}

    def table(title, value):
        print(f"\n{title}")
        print(f"{'n':>5s} " + " ".join(f"{d:>17s}" for d in dtypes))
        for label in sizes:
            print(f"{label:>5s} " + " ".join(f"{value(by[(d, label)]):>17s}" for d in dtypes))

    def mmm(stats):
        return f"{stats['median']:.2f} [{stats['min']:.2f}-{stats['max']:.2f}]"

    for s in SEMANTICS:
        table(f"torch time / opsnn time, semantics={s} (median [min-max] over passes; >= 1: opsnn faster)",
              lambda r, s=s: mmm(r["torch_over_opsnn"][s]))
    for s in SEMANTICS[1:]:
        table(f"opsnn torch-semantics time / opsnn {s} time (>= 0.90: within 10 %)",
              lambda r, s=s: mmm(r["ascend_over_torch_semantics"][s]))
    table("forward: torch.ops.aten.threshold.out time / opsnn.threshold time",
          lambda r: mmm(r["forward_torch_over_opsnn"]))
    table("roof time / opsnn time (1.0 = at the memory-bandwidth roof)", lambda r: mmm(r["roof_over_opsnn"]))
    table("numpy engine time / opsnn time (what the compiled paths buy; one pass)",
          lambda r: f"{r.get('numpy_engine_over_opsnn', math.nan):.1f}")
    table("opsnn torch-semantics median time, us", lambda r: f"{r['seconds']['opsnn_torch']['median'] * 1e6:.1f}")
    table("torch median time, us", lambda r: f"{r['seconds']['torch']['median'] * 1e6:.1f}")


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def layout_cases(n_rows=1024, n_cols=1024):
    """Common non-contiguous / mixed layouts (float32 result, 1 M elements), opsnn vs torch, out= given."""
    rng = np.random.default_rng(5)
    big = (rng.standard_normal((n_rows, 2 * n_cols), np.float32) * 2 + THRESHOLD)
    g2, f2 = big[:, :n_cols].copy(), big[:, n_cols:].copy()
    cases = {
        "broadcast row (N,C) x (C,)": (g2, f2[0]),
        "transposed views": (g2.T, f2.T),
        "stride-2 slices": (big.reshape(-1)[::2][: n_rows * n_cols], big.reshape(-1)[1::2][: n_rows * n_cols]),
        "mixed float16 grad, float32 feature": (g2.astype(np.float16), f2),
        "mixed int8 grad, float32 feature": (g2.astype(np.int8), f2),
    }
    results = {}
    backward = torch.ops.aten.threshold_backward.grad_input
    for label, (g, f) in cases.items():
        shape = np.broadcast_shapes(g.shape, f.shape)
        out = np.empty(shape, np.float32)
        tg, tf, tout = torch.from_numpy(g), torch.from_numpy(f), torch.from_numpy(out)
        ours = lambda g=g, f=f, out=out: opsnn.threshold_backward(g, f, THRESHOLD, out=out)  # noqa: E731
        theirs = lambda tg=tg, tf=tf, tout=tout: backward(tg, tf, THRESHOLD, grad_input=tout)  # noqa: E731
        samples = {"opsnn": [], "torch": []}
        pair = [("opsnn", ours), ("torch", theirs)]
        for p in range(3):
            for key, fn in pair if p % 2 == 0 else pair[::-1]:
                samples[key].append(block_time(fn))
        results[label] = {"opsnn_s": summarise(samples["opsnn"]), "torch_s": summarise(samples["torch"]),
                          "torch_over_opsnn": ratio_stats(samples["torch"], samples["opsnn"])}
    return results


def tiny_call_cost(passes=5, number=20000):
    """A 4-element float32 call, allocating its result and with out=, against torch's op (min per call)."""
    import timeit
    g, f = np.array([4.5, 4.4, 4.3, 4.2], np.float32), np.array([0.2, 1.2, 2.2, 3.2], np.float32)
    out = np.empty_like(g)
    tg, tf, tout = torch.from_numpy(g), torch.from_numpy(f), torch.from_numpy(out)
    fns = {"opsnn_alloc": lambda: opsnn.threshold_backward(g, f, 1.0),
           "torch_alloc": lambda: torch.ops.aten.threshold_backward(tg, tf, 1.0),
           "opsnn_out": lambda: opsnn.threshold_backward(g, f, 1.0, out=out),
           "torch_out": lambda: torch.ops.aten.threshold_backward.grad_input(tg, tf, 1.0, grad_input=tout),
           "forward_opsnn_alloc": lambda: opsnn.threshold(f, 1.0, 0.0),
           "forward_torch_alloc": lambda: torch.nn.functional.threshold(tf, 1.0, 0.0)}
    per_call = {k: [] for k in fns}
    for _ in range(passes):
        for key, fn in fns.items():
            per_call[key].append(min(timeit.repeat(fn, number=number // 5, repeat=5)) / (number // 5))
    best = {k: min(v) for k, v in per_call.items()}
    return {"seconds_min": best, "seconds_median": {k: statistics.median(v) for k, v in per_call.items()},
            "torch_over_opsnn_alloc": best["torch_alloc"] / best["opsnn_alloc"],
            "torch_over_opsnn_out": best["torch_out"] / best["opsnn_out"],
            "forward_torch_over_opsnn_alloc": best["forward_torch_alloc"] / best["forward_opsnn_alloc"]}


_COLD_CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
import numpy as np
import opsnn
t1 = time.perf_counter()
import ml_dtypes
names = sys.argv[1].split(",")
result = {"import_opsnn_s": t1 - t0, "first_call_s": {}}
for name in names:
    dt = np.dtype(ml_dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)
    for label, n in (("4K", 4096), ("1M", 1 << 20)):
        g = np.ones(n, dt)
        for sem in ("torch", "ascend910b"):
            t = time.perf_counter()
            opsnn.threshold_backward(g, g, 0.5, semantics=sem)
            result["first_call_s"][f"{name}/{label}/{sem}"] = time.perf_counter() - t
result["numba_loaded_by_same_shape_calls"] = "numba" in sys.modules
# the first call of a layout the C lane declines (a transposed view): numba's import, its one-time
# set-up (typing and lowering registries) and, with an empty cache, the compile
t = time.perf_counter()
square = np.ones((64, 64), np.float32)
opsnn.threshold_backward(square.T, square, 0.5)
result["first_numba_call_s"] = time.perf_counter() - t
print(json.dumps(result))
"""


def cold_start(dtypes, runs=3, engine=None):
    """Fresh processes with an empty, then a filled, numba cache folder (OPSNN_CACHE_DIR)."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, OPSNN_CACHE_DIR=cache)
        if engine:
            env["OPSNN_FAST_ENGINE"] = engine

        def child():
            done = subprocess.run([sys.executable, "-c", _COLD_CHILD, ",".join(dtypes)], env=env, check=True,
                                  capture_output=True, text=True)
            return json.loads(done.stdout)

        compile_run = child()
        cached_runs = [child() for _ in range(runs)]
    cached = {k: statistics.median(r["first_call_s"][k] for r in cached_runs) for k in compile_run["first_call_s"]}
    per_dtype = {}
    for name in dtypes:
        keys = [k for k in cached if k.startswith(name + "/")]
        per_dtype[name] = {"first_ever_compile_s": sum(compile_run["first_call_s"][k] for k in keys),
                           "cached_s": sum(cached[k] for k in keys)}
    return {"engine": engine or "auto",
            "import_opsnn_s": statistics.median(r["import_opsnn_s"] for r in cached_runs),
            "numba_loaded_by_same_shape_calls": any(r["numba_loaded_by_same_shape_calls"] for r in cached_runs),
            "first_numba_call_compiling_s": compile_run["first_numba_call_s"],
            "first_numba_call_cached_s": statistics.median(r["first_numba_call_s"] for r in cached_runs),
            "first_call_compile_s": compile_run["first_call_s"], "first_call_cached_s": cached,
            "per_dtype": per_dtype}


def print_cold(cold):
    print(f"cold start ({cold['engine']} engine): import opsnn {cold['import_opsnn_s'] * 1e3:.0f} ms; the first "
          "same-shape calls of each dtype (4K + 1M, torch + ascend910b semantics), in a fresh process"
          + (" (numba loaded by them)" if cold["numba_loaded_by_same_shape_calls"] else " (numba not loaded)") + ":")
    for name, c in cold["per_dtype"].items():
        print(f"  {name:9s} first-ever {c['first_ever_compile_s'] * 1e3:7.1f} ms, "
              f"cache filled {c['cached_s'] * 1e3:6.1f} ms")
    print("  then the first call of a layout for numba (a transposed view): "
          f"{cold['first_numba_call_cached_s'] * 1e3:.0f} ms "
          f"with its cache filled (importing numba and its one-time set-up), "
          f"{cold['first_numba_call_compiling_s'] * 1e3:.0f} ms the first time ever (compiling)")


_RSS_CHILD = r"""
import json, resource, sys
import numpy as np, ml_dtypes, opsnn
case, name = sys.argv[1], sys.argv[2]
dt = np.dtype(ml_dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)
n, cols = 16 << 20, 4096
rng = np.random.default_rng(0)
def filled(dtype):  # built in 1 M pieces: no 16 M temporaries to raise the peak before we measure
    a = np.empty(n, dtype)
    for i in range(0, n, 1 << 20):
        a[i:i + (1 << 20)] = rng.integers(-3, 4, 1 << 20)
    return a
g, f = filled(dt), filled(np.float32 if case == "mixed" else dt)
out = np.zeros(n, np.float32 if case == "mixed" else dt)  # zeros: every page touched before we measure
if case == "broadcast":
    g, out, f = g.reshape(-1, cols), out.reshape(-1, cols), f[:cols]
small = [a if a.ndim == 1 and a.size == cols else a.reshape(-1)[: 1 << 20].reshape(-1, cols) if a.ndim == 2
         else a[: 1 << 20] for a in (g, f, out)]
opsnn.threshold_backward(small[0], small[1], 0.5, out=small[2])  # load kernels, start threads
opsnn.threshold_backward(g[:cols] if g.ndim == 1 else g[:1], f[:cols] if f.ndim == 1 else f, 0.5)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
for _ in range(3):
    opsnn.threshold_backward(g, f, 0.5, out=out)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"peak_rss_delta_kib": after - before}))
"""


def peak_rss_delta():
    """Peak RSS growth (KiB) of 16 M-element calls into a preallocated out, in fresh processes."""
    result = {}
    for case, name in (("flat", "float32"), ("flat", "uint8"), ("broadcast", "float32"), ("broadcast", "bfloat16"),
                       ("mixed", "float16")):
        done = subprocess.run([sys.executable, "-c", _RSS_CHILD, case, name], check=True, capture_output=True,
                              text=True)
        result[f"{name}/{case}"] = json.loads(done.stdout)["peak_rss_delta_kib"]
    threads = pool.cpu_count()
    bound = threads * 3 * fast.STAGE_TILE * 4 // 1024
    return {"kib": result, "bound_threads_x_tile_kib": bound,
            "note": f"bound: {threads} threads x 3 staging buffers x {fast.STAGE_TILE} elements x 4 B"}


def rss_line(memory) -> str:
    """peak_rss_delta()'s one line of output (the README quotes it)."""
    return ("peak RSS delta of 16M calls (fresh process, KiB): "
            + ", ".join(f"{k} {v}" for k, v in memory["kib"].items())
            + f"; O(threads x tile) bound {memory['bound_threads_x_tile_kib']} KiB")


def plot(rows, sizes, dtypes, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("note: matplotlib not installed (pip install -e '.[bench]'); no plot")
        return None
    by = {(r["dtype"], r["size"]): r for r in rows}
    cols = min(3, len(dtypes))
    nrows = -(-len(dtypes) // cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(5 * cols, 3.6 * nrows), squeeze=False)
    xs = [SIZES[s] for s in sizes]
    for ax, name in zip(axes.flat, dtypes, strict=False):
        def gbs(key, name=name):  # the forward moves 2 bytes per output byte, the backward 3
            share = 2 / 3 if key.startswith("forward") else 1
            return [share * by[(name, s)]["bytes_moved"] / by[(name, s)]["seconds"][key]["median"] / 1e9
                    for s in sizes]
        roof = [by[(name, s)]["bytes_moved"] / by[(name, s)]["roof_seconds"]["median"] / 1e9 for s in sizes]
        ax.plot(xs, roof, "k--", label="roof (2-read-1-write add)")
        ax.plot(xs, gbs("torch"), "C3-", label="torch threshold_backward")
        ax.plot(xs, gbs("forward_torch"), "C3:", label="torch threshold (fwd)")
        for k, style in (("opsnn_torch", "C0-o"), ("opsnn_ascend910b", "C1-^"), ("opsnn_ascend950", "C2-v"),
                         ("forward_opsnn", "C0:s")):
            ax.plot(xs, gbs(k), style, ms=3, label=k.replace("opsnn_", "opsnn ").replace("forward_opsnn", "opsnn fwd"))
        ax.set_xscale("log", base=2)
        ax.set_title(name)
        ax.set_xlabel("elements")
        ax.set_ylabel("GB/s moved (bwd 3, fwd 2 x n x itemsize)")
        ax.grid(True, alpha=0.3)
    for ax in list(axes.flat)[len(dtypes):]:
        ax.axis("off")
    axes.flat[0].legend(fontsize=7)
    fig.suptitle("threshold_backward throughput vs size (median over passes; higher is better)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return str(path)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--sizes", default=",".join(SIZES))
    ap.add_argument("--dtypes", default=",".join(DTYPES))
    ap.add_argument("--no-cold", action="store_true", help="skip the cold-start and RSS subprocesses")
    ap.add_argument("--no-plot", action="store_true")
    ap.add_argument("--out", default=str(HERE / "results.json"))
    ap.add_argument("--replot", action="store_true", help="only redraw the PNG from the --out results file")
    args = ap.parse_args(argv)
    if args.replot:
        saved = json.loads(Path(args.out).read_text())
        sizes = list(dict.fromkeys(r["size"] for r in saved["rows"]))
        dtypes = list(dict.fromkeys(r["dtype"] for r in saved["rows"]))
        print(f"wrote {plot(saved['rows'], sizes, dtypes, Path(args.out).with_suffix('.png'))}")
        return 0
    sizes, dtypes = args.sizes.split(","), args.dtypes.split(",")
    cores = pool.cpu_count()
    torch.set_num_threads(cores)
    engine = "+".join(name for name, there in (("c", fast.compiled_lane() is not None),
                                               ("numba", fast.default_kernels() is not None)) if there) or "numpy"
    print(f"opsnn fast engine: {engine}; threads: opsnn {cores}, torch {torch.get_num_threads()}; "
          f"numpy {np.__version__}, torch {torch.__version__}, python {platform.python_version()}, "
          f"{platform.machine()}, {os.cpu_count()} cpus")
    cold = None
    if not args.no_cold:
        cold = {"auto": cold_start(dtypes), "numba": cold_start(dtypes, engine="numba")}
        for c in cold.values():
            print_cold(c)
    print(f"table: {args.passes} passes", flush=True)
    cells, once, states = run_table(sizes, dtypes, args.passes)
    rows = rows_from(cells, once, sizes)
    print_tables(rows, sizes, dtypes)
    ratios = [r["torch_over_opsnn"]["torch"]["median"] for r in rows]
    print(f"\ngeometric mean torch/opsnn (torch semantics): {geomean(ratios):.2f}; "
          f"cells below 1.0: {sum(x < 1.0 for x in ratios)} of {len(ratios)}")
    for s in SEMANTICS[1:]:
        rs = [r["torch_over_opsnn"][s]["median"] for r in rows]
        within = [r["ascend_over_torch_semantics"][s]["median"] for r in rows]
        print(f"  {s}: geometric mean {geomean(rs):.2f}, cells below 1.0: {sum(x < 1.0 for x in rs)}; "
              f"cells more than 10 % slower than torch semantics: {sum(x < 0.9 for x in within)} of {len(rows)}")
    fw = [r["forward_torch_over_opsnn"]["median"] for r in rows]
    print(f"  forward: geometric mean {geomean(fw):.2f}, cells below 1.0: {sum(x < 1.0 for x in fw)} of {len(fw)}")
    layouts = layout_cases()
    print("\nlayouts (float32 result, 1 M elements): torch time / opsnn time")
    for label, r in layouts.items():
        s = r["torch_over_opsnn"]
        print(f"  {label:38s} {s['median']:.2f} [{s['min']:.2f}-{s['max']:.2f}]  "
              f"(opsnn {r['opsnn_s']['median'] * 1e6:.0f} us, torch {r['torch_s']['median'] * 1e6:.0f} us)")
    tiny = tiny_call_cost()
    us = {k: v * 1e6 for k, v in tiny["seconds_min"].items()}
    print(f"\n4-element call (torch/opsnn): allocating opsnn {us['opsnn_alloc']:.2f} us vs torch "
          f"{us['torch_alloc']:.2f} us ({tiny['torch_over_opsnn_alloc']:.2f}); out= opsnn {us['opsnn_out']:.2f} us"
          f" vs torch {us['torch_out']:.2f} us ({tiny['torch_over_opsnn_out']:.2f}); forward opsnn "
          f"{us['forward_opsnn_alloc']:.2f} us vs torch {us['forward_torch_alloc']:.2f} us "
          f"({tiny['forward_torch_over_opsnn_alloc']:.2f})")
    memory = None
    if not args.no_cold:
        memory = peak_rss_delta()
        print(rss_line(memory))
    print("\nmachine per pass: " + "; ".join(
        f"load {s['load_start']:.2f}->{s['load_end']:.2f}, steal {s['steal_fraction'] * 100:.1f}%, "
        f"calibration {s['calibration_s'] * 1e6:.0f} us" for s in states))
    cal = [s["calibration_s"] for s in states]
    busy = (max(s["load_start"] for s in states) > 0.5 * cores or max(s["steal_fraction"] for s in states) > 0.05
            or max(cal) / min(cal) > 1.25)
    if busy:
        print("WARNING: the machine was loaded during the run (load average, steal or a calibration spread "
              "above 25 %): timings are noisy; compare the min/max ranges, or rerun on a quiet machine.")
    results = {"engine": engine, "threads": cores, "python": platform.python_version(), "numpy": np.__version__,
               "torch": torch.__version__, "machine": platform.machine(), "cpu_count": os.cpu_count(),
               "passes": args.passes, "method": __doc__, "machine_per_pass": states, "loaded_warning": busy,
               "rows": rows, "geomean_torch_over_opsnn": geomean(ratios), "layouts": layouts, "tiny_call": tiny,
               "cold_start": cold, "peak_rss": memory,
               "parameters": {"PARALLEL_MIN": fast.PARALLEL_MIN, "STREAM_MIN": fast.STREAM_MIN,
                              "STAGE_TILE": fast.STAGE_TILE}}
    path = Path(args.out)
    if not args.no_plot:
        results["plot"] = plot(rows, sizes, dtypes, path.with_suffix(".png"))
        if results["plot"]:
            print(f"wrote {results['plot']}")
    path.write_text(json.dumps(results, indent=1))
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
