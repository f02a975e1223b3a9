"""make bench: opsnn's fast path against torch, the numpy engine and the memory roof, measured so
that the figures hold on another machine (issue 18; the method: benchmarks/measure.py and
docs/benchmarking.md).

    .venv/bin/python benchmarks/bench_threshold_backward.py [--quick] [--passes 5] [--rounds 3]
        [--sizes 4K,1M] [--dtypes float32] [--no-cold] [--no-mlp] [--no-plot] [--out results.json]

Per cell (size x dtype): opsnn's three semantics, torch's threshold_backward, opsnn's and torch's
forward take interleaved samples (each moving >= 16 M elements); torch also takes samples in its own
block (nothing else running in between); the memory roof (the faster of numpy and torch doing a
2-read-1-write integer add, and a copy for the forward, over the same bytes) and the numpy engine are
measured in the same run. Passes repeat the whole table, the cell order reversing; the contenders' order
is shuffled each round (no side always follows the same one). Every side is summarised by min and median
over all its samples; ratios torch/opsnn come from the mins (and from the medians). A sample >= 10x its
side's min is a stall: counted and printed. Then: layouts at 1 M, a 4-element call, cold start in fresh
processes, peak RSS, and a small MLP's training step in plain torch and under opsnn.torch.npu_semantics
(the good neighbour). Both torch and opsnn use every usable core. Machine facts go in results.json.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

import opsnn

sys.path.insert(0, str(Path(__file__).resolve().parent))
import measure as M  # noqa: E402

DTYPES = ["float32", "float16", "bfloat16", "int32", "int8", "uint8"]
SIZES = {"4K": 4 << 10, "16K": 16 << 10, "64K": 64 << 10, "256K": 256 << 10, "1M": 1 << 20, "4M": 4 << 20,
         "16M": 16 << 20}
SEMANTICS = ("torch", "ascend910b", "ascend950")
FORWARDS = ("forward", "forward_ascend910b", "forward_ascend950")  # "forward": semantics="torch"
KINDS = (*SEMANTICS, *FORWARDS)  # the ratios reported per cell
THRESHOLD = 1.0
QUICK = {"sizes": "4K,64K,1M,16M", "dtypes": "float32,int8", "passes": 2, "rounds": 2}
FULL = {"sizes": ",".join(SIZES), "dtypes": ",".join(DTYPES), "passes": 6, "rounds": 3}
HERE = Path(__file__).resolve().parent


def np_dtype(name):
    return np.dtype(opsnn.dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)


def as_torch(a):
    if a.dtype == np_dtype("bfloat16"):
        return torch.from_numpy(a.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(a)


_BASE = {}
THREADED_ROOF_MIN = 1 << 18  # elements from which the roof is also measured on a thread per core
_POOL = {}


def _roof_pool(workers):
    if workers not in _POOL:
        from concurrent.futures import ThreadPoolExecutor
        _POOL[workers] = ThreadPoolExecutor(workers, thread_name_prefix="roof")
    return _POOL[workers]


def inputs(name, n):
    """(grad, feature): mixed data, about half the features above the threshold; cut from two 16 M bases."""
    if n > _BASE.get("n", 0):
        rng = np.random.default_rng(0)
        _BASE.update(n=n, g=rng.standard_normal(n, np.float32) * 2 + THRESHOLD,
                     f=rng.standard_normal(n, np.float32) * 2 + THRESHOLD)
    dt = np_dtype(name)
    g, f = _BASE["g"][:n], _BASE["f"][:n]
    if dt.kind in "iu":
        lo = 0 if dt.kind == "u" else -100
        return tuple(np.clip(np.rint(a * 30), lo, 100).astype(dt) for a in (g, f))
    return g.astype(dt), f.astype(dt)


def numpy_engine(g, f, semantics):
    """opsnn's numpy-only engine (the no-compiler fallback) as a callable, or the reason it is not available."""
    import importlib
    try:
        for package in ("opsnn.backends", "opsnn.engine"):  # where the engine lives (it may move)
            try:
                fast = importlib.import_module(f"{package}.fast")
                plan_backward = importlib.import_module(f"{package}.plan").plan_backward
                break
            except ImportError:
                continue
        else:
            raise ImportError("neither opsnn.backends.fast nor opsnn.engine.fast")
        plan = plan_backward(g, f, THRESHOLD, semantics)
        out = np.empty_like(g)
        call = lambda: fast.threshold_backward(g, f, plan, out, engine="numpy")  # noqa: E731
        call()
        return call
    except Exception as e:  # noqa: BLE001 - the engine is internal and may change: report, go on
        return f"{type(e).__name__}: {e}"


