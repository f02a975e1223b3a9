"""The benchmarks' shared method: samples, interleaving, stalls, ratios and the machine's facts.

One *sample* is the time per call of a batch of calls that together touch at least SAMPLE_ELEMENTS
elements (a 4 K call is repeated 4096 times, a 16 M call runs once), so a timer tick or a scheduler
blip is spread over many calls. Contenders of one cell take their samples in turns (interleaved,
in a new order each round), so a slow phase of a shared machine hits every side alike. Each
side is summarised by its min (the cost when nothing got in the way: the figure that carries to
another machine) and its median (what a caller typically sees). A sample at least STALL_FACTOR
times its side's min in that cell is a *stall*: it is kept in the median, counted and printed,
never dropped silently. See docs/benchmarking.md.
"""
from __future__ import annotations

import datetime
import glob
import json
import math
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

SAMPLE_ELEMENTS = 16 << 20
STALL_FACTOR = 10.0


def calls_for(n_elements: int, sample_elements: int = SAMPLE_ELEMENTS) -> int:
    """Calls in one sample: enough to touch sample_elements elements."""
    return max(1, sample_elements // max(n_elements, 1))


def timed(fn, calls: int) -> float:
    """Seconds per call of `calls` back-to-back calls."""
    perf = time.perf_counter
    t0 = perf()
    for _ in range(calls):
        fn()
    return (perf() - t0) / calls


def warm(contenders: dict, calls: int) -> None:
    """A few calls of each (first-call costs, page faults of fresh outputs, parked threads) left unmeasured."""
    for fn in contenders.values():
        timed(fn, min(calls, 8) + 1)


# A sample of this few calls starts with one untimed call of its own contender: a sample of one 16 M
# call otherwise measures the cache the previous contender left (at this VM's 32 MiB L3 the same
# call measured 0.66-1.4x torch by which op ran before it; each side's min picked its luckiest
# predecessor), not the contender's own steady state, which a caller repeating the call sees
LEAD_IN_CALLS = 4


def interleaved(contenders: dict, calls: int, rounds: int, seed: int = 0, into: dict | None = None) -> dict:
    """rounds samples of each contender, taken in turns, appended to `into` (name -> list of seconds
    per call) and returned. Each round runs the contenders in a new order (a permutation seeded by
    `seed` and the round), so no contender always follows the same one: with the order only
    rotated, each kept its predecessor, and the one after torch's op always ran beside torch's
    OpenMP worker, which spins on a core for ~8 ms of CPU after each op (libgomp's default wait)
    and so takes the core a second opsnn thread wants. Samples of up to LEAD_IN_CALLS calls follow
    one untimed call of the same contender."""
    into = {} if into is None else into
    names = list(contenders)
    for r in range(rounds):
        order = names[:]
        random.Random(seed * 7919 + r).shuffle(order)
        for name in order:
            if calls <= LEAD_IN_CALLS:
                contenders[name]()
            into.setdefault(name, []).append(timed(contenders[name], calls))
    return into


def block(fn, calls: int, rounds: int, into: list | None = None) -> list:
    """rounds samples of one contender in a row (nothing else runs in between)."""
    into = [] if into is None else into
    into.extend(timed(fn, calls) for _ in range(rounds))
    return into


def summary(samples: list) -> dict:
    """min / median / max, the sample count and the stalls (samples >= STALL_FACTOR x the min)."""
    lo = min(samples)
    stalls = [s for s in samples if s >= STALL_FACTOR * lo]
    return {"min": lo, "median": statistics.median(samples), "max": max(samples), "n": len(samples),
            "stalls": len(stalls), "stall_samples": stalls}


def ratio(num: dict, den: dict) -> dict:
    """num / den of two summaries, from the mins and from the medians (> 1: den is faster)."""
    return {"min": num["min"] / den["min"], "median": num["median"] / den["median"]}


def geomean(xs) -> float:
    xs = [x for x in xs if x > 0 and math.isfinite(x)]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else math.nan


def worst(labelled: dict) -> tuple:
    """(label, value) of the smallest value."""
    label = min(labelled, key=labelled.get)
    return label, labelled[label]


def us(seconds: float) -> str:
    return f"{seconds * 1e6:.1f}" if seconds < 1e-3 else f"{seconds * 1e6:.0f}"


# ---- the machine --------------------------------------------------------------------------------------

def _read(path: str) -> str:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return ""


def machine_state() -> dict:
    """The load average and /proc/stat's counters now; state_delta() of two says what happened between."""
    cpu = [int(x) for x in _read("/proc/stat").splitlines()[0].split()[1:]] if _read("/proc/stat") else []
    return {"time": time.time(), "load1": os.getloadavg()[0], "steal": cpu[7] if len(cpu) > 7 else 0,
            "total": sum(cpu)}


def cpu_snapshot() -> tuple:
    """(wall seconds, the machine's busy CPU seconds from /proc/stat, this process's CPU seconds)."""
    fields = _read("/proc/stat").splitlines()[0].split()[1:] if _read("/proc/stat") else []
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    cpu = [int(x) for x in fields]
    busy = (sum(cpu[:8]) - cpu[3] - (cpu[4] if len(cpu) > 4 else 0) - (cpu[7] if len(cpu) > 7 else 0)) / ticks
    t = os.times()
    return time.perf_counter(), busy, t.user + t.system


def others_cores(before: tuple, after: tuple) -> float:
    """Cores' worth of CPU that other processes used between two cpu_snapshot()s (1.0: one core taken all
    along): what a shared machine took from a measurement. Resolution: a clock tick (10 ms) per core."""
    wall = max(after[0] - before[0], 1e-9)
    return max(0.0, ((after[1] - before[1]) - (after[2] - before[2])) / wall)


def state_delta(before: dict, after: dict) -> dict:
    total = max(after["total"] - before["total"], 1)
    return {"seconds": after["time"] - before["time"], "load_before": before["load1"], "load_after": after["load1"],
            "steal_fraction": (after["steal"] - before["steal"]) / total}


def _caches_sysfs() -> list:
    caches = []
    for index in sorted(glob.glob("/sys/devices/system/cpu/cpu0/cache/index*")):
        caches.append({key: _read(f"{index}/{key}") for key in ("level", "type", "size", "shared_cpu_list")})
    return caches


def _lscpu_caches() -> dict:
    try:
        text = subprocess.run(["lscpu"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    return {k.strip(): v.strip() for k, v in (line.split(":", 1) for line in text.splitlines() if ":" in line)
            if "cache" in k.lower()}


def _getconf_caches() -> dict:
    out = {}
    for name in ("LEVEL1_DCACHE_SIZE", "LEVEL2_CACHE_SIZE", "LEVEL3_CACHE_SIZE"):
        try:
            out[name] = subprocess.run(["getconf", name], capture_output=True, text=True, timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            out[name] = None
    return out


def _cpu() -> dict:
    text = _read("/proc/cpuinfo")
    model = next((line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("model name")),
                 platform.processor() or "unknown")
    flags = set(next((line.split(":", 1)[1].split() for line in text.splitlines() if line.startswith("flags")), []))
    wanted = ("sse4_2", "avx", "avx2", "fma", "avx512f", "avx512bw", "avx512vl", "avx512_bf16", "avx512_fp16",
              "amx_tile", "amx_bf16")
    isa = "avx512" if "avx512f" in flags else "avx2" if "avx2" in flags else "avx" if "avx" in flags else "sse"
    return {"model": model, "isa": isa, "flags": [f for f in wanted if f in flags],
            "hypervisor": "hypervisor" in flags}


def opsnn_info() -> dict | str:
    """`opsnn info --json` in a subprocess (what engine a call gets, how it was built)."""
    try:
        done = subprocess.run([sys.executable, "-m", "opsnn", "info", "--json"], capture_output=True, text=True,
                              timeout=120)
        return json.loads(done.stdout) if done.returncode == 0 else (done.stderr or done.stdout).strip()[-2000:]
    except (OSError, subprocess.SubprocessError, ValueError) as e:
        return f"opsnn info failed: {e}"


def machine_facts() -> dict:
    """What a reader on another machine needs to weigh the figures."""
    import numpy as np

    facts = {"date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
             "cpu": _cpu(), "caches_sysfs_cpu0": _caches_sysfs(), "caches_lscpu": _lscpu_caches(),
             "caches_getconf": _getconf_caches(), "cpu_count": os.cpu_count(),
             "usable_cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
             "kernel": platform.release(), "python": platform.python_version(), "numpy": np.__version__,
             "threads_env": {k: os.environ.get(k) for k in ("OMP_NUM_THREADS", "OPSNN_NUM_THREADS",
                                                            "OPSNN_FAST_ENGINE") if os.environ.get(k)}}
    if "torch" in sys.modules:
        facts["torch"] = sys.modules["torch"].__version__
        facts["torch_threads"] = sys.modules["torch"].get_num_threads()
    facts["opsnn_info"] = opsnn_info()
    return facts


def facts_lines(facts: dict) -> list:
    cpu = facts["cpu"]
    caches = ", ".join(f"L{c['level']}{c['type'][0].lower() if c['type'] != 'Unified' else ''} {c['size']}"
                       f" (cpus {c['shared_cpu_list']})" for c in facts["caches_sysfs_cpu0"])
    lscpu = ", ".join(f"{k} {v}" for k, v in facts["caches_lscpu"].items())
    info = facts["opsnn_info"]
    if isinstance(info, dict):
        fast = info.get("fast_engine")
        fast = ", ".join(f"{k} {v}" for k, v in fast.items() if v is not None) if isinstance(fast, dict) else fast
        engine = f"{fast}; C lane {(info.get('c_lane') or {}).get('isa_in_use')}"
    else:
        engine = info
    lines = [f"date {facts['date']}; {cpu['model']} ({cpu['isa']}: {' '.join(cpu['flags'])}"
             f"{'; under a hypervisor' if cpu['hypervisor'] else ''}); {facts['usable_cores']} usable of "
             f"{facts['cpu_count']} cpus; kernel {facts['kernel']}",
             f"caches (sysfs, cpu0): {caches}",
             f"caches (lscpu): {lscpu or 'n/a'}; getconf L3 {facts['caches_getconf'].get('LEVEL3_CACHE_SIZE')} B",
             f"python {facts['python']}, numpy {facts['numpy']}, torch {facts.get('torch', 'n/a')} "
             f"({facts.get('torch_threads', '?')} threads); opsnn engine: {engine}"]
    if facts["threads_env"]:
        lines.append(f"environment: {facts['threads_env']}")
    return lines


def state_lines(states: dict) -> list:
    lines = []
    for label, s in states.items():
        lines.append(f"{label}: {s['seconds']:.0f} s, load {s['load_before']:.2f} -> {s['load_after']:.2f}, "
                     f"steal {s['steal_fraction'] * 100:.1f} %")
    return lines


def busy(states: dict, cores: int) -> bool:
    return any(s["load_before"] > 0.5 * cores or s["steal_fraction"] > 0.05 for s in states.values())


def stall_lines(cells: dict) -> list:
    """One line per cell with stalls (cells maps a label to {side: summary}): each side's count of its
    samples, its min and the stalled samples, in us."""
    lines = []
    for label, sides in cells.items():
        parts = []
        for side, s in sides.items():
            if s.get("stalls"):
                shown = ", ".join(us(x) for x in s["stall_samples"][:6]) + (", ..." if s["stalls"] > 6 else "")
                parts.append(f"{side} {s['stalls']}/{s['n']} (min {us(s['min'])}: {shown})")
        if parts:
            lines.append(f"  {label}: " + "; ".join(parts))
    return lines


def jsonable(x):
    """Tuple keys joined with '/', numpy scalars to floats."""
    if isinstance(x, dict):
        return {"/".join(map(str, k)) if isinstance(k, tuple) else str(k): jsonable(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [jsonable(v) for v in x]
    if hasattr(x, "item") and not isinstance(x, str):
        return x.item()
    return x


_SIZE = re.compile(r"^(\d+)([KM]?)$")


def parse_size(label: str) -> int:
    m = _SIZE.match(label.strip().upper())
    if not m:
        raise ValueError(f"size {label!r}: expected e.g. 4K, 16M or 1000")
    return int(m.group(1)) << {"": 0, "K": 10, "M": 20}[m.group(2)]


# ---- the criterion (issue 27 item 17; docs/benchmarking.md) -----------------------------------------

CACHE_RATIO = 1.0    # cache-resident cells: torch time / opsnn time (mins) at least this
MEMORY_RATIO = 0.9   # memory-bound cells: torch time / opsnn time (mins) at least this ...
MEMORY_ROOF = 0.9    # ... and the copy roof's time / opsnn time at least this


def private_cache_bytes(facts=None) -> int | None:
    """Bytes of the nearest unified cache (L2) the usable cores hold between them, each core's own share
    (opsnn.engine.machine.facts(): sysfs, else sysconf); None where the OS says nothing. A select on data
    within it runs at the cores' speed; beyond it, the data streams from L3 or DRAM, the shared tier (on
    the 2-vCPU Xeon the 480 MiB 'L3' copied at ~30 GB/s, DRAM's speed, not a faster tier to count on)."""
    if facts is None:
        from opsnn.engine import machine
        facts = machine.facts()
    l2 = facts.cache("L2")
    if l2 is None:
        return None
    return l2.size // facts.sharing(l2) * facts.usable_cores


def is_memory_bound(bytes_moved: int, private_bytes: int | None) -> bool:
    """A cell whose working set (every array it reads and writes) exceeds the cores' private caches;
    where they are unknown, none is (the stricter criterion applies)."""
    return private_bytes is not None and bytes_moved > private_bytes


def meets_criterion(memory_bound: bool, torch_over_opsnn: float, roof_fraction: float) -> bool:
    """Issue 27 item 17: cache-resident cells >= CACHE_RATIO x torch; memory-bound ones >= MEMORY_RATIO x
    torch and >= MEMORY_ROOF of the copy roof (both from mins, measured in the same run)."""
    if memory_bound:
        return torch_over_opsnn >= MEMORY_RATIO and roof_fraction >= MEMORY_ROOF
    return torch_over_opsnn >= CACHE_RATIO
