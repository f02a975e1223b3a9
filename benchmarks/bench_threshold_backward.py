"""make bench: opsnn's fast threshold_backward against torch, numpy, the emulator and a memory roof.

All timings in one process, medians of repeated calls, every contender writing into a preallocated
output. Threads: torch.set_num_threads(cores) and opsnn's pool use the same count. The roof is the
faster of numpy and torch doing a 2-read-1-write integer add over the same bytes (out=).
Writes benchmarks/results.json beside this file.
"""
from __future__ import annotations

import json
import os
import platform
import sys
import time
import timeit
import tracemalloc
from pathlib import Path

import ml_dtypes
import numpy as np
import torch

import opsnn
from opsnn.backends import fast, pool
from opsnn.backends.plan import plan_backward

DTYPES = ["float32", "float16", "bfloat16", "int32", "int8", "uint8"]
SIZES = {"4K": 4 << 10, "64K": 64 << 10, "1M": 1 << 20, "16M": 16 << 20}
EMULATOR_MAX = 1 << 20
THRESHOLD = 1.0
BUDGET_S = 0.25  # per contender and case, beyond the minimum repetitions


def np_dtype(name):
    return np.dtype(ml_dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)


def as_torch(a):
    if a.dtype == np.dtype(ml_dtypes.bfloat16):
        return torch.from_numpy(a.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(a)


def median_time(fn, min_reps=5, budget=BUDGET_S):
    fn()  # warm up (numba compile / cache load, page faults)
    t0 = time.perf_counter()
    fn()
    once = max(time.perf_counter() - t0, 1e-7)
    reps = max(min_reps, min(500, int(budget / once)))
    samples = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return float(np.median(samples))


def inputs(name, n, seed=0):
    rng = np.random.default_rng(seed)
    dt = np_dtype(name)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        make = lambda: rng.integers(max(info.min, -100), min(info.max, 100), n, endpoint=True).astype(dt)  # noqa: E731
    else:
        make = lambda: (rng.standard_normal(n, np.float32) * 2).astype(dt)  # noqa: E731
    return make(), make()


def emulator_available():
    try:
        import opsnn.backends.emulator  # noqa: F401
    except ImportError as e:
        return str(e)
    return None


def bench_case(name, n, emulator_note):
    g, f = inputs(name, n)
    out = np.empty_like(g)
    tg, tf, tout = as_torch(g), as_torch(f), as_torch(out)
    bits = f"u{g.dtype.itemsize}"
    gu, fu, ou = g.view(bits), f.view(bits), out.view(bits)
    signed = f"i{g.dtype.itemsize}"  # torch adds no uint16/uint32
    tgu, tfu, tou = (torch.from_numpy(x.view(signed)) for x in (g, f, out))
    threshold = np_dtype(name).type(THRESHOLD) if name != "bfloat16" else ml_dtypes.bfloat16(THRESHOLD)
    zero = np.zeros((), g.dtype)
    row = {"dtype": name, "n": n}
    plan = plan_backward(g, f, THRESHOLD, "torch")
    row["opsnn"] = median_time(lambda: opsnn.threshold_backward(g, f, THRESHOLD, out=out))
    # the pure-numpy fallback engine, for the record of what numba buys
    row["opsnn_numpy_engine"] = median_time(lambda: fast.threshold_backward(g, f, plan, out, engine="numpy"),
                                            min_reps=3, budget=BUDGET_S / 2)
    row["torch"] = median_time(lambda: torch.ops.aten.threshold_backward.grad_input(tg, tf, THRESHOLD, grad_input=tout))
    row["numpy_where"] = median_time(lambda: np.where(f <= threshold, zero, g), min_reps=3, budget=BUDGET_S / 2)
    row["roof_numpy"] = median_time(lambda: np.add(gu, fu, out=ou))
    row["roof_torch"] = median_time(lambda: torch.add(tgu, tfu, out=tou))
    row["roof"] = min(row["roof_numpy"], row["roof_torch"])
    if emulator_note is None and n <= EMULATOR_MAX:
        emu = lambda: opsnn.threshold_backward(g, f, THRESHOLD, semantics="ascend910b", backend="emulator")  # noqa: E731
        row["emulator"] = median_time(emu, min_reps=1, budget=1.0)
    row["torch_over_opsnn"] = row["torch"] / row["opsnn"]
    row["roof_over_opsnn"] = row["roof"] / row["opsnn"]
    return row


def tiny_call_cost():
    """Per-call time of a 4-element call, allocating its result, vs torch's functional op."""
    g, f = np.array([4.5, 4.4, 4.3, 4.2], np.float32), np.array([0.2, 1.2, 2.2, 3.2], np.float32)
    tg, tf = torch.from_numpy(g), torch.from_numpy(f)
    n = 20000
    ours = min(timeit.repeat(lambda: opsnn.threshold_backward(g, f, 1.0), number=n, repeat=5)) / n
    theirs = min(timeit.repeat(lambda: torch.ops.aten.threshold_backward(tg, tf, 1.0), number=n, repeat=5)) / n
    return {"opsnn_s": ours, "torch_s": theirs, "ratio": ours / theirs}


def extra_peak_memory(n=16 << 20):
    """Peak bytes numpy allocates during one fast call into a preallocated out (tracemalloc), and the
    same for the staged path (a broadcast feature row), per dtype."""
    result = {}
    for name in DTYPES:
        g, f = inputs(name, n)
        out = np.empty_like(g)
        row = f[: 4096]
        for label, feature in (("flat", f), ("broadcast", row)):
            gg = g.reshape(-1, 4096) if label == "broadcast" else g
            oo = out.reshape(-1, 4096) if label == "broadcast" else out
            opsnn.threshold_backward(gg, feature, THRESHOLD, out=oo)
            tracemalloc.start()
            tracemalloc.reset_peak()
            opsnn.threshold_backward(gg, feature, THRESHOLD, out=oo)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            result[f"{name}/{label}"] = peak
    return result


def main():
    cores = pool.cpu_count()
    torch.set_num_threads(cores)
    engine = "numba" if fast.engine_kernels(None) is not None else "numpy"
    emulator_note = emulator_available()
    print(f"opsnn fast engine: {engine}; threads: opsnn {cores}, torch {torch.get_num_threads()}; "
          f"numpy {np.__version__}, torch {torch.__version__}, python {platform.python_version()}")
    if emulator_note is not None:
        print(f"note: emulator backend not importable yet ({emulator_note}); skipped")
    rows = []
    header = (f"{'dtype':9s} {'n':>4s} {'opsnn':>9s} {'np-engine':>9s} {'torch':>9s} {'np.where':>9s}"
              f" {'emulator':>9s} {'roof':>9s} {'torch/opsnn':>11s} {'roof/opsnn':>10s}")
    print("times are medians in microseconds; ratios > 1 mean opsnn is faster")
    print(header)
    for name in DTYPES:
        for label, n in SIZES.items():
            row = bench_case(name, n, emulator_note)
            row["size"] = label
            rows.append(row)
            emu = f"{row['emulator'] * 1e6:9.0f}" if "emulator" in row else f"{'-':>9s}"
            print(f"{name:9s} {label:>4s} {row['opsnn'] * 1e6:9.1f} {row['opsnn_numpy_engine'] * 1e6:9.1f} "
                  f"{row['torch'] * 1e6:9.1f} "
                  f"{row['numpy_where'] * 1e6:9.1f} {emu} {row['roof'] * 1e6:9.1f} "
                  f"{row['torch_over_opsnn']:11.2f} {row['roof_over_opsnn']:10.2f}", flush=True)
    tiny = tiny_call_cost()
    print(f"4-element call: opsnn {tiny['opsnn_s'] * 1e6:.2f} us, torch {tiny['torch_s'] * 1e6:.2f} us, "
          f"ratio {tiny['ratio']:.2f} (target <= 3)")
    memory = extra_peak_memory()
    print("extra peak memory of the fast path at 16M (numpy allocations, tracemalloc), KiB: "
          + ", ".join(f"{k} {v / 1024:.0f}" for k, v in memory.items()))
    results = {"engine": engine, "threads": cores, "python": platform.python_version(), "numpy": np.__version__,
               "torch": torch.__version__, "machine": platform.machine(), "cpu_count": os.cpu_count(),
               "emulator": "skipped: " + emulator_note if emulator_note else "included up to 1M",
               "rows": rows, "tiny_call": tiny, "extra_peak_bytes_16M": memory}
    path = Path(__file__).with_name("results.json")
    path.write_text(json.dumps(results, indent=1))
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