def cell_contenders(name, n):
    g, f = inputs(name, n)
    out = np.empty_like(g)
    tg, tf, tout = as_torch(g), as_torch(f), as_torch(out)
    backward = torch.ops.aten.threshold_backward.grad_input
    forward = torch.ops.aten.threshold.out
    duel = {f"opsnn_{s}": (lambda s=s: opsnn.threshold_backward(g, f, THRESHOLD, out=out, semantics=s))
            for s in SEMANTICS}
    duel["torch"] = lambda: backward(tg, tf, THRESHOLD, grad_input=tout)
    duel["forward_opsnn"] = lambda: opsnn.threshold(f, THRESHOLD, 0.0, out=out)
    for sem in SEMANTICS[1:]:
        duel[f"forward_opsnn_{sem}"] = lambda sem=sem: opsnn.threshold(f, THRESHOLD, 0.0, out=out, semantics=sem)
    duel["forward_torch"] = lambda: forward(tf, THRESHOLD, 0.0, out=tout)
    signed = f"i{g.dtype.itemsize}"  # torch has no uint16/uint32: the same bytes as signed integers
    gi, fi, oi = (torch.from_numpy(a.view(signed)) for a in (g, f, out))
    gu, fu, ou = (a.view(f"u{g.dtype.itemsize}") for a in (g, f, out))
    words = [a.view(np.int64) for a in (g, f, out)]  # every size here is a multiple of 8 bytes
    reduce = np.bitwise_or.reduce
    roof = {"roof_add_numpy": lambda: np.add(gu, fu, out=ou), "roof_add_torch": lambda: torch.add(gi, fi, out=oi),
            "roof_read3_numpy": lambda: [reduce(w) for w in words],
            "roof_copy_numpy": lambda: np.copyto(ou, fu), "roof_copy_torch": lambda: oi.copy_(fi),
            "roof_read2_numpy": lambda: [reduce(w) for w in words[1:]]}
    if n >= THREADED_ROOF_MIN:  # numpy releases the GIL in ufuncs: one slice per usable core
        parts = len(os.sched_getaffinity(0))
        pool = _roof_pool(parts)
        cut = [(i * n // parts, (i + 1) * n // parts) for i in range(parts)]
        wcut = [(a * len(words[0]) // n, b * len(words[0]) // n) for a, b in cut]

        def threaded(job, pieces):
            return lambda: list(pool.map(job, pieces))

        roof |= {
            "roof_add_threads": threaded(lambda c: np.add(gu[c[0]:c[1]], fu[c[0]:c[1]], out=ou[c[0]:c[1]]), cut),
            "roof_read3_threads": threaded(lambda c: [reduce(w[c[0]:c[1]]) for w in words], wcut),
            "roof_copy_threads": threaded(lambda c: np.copyto(ou[c[0]:c[1]], fu[c[0]:c[1]]), cut),
            "roof_read2_threads": threaded(lambda c: [reduce(w[c[0]:c[1]]) for w in words[1:]], wcut)}
    return duel, roof, numpy_engine(g, f, "torch")


def run_table(sizes, dtypes, passes, rounds):
    """name/size -> side -> list of seconds per call; plus the machine state per pass."""
    samples = {(d, s): {} for d in dtypes for s in sizes}
    others = {cell: [] for cell in samples}  # per pass: cores other processes took while the cell ran
    states, numpy_note = {}, None
    cells = list(samples)
    for p in range(passes):
        before = M.machine_state()
        order = cells if p % 2 == 0 else cells[::-1]
        for cell in order:
            name, label = cell
            n = SIZES[label]
            calls = M.calls_for(n)
            duel, roof, engine = cell_contenders(name, n)
            into = samples[cell]
            snap = M.cpu_snapshot()
            M.warm(duel, calls)
            alone = into.setdefault("torch_alone", [])
            if p % 2:
                M.block(duel["torch"], calls, rounds, alone)
            M.warm(roof, calls)
            M.interleaved(duel | roof, calls, rounds, seed=p, into=into)  # the roof in the same moments
            if not p % 2:
                M.block(duel["torch"], calls, rounds, alone)
            if callable(engine):
                M.block(engine, max(1, calls // 4), 1, into.setdefault("numpy_engine", []))
            else:
                numpy_note = engine
            others[cell].append(M.others_cores(snap, M.cpu_snapshot()))
            del duel, roof, engine
        states[f"pass {p + 1}"] = M.state_delta(before, M.machine_state())
        print(f"  pass {p + 1}/{passes} done ({states[f'pass {p + 1}']['seconds']:.0f} s)", flush=True)
    if numpy_note:
        print(f"note: the numpy engine column is empty: {numpy_note}")
    return samples, others, states, numpy_note


def rows_from(samples, others):
    rows = []
    for (name, label), sides in samples.items():
        n = SIZES[label]
        s = {k: M.summary(v) for k, v in sides.items()}
        def fastest(*names, s=s):
            return min(s[k]["min"] for k in names if k in s)

        add = fastest("roof_add_numpy", "roof_add_torch", "roof_add_threads")
        copy = fastest("roof_copy_numpy", "roof_copy_torch", "roof_copy_threads")
        read3, read2 = fastest("roof_read3_numpy", "roof_read3_threads"), fastest("roof_read2_numpy",
                                                                                  "roof_read2_threads")
        plain_bwd, plain_fwd = min(add, read3), min(copy, read2)
        # the traffic a plain store really causes: it reads its cache line first (read-for-ownership), so the
        # add's vector loop moves 4 n x itemsize; opsnn's non-temporal stores do not. A large copy may be
        # memcpy's, itself non-temporal: counted as 2 n (its bandwidth, if anything, under-estimated). The best
        # bandwidth of the four, applied to the backward's 3 n (the forward's 2 n) bytes, is the roof.
        nb = n * np_dtype(name).itemsize
        best = max(4 * nb / add, 2 * nb / copy, 3 * nb / read3, 2 * nb / read2)
        roof_add, roof_copy = 3 * nb / best, 2 * nb / best
        ours = {k: s[f"opsnn_{k}"] for k in SEMANTICS} | {k: s[k.replace("forward", "forward_opsnn")]
                                                           for k in FORWARDS}
        theirs = {k: s["torch"] for k in SEMANTICS} | {k: s["forward_torch"] for k in FORWARDS}
        row = {"dtype": name, "size": label, "n": n, "bytes_moved": 3 * n * np_dtype(name).itemsize,
               "seconds": s,
               "torch_over_opsnn": {k: M.ratio(theirs[k], ours[k]) for k in KINDS},
               "torch_alone_over_opsnn": {k: M.ratio(s["torch_alone"], ours[k]) for k in SEMANTICS},
               "roof_seconds": {"backward": roof_add, "forward": roof_copy, "add_2r1w": add, "copy_1r1w": copy,
                                "read_3n": read3, "read_2n": read2},
               "roof_gbs_with_rfo": best / 1e9,
               "roof_fraction": {k: (roof_copy if k in FORWARDS else roof_add) / ours[k]["min"] for k in KINDS},
               "plain_roof_fraction": {k: (plain_fwd if k in FORWARDS else plain_bwd) / ours[k]["min"]
                                       for k in KINDS},
               "add_roof_fraction": add / ours["torch"]["min"],
               "others_cores_per_pass": others[(name, label)]}
        # the criterion (issue 27 item 17): the copy roof is a copy's bandwidth (the fastest of numpy, torch
        # and a thread per core, 2 n x itemsize moved) over the op's bytes; memory-bound: beyond the cores' L2
        copy_gbs = 2 * nb / copy
        private = M.private_cache_bytes()
        row["copy_roof_gbs"] = copy_gbs / 1e9
        row["private_cache_bytes"] = private
        row["criterion"] = {}
        for k in KINDS:
            moved = (2 if k in FORWARDS else 3) * nb
            bound = M.is_memory_bound(moved, private)
            fraction = moved / copy_gbs / ours[k]["min"]
            vs_torch = row["torch_over_opsnn"][k]["min"]
            row["criterion"][k] = {"memory_bound": bound, "working_set": moved, "torch_over_opsnn": vs_torch,
                                   "copy_roof_fraction": fraction,
                                   "meets": M.meets_criterion(bound, vs_torch, fraction)}
        if "numpy_engine" in s:
            row["numpy_engine_over_opsnn"] = s["numpy_engine"]["min"] / s["opsnn_torch"]["min"]
        rows.append(row)
    return rows


def print_tables(rows, sizes, dtypes):
    by = {(r["dtype"], r["size"]): r for r in rows}
    width = 13

    def table(title, value):
        print(f"\n{title}")
        print(f"{'n':>5s} " + " ".join(f"{d:>{width}s}" for d in dtypes))
        for label in sizes:
            print(f"{label:>5s} " + " ".join(f"{value(by[(d, label)]):>{width}s}" for d in dtypes))

    def pair(r):
        return f"{r['min']:.2f} ({r['median']:.2f})"

    for k in KINDS:
        what = f"forward: aten.threshold.out / opsnn.threshold, semantics={k[8:] or 'torch'}" if k in FORWARDS else \
            f"backward, semantics={k}: aten.threshold_backward / opsnn"
        table(f"{what}, interleaved: ratio of mins (of medians); > 1: opsnn faster",
              lambda r, k=k: pair(r["torch_over_opsnn"][k]))
    table("torch measured alone (own block) / opsnn torch semantics: ratio of mins (of medians)",
          lambda r: pair(r["torch_alone_over_opsnn"]["torch"]))
    table("opsnn torch semantics, us: min (median)",
          lambda r: f"{M.us(r['seconds']['opsnn_torch']['min'])} ({M.us(r['seconds']['opsnn_torch']['median'])})")
    table("torch interleaved, us: min (median)",
          lambda r: f"{M.us(r['seconds']['torch']['min'])} ({M.us(r['seconds']['torch']['median'])})")
    table("torch alone, us: min (median)",
          lambda r: f"{M.us(r['seconds']['torch_alone']['min'])} ({M.us(r['seconds']['torch_alone']['median'])})")
    table("roof time / opsnn time (mins; 1.00 = at the memory roof), backward torch semantics (forward)",
          lambda r: f"{r['roof_fraction']['torch']:.2f} ({r['roof_fraction']['forward']:.2f})")
    table("numpy engine time / opsnn time (mins): what the compiled engine buys",
          lambda r: f"{r.get('numpy_engine_over_opsnn', math.nan):.1f}")


def criterion_cell(c: dict) -> str:
    """'c 1.23 ok' (cache-resident: torch/opsnn) or 'm 0.95/0.93 ok' (memory-bound: torch/opsnn, copy-roof
    fraction); LOW where the cell is below the criterion."""
    verdict = "ok" if c["meets"] else "LOW"
    if c["memory_bound"]:
        return f"m {c['torch_over_opsnn']:.2f}/{c['copy_roof_fraction']:.2f} {verdict}"
    return f"c {c['torch_over_opsnn']:.2f} {verdict}"


def criterion_report(rows, sizes, dtypes) -> dict:
    """Per cell and kind, the criterion (issue 27 item 17); a table for the backward and the forward under
    torch semantics, and one line counting every kind's cells below it."""
    by = {(r["dtype"], r["size"]): r for r in rows}
    private = rows[0]["private_cache_bytes"] if rows else None
    where = f"{private >> 10} KiB" if private else "unknown (every cell taken as cache-resident)"
    print(f"\ncriterion (docs/benchmarking.md): c = cache-resident (working set within the cores' L2, {where}): "
          f"torch/opsnn >= {M.CACHE_RATIO}; m = memory-bound: torch/opsnn >= {M.MEMORY_RATIO} and >= "
          f"{M.MEMORY_ROOF} of the copy roof (copy roof time / opsnn time); mins, this run")
    for k in ("torch", "forward"):
        print(f"  {'backward' if k == 'torch' else 'forward'}, semantics torch")
        print(f"  {'n':>5s} " + " ".join(f"{d:>17s}" for d in dtypes))
        for label in sizes:
            print(f"  {label:>5s} " + " ".join(f"{criterion_cell(by[(d, label)]['criterion'][k]):>17s}"
                                               for d in dtypes))
    low = [f"{r['dtype']}/{r['size']}/{k} {criterion_cell(c)} (others took up to "
           f"{max(r['others_cores_per_pass'], default=0):.2f} cores)"
           for r in rows for k, c in r["criterion"].items() if not c["meets"]]
    cells = sum(len(r["criterion"]) for r in rows)
    bound = sum(c["memory_bound"] for r in rows for c in r["criterion"].values())
    print(f"criterion: {len(low)} of {cells} cells below it ({bound} memory-bound, {cells - bound} cache-resident; "
          f"every semantics, backward and forward)" + (": " + ", ".join(low[:12]) + (", ..." if len(low) > 12
                                                                                     else "") if low else ""))
    return {"below": len(low), "cells": cells, "memory_bound_cells": bound, "low": low,
            "private_cache_bytes": private}


def headline(rows):
    """Geometric means and the worst cells, per kind and overall, from the mins (and the medians)."""
    out = {}
    for basis in ("min", "median"):
        per_kind = {}
        every = {}
        for k in KINDS:
            cells = {f"{r['dtype']}/{r['size']}/{k}": r["torch_over_opsnn"][k][basis] for r in rows}
            every |= cells
            label, value = M.worst(cells)
            per_kind[k] = {"geomean": M.geomean(cells.values()), "worst": [label, value],
                           "below_1": sum(v < 1.0 for v in cells.values()), "cells": len(cells)}
        label, value = M.worst(every)
        per_kind["all"] = {"geomean": M.geomean(every.values()), "worst": [label, value],
                           "below_1": sum(v < 1.0 for v in every.values()), "cells": len(every)}
        alone = {f"{r['dtype']}/{r['size']}/{k}": r["torch_alone_over_opsnn"][k][basis] for r in rows
                 for k in SEMANTICS}
        label, value = M.worst(alone)
        per_kind["vs_torch_alone"] = {"geomean": M.geomean(alone.values()), "worst": [label, value],
                                      "below_1": sum(v < 1.0 for v in alone.values()), "cells": len(alone)}
        out[basis] = per_kind
    return out


def print_headline(head):
    print("\nsummary, torch time / opsnn time (geometric mean; worst cell; cells below 1.0):")
    for k in head["min"]:
        a, b = head["min"][k], head["median"][k]
        print(f"  {k:15s} mins: {a['geomean']:.2f}; worst {a['worst'][1]:.2f} ({a['worst'][0]}); "
              f"{a['below_1']}/{a['cells']} below 1   | medians: {b['geomean']:.2f}; worst {b['worst'][1]:.2f} "
              f"({b['worst'][0]}); {b['below_1']} below 1")


def stall_report(rows):
    cells = {f"{r['dtype']}/{r['size']}": r["seconds"] for r in rows}
    lines = M.stall_lines(cells)
    totals = {}
    for sides in cells.values():
        for side, s in sides.items():
            t = totals.setdefault(side, [0, 0])
            t[0] += s["stalls"]
            t[1] += s["n"]
    # a side whose every sample in a cell is slow has no stall by the rule above: compare its min with the
    # roof. torch's sides, one line per cell (a whole cell stalled?); opsnn's, one line per side (slow code
    # is the likelier cause there: it is slow in every cell)
    slow, slow_opsnn = [], {}
    for r in rows:
        for side, s in r["seconds"].items():
            if not side.startswith(("opsnn", "torch", "forward")):
                continue
            roof = r["roof_seconds"]["forward" if side.startswith("forward") else "backward"]
            if s["min"] < M.STALL_FACTOR * roof + 20e-6:
                continue
            times = s["min"] / roof
            if "torch" in side.replace("opsnn_torch", ""):
                slow.append(f"  {r['dtype']}/{r['size']} {side}: min {M.us(s['min'])} us is {times:.0f}x the "
                            f"roof's {M.us(roof)} us (every sample slow: a stalled cell?)")
            else:
                slow_opsnn.setdefault(side, []).append((f"{r['dtype']}/{r['size']}", times))
    for side, cells in slow_opsnn.items():
        xs = [x for _, x in cells]
        slow.append(f"  {side}: {len(cells)} of {len(rows)} cells have a min >= {M.STALL_FACTOR:.0f}x the roof "
                    f"({min(xs):.0f}-{max(xs):.0f}x; slow code rather than stalls if it is most cells): "
                    + ", ".join(c for c, _ in cells[:8]) + (", ..." if len(cells) > 8 else ""))
    busy = [f"{r['dtype']}/{r['size']} " + "/".join(f"{x:.2f}" for x in r["others_cores_per_pass"])
            for r in rows if max(r["others_cores_per_pass"]) > 0.25]
    print(f"\nstalls (a sample >= {M.STALL_FACTOR:.0f}x its side's min in its cell; kept in the medians): "
          + ", ".join(f"{side} {a}/{b}" for side, (a, b) in totals.items()))
    for line in lines + slow:
        print(line)
    if busy:
        print("cells during which other processes took > 0.25 of a core (cores taken, per pass): " + "; ".join(busy))
    return {"per_side": {k: {"stalls": a, "samples": b} for k, (a, b) in totals.items()}, "lines": lines,
            "whole_cell_slow": slow, "cells_with_other_load": busy}


def roof_report(rows, sizes):
    big = sizes[-1]
    at = [r for r in rows if r["size"] == big]
    print(f"\nmemory roof at {big}: the best bandwidth of a 2-read-1-write integer add (numpy, torch, numpy on a "
          "thread per core; its stores counted with their read-for-ownership), a copy (the same) and a read of the "
          "same bytes (numpy, on one and a thread per core); opsnn's fraction of it (roof time / opsnn time, "
          "mins; 1.00 = at the roof); in brackets against the plain kernels' own times (the add for the backward, "
          "the copy for the forward, or the read if faster: above 1 where opsnn's non-temporal stores skip the "
          "read-for-ownership)")
    for r in at:
        fr, plain = r["roof_fraction"], r["plain_roof_fraction"]
        print(f"  {r['dtype']:9s} roof {r['roof_gbs_with_rfo']:5.1f} GB/s; "
              + ", ".join(f"{k} {fr[k]:.2f} ({plain[k]:.2f})" for k in KINDS))
    return {"size": big, "roof_gbs_with_rfo": {r["dtype"]: r["roof_gbs_with_rfo"] for r in at},
            "fraction": {r["dtype"]: r["roof_fraction"] for r in at},
            "fraction_of_plain_kernels": {r["dtype"]: r["plain_roof_fraction"] for r in at}}


# ---- layouts, the 4-element call ---------------------------------------------------------------------

def layout_cases(rounds, n_rows=1024, n_cols=1024):
    """Common non-contiguous / mixed layouts (float32 result, 1 M elements), opsnn vs torch, interleaved."""
    rng = np.random.default_rng(5)
    big = rng.standard_normal((n_rows, 2 * n_cols), np.float32) * 2 + THRESHOLD
    g2, f2 = big[:, :n_cols].copy(), big[:, n_cols:].copy()
    flat = big.reshape(-1)
    cases = {
        "contiguous": (g2, f2),
        "transposed views": (g2.T, f2.T),
        "broadcast row (N,C) x (C,)": (g2, f2[0]),
        "broadcast column (N,C) x (N,1)": (g2, f2[:, :1]),
        "stride-2 slices": (flat[::2][: n_rows * n_cols], flat[1::2][: n_rows * n_cols]),
        "mixed float16 grad, float32 feature": (g2.astype(np.float16), f2),
        "mixed int8 grad, float32 feature": (np.clip(g2 * 30, -100, 100).astype(np.int8), f2),
    }
    backward = torch.ops.aten.threshold_backward.grad_input
    calls = M.calls_for(n_rows * n_cols)
    results = {}
    for label, (g, f) in cases.items():
        out = np.empty(np.broadcast_shapes(g.shape, f.shape), np.float32)
        tg, tf, tout = torch.from_numpy(g), torch.from_numpy(f), torch.from_numpy(out)
        results[label] = _duel(lambda g=g, f=f, out=out: opsnn.threshold_backward(g, f, THRESHOLD, out=out),
                               lambda tg=tg, tf=tf, tout=tout: backward(tg, tf, THRESHOLD, grad_input=tout),
                               calls, rounds)
    return results


# torch's OpenMP worker spins for ~8 ms of CPU after each op (libgomp's default wait), holding the
# core a second opsnn thread wants: a pause this long lets it sleep before opsnn's own block
SPIN_REST_S = 0.03


def _duel(ours, theirs, calls: int, rounds: int) -> dict:
    """opsnn's call against torch's, warmed and interleaved: both summaries and their ratio; then
    each in a block of its own (opsnn's after torch's worker has stopped spinning). Taking turns
    with one torch op, every opsnn sample runs beside torch's spinning worker (a model alternating
    torch's ops and opsnn's sees that); alone, it has both cores (a numpy program sees that)."""
    duel = {"opsnn": ours, "torch": theirs}
    M.warm(duel, calls)
    s = {k: M.summary(v) for k, v in M.interleaved(duel, calls, rounds).items()}
    time.sleep(SPIN_REST_S)
    alone = {"opsnn": M.summary(M.block(ours, calls, rounds)), "torch": M.summary(M.block(theirs, calls, rounds))}
    return {"opsnn_s": s["opsnn"], "torch_s": s["torch"], "torch_over_opsnn": M.ratio(s["torch"], s["opsnn"]),
            "opsnn_alone_s": alone["opsnn"], "torch_alone_s": alone["torch"],
            "alone_torch_over_opsnn": M.ratio(alone["torch"], alone["opsnn"])}


def _duel_line(r: dict) -> str:
    t, a = r["torch_over_opsnn"], r["alone_torch_over_opsnn"]
    return (f"{t['min']:.2f} ({t['median']:.2f}) | {a['min']:.2f} ({a['median']:.2f})  opsnn "
            f"{M.us(r['opsnn_s']['min'])} ({M.us(r['opsnn_alone_s']['min'])}) us, torch {M.us(r['torch_s']['min'])} "
            f"({M.us(r['torch_alone_s']['min'])}) us")


RELU_SIZES = {"64K": 1 << 16, "1M": 1 << 20, "16M": 1 << 24}
RELU_DTYPES = ("float32", "float16", "bfloat16")


def relu_path_cases(rounds):
    """The NPU semantics at threshold 0 (|t| <= FLT_EPSILON: the ReluGrad kernel, grad * 0 or 1,
    another loop than the main table's threshold 1.0), the backward of every ReLU under
    npu_semantics: opsnn ascend910b against torch's threshold_backward at 0, interleaved."""
    rng = np.random.default_rng(7)
    backward = torch.ops.aten.threshold_backward.grad_input
    results = {}
    for dtype_name in RELU_DTYPES:
        dtype = np_dtype(dtype_name)
        for size, n in RELU_SIZES.items():
            g = rng.standard_normal(n, np.float32).astype(dtype)
            f = rng.standard_normal(n, np.float32).astype(dtype)
            out = np.empty_like(g)
            tg, tf, tout = (as_torch(a) for a in (g, f, out))
            results[f"{dtype_name}/{size}"] = _duel(
                lambda g=g, f=f, out=out: opsnn.threshold_backward(g, f, 0.0, out=out, semantics="ascend910b"),
                lambda tg=tg, tf=tf, tout=tout: backward(tg, tf, 0.0, grad_input=tout), M.calls_for(n), rounds)
    return results


def tiny_call_cost(rounds=15, calls=2000):
    """A 4-element float32 call, allocating and with out=, against torch's op: interleaved, per call."""
    g, f = np.array([4.5, 4.4, 4.3, 4.2], np.float32), np.array([0.2, 1.2, 2.2, 3.2], np.float32)
    out = np.empty_like(g)
    tg, tf, tout = torch.from_numpy(g), torch.from_numpy(f), torch.from_numpy(out)
    fns = {"opsnn_alloc": lambda: opsnn.threshold_backward(g, f, 1.0),
           "torch_alloc": lambda: torch.ops.aten.threshold_backward(tg, tf, 1.0),
           "opsnn_out": lambda: opsnn.threshold_backward(g, f, 1.0, out=out),
           "torch_out": lambda: torch.ops.aten.threshold_backward.grad_input(tg, tf, 1.0, grad_input=tout),
           "forward_opsnn_alloc": lambda: opsnn.threshold(f, 1.0, 0.0),
           "forward_torch_alloc": lambda: torch.nn.functional.threshold(tf, 1.0, 0.0)}
    M.warm(fns, calls)
    s = {k: M.summary(v) for k, v in M.interleaved(fns, calls, rounds).items()}
    return {"seconds": s, "torch_over_opsnn_alloc": M.ratio(s["torch_alloc"], s["opsnn_alloc"]),
            "torch_over_opsnn_out": M.ratio(s["torch_out"], s["opsnn_out"]),
            "forward_torch_over_opsnn_alloc": M.ratio(s["forward_torch_alloc"], s["forward_opsnn_alloc"])}


# ---- cold start ---------------------------------------------------------------------------------------

_COLD_CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
import numpy as np
t1 = time.perf_counter()
import opsnn
t2 = time.perf_counter()
bf16 = np.dtype(opsnn.dtypes.bfloat16)
sq = np.linspace(-2, 3, 64 * 64, dtype=np.float32).reshape(64, 64)
cases = {
    "contiguous float32": lambda: (sq.reshape(-1), sq.reshape(-1)),
    "contiguous float16": lambda: (sq.reshape(-1).astype(np.float16),) * 2,
    "contiguous bfloat16": lambda: (sq.reshape(-1).astype(bf16),) * 2,
    "contiguous int8": lambda: (sq.reshape(-1).astype(np.int8),) * 2,
    "transposed": lambda: (sq.T, sq.T),
    "broadcast row": lambda: (sq, sq[0]),
    "broadcast column": lambda: (sq, sq[:, :1]),
    "stride-2": lambda: (np.concatenate([sq, sq]).reshape(-1)[::2], sq.reshape(-1)),
    "mixed float16/float32": lambda: (sq.astype(np.float16), sq),
    "0-d": lambda: (np.array(1.5, np.float32), np.array(0.5, np.float32)),
    "forward contiguous float32": lambda: (sq.reshape(-1),),
}
args = cases[sys.argv[1]]()
if len(args) == 1:
    call = lambda: opsnn.threshold(args[0], 0.5, 0.0)
else:
    call = lambda: opsnn.threshold_backward(args[0], args[1], 0.5)
t = time.perf_counter(); call(); first = time.perf_counter() - t
t = time.perf_counter(); call(); second = time.perf_counter() - t
print(json.dumps({"import_numpy_s": t1 - t0, "import_opsnn_s": t2 - t1, "first_s": first, "second_s": second,
                  "numba_loaded": "numba" in sys.modules, "torch_loaded": "torch" in sys.modules}))
"""
COLD_LAYOUTS = ("contiguous float32", "contiguous float16", "contiguous bfloat16", "contiguous int8", "transposed",
                "broadcast row", "broadcast column", "stride-2", "mixed float16/float32", "0-d",
                "forward contiguous float32")


def cold_start(processes):
    """Per layout: fresh processes, each importing opsnn and timing its first call of that layout (the
    first process with an empty OPSNN_CACHE_DIR: what a first-ever run pays, if anything compiles)."""
    results = {}
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, OPSNN_CACHE_DIR=cache)
        for layout in COLD_LAYOUTS:
            runs = []
            for _ in range(processes + 1):
                done = subprocess.run([sys.executable, "-c", _COLD_CHILD, layout], env=env, capture_output=True,
                                      text=True, timeout=600)
                if done.returncode:
                    runs = f"failed: {done.stderr.strip().splitlines()[-1:]}"
                    break
                runs.append(json.loads(done.stdout))
            if isinstance(runs, str):
                results[layout] = {"error": runs}
                continue
            first_ever, rest = runs[0], runs[1:]
            results[layout] = {k: {"min": min(r[k] for r in rest), "median": statistics.median(r[k] for r in rest)}
                               for k in ("import_numpy_s", "import_opsnn_s", "first_s", "second_s")}
            results[layout]["first_ever_s"] = first_ever["first_s"]
            results[layout]["numba_loaded"] = any(r["numba_loaded"] for r in runs)
            results[layout]["torch_loaded"] = any(r["torch_loaded"] for r in runs)
    return results


def print_cold(cold, processes):
    ok = [c for c in cold.values() if "error" not in c]
    if ok:
        imp = [c["import_opsnn_s"]["median"] for c in ok]
        print(f"\ncold start ({processes} fresh processes per layout, min/median ms): import opsnn (numpy already "
              f"imported) {min(c['import_opsnn_s']['min'] for c in ok) * 1e3:.0f}/{statistics.median(imp) * 1e3:.0f}"
              f" ms; numpy's own import {statistics.median(c['import_numpy_s']['median'] for c in ok) * 1e3:.0f} ms")
    print(f"  {'first call of':30s} {'min':>7s} {'median':>7s} {'1st ever':>8s} {'2nd call':>8s}")
    for layout, c in cold.items():
        if "error" in c:
            print(f"  {layout:30s} {c['error']}")
            continue
        flags = " (numba loaded)" if c["numba_loaded"] else ""
        print(f"  {layout:30s} {c['first_s']['min'] * 1e3:7.2f} {c['first_s']['median'] * 1e3:7.2f} "
              f"{c['first_ever_s'] * 1e3:8.2f} {c['second_s']['median'] * 1e3:8.3f}{flags}")


# ---- peak RSS (the README quotes its line) ------------------------------------------------------------

_RSS_CHILD = r"""
import json, resource, sys
import numpy as np, opsnn
case, name = sys.argv[1], sys.argv[2]
dt = np.dtype(opsnn.dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)
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
        done = subprocess.run([sys.executable, "-c", _RSS_CHILD, case, name], capture_output=True, text=True,
                              timeout=600)
        result[f"{name}/{case}"] = json.loads(done.stdout)["peak_rss_delta_kib"] if done.returncode == 0 else None
    threads = len(os.sched_getaffinity(0))
    from opsnn.engine import machine
    tile = machine.tuning().stage_tile
    bound = threads * 3 * tile * 4 // 1024
    return {"kib": result, "bound_threads_x_tile_kib": bound,
            "note": f"bound: {threads} threads x 3 staging buffers x {tile} elements x 4 B"}


def rss_line(memory) -> str:
    """peak_rss_delta()'s one line of output (the README quotes it)."""
    return ("peak RSS delta of 16M calls (fresh process, KiB): "
            + ", ".join(f"{k} {v}" for k, v in memory["kib"].items())
            + f"; O(threads x tile) bound {memory['bound_threads_x_tile_kib']} KiB")


# ---- the good neighbour: a small MLP's training step --------------------------------------------------

class _PassThrough(torch.utils._python_dispatch.TorchDispatchMode):
    """A dispatch mode that does nothing: what any Python dispatch mode costs per aten op."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


def mlp_step_factory(batch=128, width=512, depth_in=256, seed=0):
    torch.manual_seed(seed)
    model = torch.nn.Sequential(torch.nn.Linear(depth_in, width), torch.nn.ReLU(),
                                torch.nn.Linear(width, width), torch.nn.Threshold(0.1, 0.0),
                                torch.nn.Linear(width, 10))
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    x, y = torch.randn(batch, depth_in), torch.randn(batch, 10)
    loss_fn = torch.nn.MSELoss()

    def step():
        opt.zero_grad(set_to_none=True)
        loss_fn(model(x), y).backward()
        opt.step()

    return step


def _mlp_sampler(step, mode, steps, cpu):
    """A callable running `steps` steps (under `mode` unless None), appending CPU seconds per step to cpu."""
    def run():
        c0 = time.process_time()
        if mode is None:
            for _ in range(steps):
                step()
        else:
            with mode:
                for _ in range(steps):
                    step()
        cpu.append((time.process_time() - c0) / steps)
    return run


class _Counting(torch.utils._python_dispatch.TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.count = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.count += 1
        return func(*args, **(kwargs or {}))


def mode_costs(rounds=7, calls=2000):
    """Where a step's extra time goes: one intercepted op (a step's threshold_backward, 128 x 512 float32)
    in plain torch and under npu_semantics, one small op that is not intercepted in plain torch, under
    npu_semantics and under the do-nothing mode, and how many aten ops one step dispatches."""
    import opsnn.torch as ot

    aten = torch.ops.aten
    g, x, small = torch.randn(128, 512), torch.randn(128, 512), torch.randn(4, 4)
    npu, nothing = ot.npu_semantics("ascend910b"), _PassThrough()

    def under(mode, fn):
        def run():
            with mode:
                for _ in range(calls):
                    fn()
        return run

    def plain(fn):
        def run():
            for _ in range(calls):
                fn()
        return run

    backward = lambda: aten.threshold_backward(g, x, 0.0)  # noqa: E731
    add = lambda: aten.add(small, small)  # noqa: E731
    fns = {"threshold_backward_plain": plain(backward), "threshold_backward_npu_semantics": under(npu, backward),
           "small_add_plain": plain(add), "small_add_npu_semantics": under(npu, add),
           "small_add_do_nothing_mode": under(nothing, add)}
    M.warm(fns, 1)
    s = {k: M.summary([v / calls for v in vs]) for k, vs in M.interleaved(fns, 1, rounds).items()}
    counting, step = _Counting(), mlp_step_factory()
    with counting:
        step()
    return {"seconds_per_call": s, "aten_ops_per_step": counting.count}


def good_neighbour(threads=(1, 2), rounds=15, steps=10, quick=False):
    """Per torch thread count: plain torch, the same step under npu_semantics("ascend910b"), and under a
    do-nothing dispatch mode (the mode's own cost), interleaved; seconds per step, and CPU seconds per
    step (process time: if opsnn's workers spin, the opsnn side burns more CPU per step)."""
    import opsnn.torch as ot

    before = torch.get_num_threads()
    out = {}
    try:
        for t in threads:
            torch.set_num_threads(t)
            step = mlp_step_factory()
            modes = {"plain": None, "npu_semantics": ot.npu_semantics("ascend910b"), "passthrough": _PassThrough()}
            cpu = {k: [] for k in modes}
            fns = {k: _mlp_sampler(step, m, steps, cpu[k]) for k, m in modes.items()}
            for fn in fns.values():
                fn()
            for v in cpu.values():
                v.clear()
            s = {k: M.summary(v) for k, v in M.interleaved(fns, 1, rounds).items()}
            npu = modes["npu_semantics"]
            npu.calls.clear()  # what one step intercepts (the samples' lead-in calls ran steps too)
            with npu:
                step()
            s = {k: {**v, **{f"{q}": v[q] / steps for q in ("min", "median", "max")},
                     "stall_samples": [x / steps for x in v["stall_samples"]]} for k, v in s.items()}
            out[str(t)] = {"seconds_per_step": s, "cpu_seconds_per_step": {k: M.summary(v) for k, v in cpu.items()},
                           "opsnn_over_plain": M.ratio(s["npu_semantics"], s["plain"]),
                           "passthrough_over_plain": M.ratio(s["passthrough"], s["plain"]),
                           "intercepted_per_step": dict(npu.calls)}
    finally:
        torch.set_num_threads(before)
    return {"model": "Linear(256,512) ReLU Linear(512,512) Threshold(0.1,0) Linear(512,10), batch 128, MSE, SGD",
            "steps_per_sample": steps, "samples": rounds, "threads": out,
            "per_op": mode_costs(rounds=3, calls=500) if quick else mode_costs()}


def print_neighbour(nb, label=""):
    print(f"\ngood neighbour{label}: {nb['model']}; one training step, ms: min (median); target opsnn/plain <= 1.15")
    for t, r in nb["threads"].items():
        s, c = r["seconds_per_step"], r["cpu_seconds_per_step"]
        print(f"  torch threads {t}: plain {s['plain']['min'] * 1e3:.2f} ({s['plain']['median'] * 1e3:.2f}), "
              f"npu_semantics {s['npu_semantics']['min'] * 1e3:.2f} ({s['npu_semantics']['median'] * 1e3:.2f}), "
              f"do-nothing mode {s['passthrough']['min'] * 1e3:.2f} ({s['passthrough']['median'] * 1e3:.2f}); "
              f"opsnn/plain {r['opsnn_over_plain']['min']:.2f} ({r['opsnn_over_plain']['median']:.2f}), "
              f"do-nothing/plain {r['passthrough_over_plain']['min']:.2f}; CPU ms per step: plain "
              f"{c['plain']['median'] * 1e3:.2f}, npu_semantics {c['npu_semantics']['median'] * 1e3:.2f}; "
              f"ops intercepted per step {sum(r['intercepted_per_step'].values()):.0f}")
    c = nb["per_op"]["seconds_per_call"]
    print(f"  per op, us (min): a step's threshold_backward {c['threshold_backward_plain']['min'] * 1e6:.1f} plain, "
          f"{c['threshold_backward_npu_semantics']['min'] * 1e6:.1f} under npu_semantics; an op it does not "
          f"intercept (4x4 add) {c['small_add_plain']['min'] * 1e6:.1f} plain, "
          f"{c['small_add_npu_semantics']['min'] * 1e6:.1f} under npu_semantics, "
          f"{c['small_add_do_nothing_mode']['min'] * 1e6:.1f} under the do-nothing mode; "
          f"{nb['per_op']['aten_ops_per_step']} aten ops per step")


def neighbour_in_child(env_extra, rounds):
    """good_neighbour() in a fresh process with env_extra set (e.g. OPSNN_NUM_THREADS=1: no opsnn workers)."""
    done = subprocess.run([sys.executable, __file__, "--mlp-only", "--rounds", str(rounds)],
                          env=dict(os.environ, **env_extra), capture_output=True, text=True, timeout=600)
    if done.returncode:
        return {"error": done.stderr.strip()[-2000:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


# ---- plot, main --------------------------------------------------------------------------------------

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
            return [share * by[(name, s)]["bytes_moved"] / by[(name, s)]["seconds"][key]["min"] / 1e9 for s in sizes]
        roof = [by[(name, s)]["roof_gbs_with_rfo"] for s in sizes]
        ax.plot(xs, roof, "k--", label="roof (best of add with its RFO, copy, read)")
        ax.plot(xs, gbs("torch"), "C3-", label="torch threshold_backward (interleaved)")
        ax.plot(xs, gbs("torch_alone"), "C3-.", label="torch threshold_backward (alone)")
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
    axes.flat[0].legend(fontsize=6)
    fig.suptitle("threshold_backward throughput vs size (min over samples; higher is better)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return str(path)


def compare(path_a, path_b) -> int:
    """Do two runs agree within their printed ranges? Per cell and kind, the ratio torch/opsnn spans
    [its min-based, its median-based] value in each run (either order); two runs agree on the cell where
    the spans overlap, and nearly where they come within 10 % of each other."""
    a, b = (json.loads(Path(p).read_text()) for p in (path_a, path_b))
    rows_b = {(r["dtype"], r["size"]): r for r in b["rows"]}
    agree, near, apart = 0, 0, []
    for ra in a["rows"]:
        rb = rows_b.get((ra["dtype"], ra["size"]))
        if rb is None:
            continue
        for k in ra["torch_over_opsnn"]:
            if k not in rb["torch_over_opsnn"]:
                continue
            sa, sb = (sorted(r["torch_over_opsnn"][k].values()) for r in (ra, rb))
            if sa[0] <= sb[1] and sb[0] <= sa[1]:
                agree += 1
            elif sa[0] <= 1.1 * sb[1] and sb[0] <= 1.1 * sa[1]:
                near += 1
            else:
                apart.append(f"{ra['dtype']}/{ra['size']}/{k}: {sa[0]:.2f}-{sa[1]:.2f} vs {sb[0]:.2f}-{sb[1]:.2f}")
    total = agree + near + len(apart)
    print(f"{path_a} vs {path_b}: {agree} of {total} cells agree within their ranges (ratio from mins to ratio "
          f"from medians), {near} more within 10 %, {len(apart)} apart" + (":" if apart else ""))
    for line in apart:
        print("  " + line)
    for basis in ("min", "median"):
        ha, hb = a["headline"][basis], b["headline"][basis]
        print(f"  geometric means ({basis}s): " + ", ".join(
            f"{k} {ha[k]['geomean']:.2f} vs {hb[k]['geomean']:.2f}" for k in ha if k in hb))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help=f"a short run (<= 1 min): {QUICK}; written to a temporary file unless --out is given")
    ap.add_argument("--passes", type=int, default=None, help="repeats of the whole table (default 6)")
    ap.add_argument("--rounds", type=int, default=None,
                    help="interleaved samples per side per cell per pass (default 3)")
    ap.add_argument("--sizes", default=None)
    ap.add_argument("--dtypes", default=None)
    ap.add_argument("--no-cold", action="store_true", help="skip the cold-start and RSS subprocesses")
    ap.add_argument("--no-mlp", action="store_true", help="skip the good-neighbour MLP")
    ap.add_argument("--no-plot", action="store_true")
    ap.add_argument("--out", default=None, help="results file (default benchmarks/results.json)")
    ap.add_argument("--replot", action="store_true", help="only redraw the PNG from the --out results file")
    ap.add_argument("--compare", nargs=2, metavar=("A.json", "B.json"),
                    help="only compare two results files: do the runs agree within their ranges?")
    ap.add_argument("--mlp-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    cores = len(os.sched_getaffinity(0))
    torch.set_num_threads(cores)
    if args.mlp_only:
        print(json.dumps(good_neighbour(rounds=args.rounds or 15)))
        return 0
    if args.compare:
        return compare(*args.compare)
    if args.replot:
        saved = json.loads(Path(args.out or HERE / "results.json").read_text())
        sizes = list(dict.fromkeys(r["size"] for r in saved["rows"]))
        dtypes = list(dict.fromkeys(r["dtype"] for r in saved["rows"]))
        path = Path(args.out or HERE / "results.json").with_suffix(".png")
        print(f"wrote {plot(saved['rows'], sizes, dtypes, path)}")
        return 0
    preset = QUICK if args.quick else FULL
    sizes = (args.sizes or preset["sizes"]).split(",")
    dtypes = (args.dtypes or preset["dtypes"]).split(",")
    passes, rounds = args.passes or preset["passes"], args.rounds or preset["rounds"]
    out = Path(args.out) if args.out else (Path(tempfile.gettempdir()) / "opsnn-bench-quick.json" if args.quick
                                           else HERE / "results.json")
    started = M.machine_state()
    facts = M.machine_facts()
    for line in M.facts_lines(facts):
        print(line)
    print(f"threads: torch {torch.get_num_threads()}, opsnn: every usable core ({cores}); each sample moves "
          f">= {M.SAMPLE_ELEMENTS >> 20} M elements; {passes} passes x {rounds} interleaved samples per side",
          flush=True)
    states = {}
    results = {"method": __doc__, "machine": facts, "passes": passes, "rounds": rounds, "quick": args.quick}

    before = M.machine_state()
    samples, others, pass_states, numpy_note = run_table(sizes, dtypes, passes, rounds)
    states.update(pass_states)
    rows = rows_from(samples, others)
    print_tables(rows, sizes, dtypes)
    head = headline(rows)
    print_headline(head)
    results.update(rows=rows, headline=head, geomean_torch_over_opsnn=head["min"]["torch"]["geomean"],
                   numpy_engine_note=numpy_note)
    results["stalls"] = stall_report(rows)
    results["roof"] = roof_report(rows, sizes)
    results["criterion"] = criterion_report(rows, sizes, dtypes)

    before = M.machine_state()
    layouts = layout_cases(rounds=3 if args.quick else max(5, passes * rounds // 2))
    print("\nlayouts (float32 result, 1 M elements): torch/opsnn from mins (medians), interleaved | each alone; "
          "us min interleaved (alone)")
    for label, r in layouts.items():
        print(f"  {label:38s} {_duel_line(r)}; stalls {r['opsnn_s']['stalls']}/{r['torch_s']['stalls']}")
    relu = relu_path_cases(rounds=3 if args.quick else max(5, passes * rounds // 2))
    print("\nReluGrad path (semantics ascend910b, threshold 0): torch/opsnn from mins (medians), interleaved | "
          "each alone; us min interleaved (alone)")
    for label, r in relu.items():
        print(f"  {label:14s} {_duel_line(r)}")
    tiny = tiny_call_cost()
    t = {k: v["min"] * 1e6 for k, v in tiny["seconds"].items()}
    print(f"\n4-element call, us (min): allocating opsnn {t['opsnn_alloc']:.2f} vs torch {t['torch_alloc']:.2f} "
          f"({tiny['torch_over_opsnn_alloc']['min']:.2f}); out= opsnn {t['opsnn_out']:.2f} vs torch "
          f"{t['torch_out']:.2f} ({tiny['torch_over_opsnn_out']['min']:.2f}); forward opsnn "
          f"{t['forward_opsnn_alloc']:.2f} vs torch {t['forward_torch_alloc']:.2f} "
          f"({tiny['forward_torch_over_opsnn_alloc']['min']:.2f})")
    results.update(layouts=layouts, relu_path=relu, tiny_call=tiny)
    states["layouts + tiny"] = M.state_delta(before, M.machine_state())

    if not args.no_mlp:
        before = M.machine_state()
        nb = good_neighbour(rounds=4 if args.quick else 20, quick=args.quick)
        print_neighbour(nb)
        results["good_neighbour"] = nb
        if not args.quick:
            single = neighbour_in_child({"OPSNN_NUM_THREADS": "1"}, rounds=20)
            results["good_neighbour_opsnn_1_thread"] = single
            if "error" in single:
                print(f"good neighbour with OPSNN_NUM_THREADS=1 failed: {single['error']}")
            else:
                print_neighbour(single, " (fresh process, OPSNN_NUM_THREADS=1: opsnn starts no workers)")
        states["good neighbour"] = M.state_delta(before, M.machine_state())

    if not args.no_cold:
        before = M.machine_state()
        processes = 1 if args.quick else 5
        cold = cold_start(processes)
        print_cold(cold, processes)
        memory = peak_rss_delta()
        print(rss_line(memory))
        results.update(cold_start=cold, peak_rss=memory)
        states["cold start + RSS"] = M.state_delta(before, M.machine_state())

    states["whole run"] = M.state_delta(started, M.machine_state())
    print("\nmachine during the run:")
    for line in M.state_lines(states):
        print("  " + line)
    loaded = M.busy(states, cores)
    if loaded:
        print("WARNING: the machine was loaded (load average above half the cores, or steal above 5 %): "
              "trust the mins more than the medians, and compare runs by their ranges.")
    results.update(machine_states=states, loaded_warning=loaded)
    if not args.no_plot:
        results["plot"] = plot(rows, sizes, dtypes, out.with_suffix(".png"))
        if results["plot"]:
            print(f"wrote {results['plot']}")
    out.write_text(json.dumps(M.jsonable(results), indent=1))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
