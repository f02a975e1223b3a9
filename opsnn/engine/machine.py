"""What this machine is, and the fast path's crossovers chosen for it (docs/machine-tuning.md).

- facts(): the CPU model, the ISA flags that matter here, the cores this process may run on, and
  the caches of the first of them, read once (on first use) from /proc/cpuinfo and
  /sys/devices/system/cpu (os.sysconf where sysfs has no caches). Where sysfs and sysconf disagree
  both are recorded and sysfs is used: glibc's sysconf reads a CPUID leaf that on AMD (and some
  hypervisors) gives the whole package's L3, not the slice these cores share.
- tuning(): the thread count and the crossovers, each field from the first of
  $OPSNN_TUNING ("override") > this machine's calibration file ("calibrated", written by
  `opsnn tune`) > what the OS says ("os"; threads: "env" from $OPSNN_NUM_THREADS/$OMP_NUM_THREADS)
  > "default" (today's constants, measured on a 2-core AMD EPYC VM: L2 1 MiB, L3 32 MiB).
- calibrate(): times the C lane on this machine and writes the calibration file. Never run
  implicitly: nothing is timed at import or at a call.

Importing this module reads nothing; facts() and tuning() cost a few file reads, once per process.
"""
from __future__ import annotations

import functools
import os
import sys
import time
import warnings
from typing import NamedTuple

SYSFS_CPU = "/sys/devices/system/cpu"
CPUINFO = "/proc/cpuinfo"
TUNING_VARIABLE = "OPSNN_TUNING"
THREADS_VARIABLE = "OPSNN_NUM_THREADS"
MAX_THREADS = 1024  # what the C lane accepts
ISA_OF_INTEREST = ("sse4_2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512vl", "avx512_fp16",
                   "avx512_bf16", "amx_tile", "amx_bf16", "amx_int8", "asimd", "sve", "sve2")

# Defaults: the constants measured on a 2-core AMD EPYC VM (L2 1 MiB per core, L3 32 MiB), used where
# the OS says nothing.
DEFAULT_PARALLEL_MIN = 16 << 10  # bytes of output per thread from which the C pool takes another thread
DEFAULT_STREAM_MIN = 36 << 20    # bytes moved (all arrays) from which outputs are written non-temporally
DEFAULT_NUMPY_TILE = 1 << 14     # elements
DEFAULT_STAGE_TILE = 1 << 17     # elements
# Derivations from the caches:
STREAM_PER_LLC = 1.125   # streaming stores win from ~1.1x the last-level cache moved (36 MiB on 32 MiB)
NUMPY_TILE_BUFFERS = 10  # the numpy engine keeps ~10 temporaries of a tile in L2
STAGE_TILE_BUFFERS = 3   # staged blocks: 3 buffers of a tile in L2
TILE_ITEM = 4            # bytes per element the tiles are sized for (float32, the common case)
TILE_RANGE = (1 << 10, 1 << 20)
FIELDS = ("threads", "parallel_min", "stream_min", "numpy_tile", "stage_tile")
SIZE_FIELDS = FIELDS[1:]
SOURCES = ("override", "calibrated", "env", "os", "default")
CALIBRATED_FIELDS = ("parallel_min", "stream_min")
FORMAT = 1  # of the calibration file


class Cache(NamedTuple):
    level: int
    type: str                     # "Data", "Instruction" or "Unified"
    size: int                     # bytes
    shared_cpus: tuple[int, ...]  # the CPUs sharing it; () where unknown (sysconf)

    @property
    def name(self) -> str:
        return f"L{self.level}" + {"Data": "d", "Instruction": "i"}.get(self.type, "")


class Facts(NamedTuple):
    model: str
    isa: tuple[str, ...]        # the flags of ISA_OF_INTEREST this CPU has
    cores: int                  # os.cpu_count()
    usable_cores: int           # how many CPUs this process may run on (affinity)
    cpus: tuple[int, ...]       # which: the caches are the first one's
    caches: tuple[Cache, ...]
    cache_source: str           # "sysfs", "sysconf" or "none"
    disagreements: tuple[str, ...]  # sysfs against sysconf, where both say something

    def cache(self, name: str) -> Cache | None:
        return next((c for c in self.caches if c.name == name), None)

    def last_level(self) -> Cache | None:
        """The largest-level data or unified cache."""
        data = [c for c in self.caches if c.type != "Instruction"]
        return max(data, key=lambda c: c.level) if data else None

    def sharing(self, cache: Cache) -> int:
        """How many of this process's CPUs share `cache` (where unknown: an L3 or beyond is taken as
        shared by all, a nearer cache as private)."""
        if not cache.shared_cpus:
            return self.usable_cores if cache.level >= 3 else 1
        return max(1, len(set(cache.shared_cpus).intersection(self.cpus)))

    def last_level_usable(self) -> int | None:
        """Bytes of last-level cache this process's CPUs reach: one cache times the number of such
        caches its CPUs span (estimated from the first CPU's sharing)."""
        llc = self.last_level()
        if llc is None:
            return None
        share = self.sharing(llc)
        return llc.size * -(-self.usable_cores // share)


class Tuning(NamedTuple):
    threads: int       # threads a call may use
    parallel_min: int  # bytes of output per thread from which the C pool uses another thread
    stream_min: int    # bytes moved (all arrays read and written) from which outputs are streamed
    numpy_tile: int    # elements per tile of the numpy engine
    stage_tile: int    # elements per staged block
    source: dict       # field -> one of SOURCES


class CalibrationError(RuntimeError):
    """Calibration cannot run here (the C lane was not built); the OS-derived values stand."""


# --- facts -------------------------------------------------------------------------------------

def usable_cpus() -> tuple[int, ...]:
    try:
        return tuple(sorted(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return tuple(range(os.cpu_count() or 1))


def parse_cpu_list(text: str) -> tuple[int, ...]:
    """sysfs's '0-3,8,10-11' -> (0, 1, 2, 3, 8, 10, 11)."""
    cpus: list[int] = []
    for part in text.strip().split(","):
        part = part.strip()
        if not part:
            continue
        lo, _, hi = part.partition("-")
        cpus.extend(range(int(lo), int(hi or lo) + 1))
    return tuple(cpus)


_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def parse_size(text: str) -> int:
    """'32768K', '1M', '64M', '4096', '1MiB', '2G' -> bytes (binary units); ValueError otherwise."""
    body = text.strip().upper()
    for tail in ("IB", "B"):
        if body.endswith(tail) and body[:-len(tail)][-1:] in "KMGT" and len(body) > len(tail):
            body = body[:-len(tail)]
            break
    unit = body[-1:] if body[-1:] in ("K", "M", "G", "T") else ""
    digits = body[:len(body) - len(unit)].strip()
    if not digits.isdigit():  # no sign, no fraction
        raise ValueError(f"{text!r} is not a size (an integer with an optional K, M, G or T suffix)")
    return int(digits) * _UNITS[unit]


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="ascii", errors="replace") as f:
            return f.read().strip()
    except OSError:
        return None


def read_sysfs_caches(cpu: int, root: str = SYSFS_CPU) -> tuple[Cache, ...]:
    """The caches of one CPU from <root>/cpu<cpu>/cache/index*/{level,type,size,shared_cpu_list};
    () where there are none (no sysfs, or a kernel that does not list them)."""
    base = os.path.join(root, f"cpu{cpu}", "cache")
    try:
        entries = sorted(e for e in os.listdir(base) if e.startswith("index"))
    except OSError:
        return ()
    caches = []
    for entry in entries:
        d = os.path.join(base, entry)
        level, kind, size = (_read(os.path.join(d, name)) for name in ("level", "type", "size"))
        if not (level and kind and size):
            continue
        try:
            shared = parse_cpu_list(_read(os.path.join(d, "shared_cpu_list")) or "")
            caches.append(Cache(int(level), kind, parse_size(size), shared))
        except ValueError:
            continue  # a file this parser does not know: leave that cache out rather than guess
    return tuple(sorted(caches, key=lambda c: (c.level, c.type)))


_SYSCONF = (("SC_LEVEL1_DCACHE_SIZE", 1, "Data"), ("SC_LEVEL1_ICACHE_SIZE", 1, "Instruction"),
            ("SC_LEVEL2_CACHE_SIZE", 2, "Unified"), ("SC_LEVEL3_CACHE_SIZE", 3, "Unified"),
            ("SC_LEVEL4_CACHE_SIZE", 4, "Unified"))


_GLIBC_SC = {"SC_LEVEL1_ICACHE_SIZE": 185, "SC_LEVEL1_DCACHE_SIZE": 188, "SC_LEVEL2_CACHE_SIZE": 191,
              "SC_LEVEL3_CACHE_SIZE": 194, "SC_LEVEL4_CACHE_SIZE": 197}  # glibc's <bits/confname.h>


def _os_sysconf(name: str) -> int | None:
    """sysconf(name); Python 3.11's os.sysconf does not know the cache names, so on glibc they go
    through ctypes with glibc's numbers (getconf's LEVEL*_CACHE_SIZE)."""
    if name in os.sysconf_names:
        try:
            return os.sysconf(name)
        except (OSError, ValueError):
            return None
    try:
        if not os.confstr("CS_GNU_LIBC_VERSION"):
            return None
        import ctypes
        return ctypes.CDLL(None).sysconf(_GLIBC_SC[name])
    except (AttributeError, OSError, ValueError, KeyError):  # not glibc, no confstr, no ctypes
        return None


def read_sysconf_caches(sysconf=_os_sysconf) -> tuple[Cache, ...]:
    """The caches glibc's sysconf reports (sharing unknown); () elsewhere."""
    caches = []
    for name, level, kind in _SYSCONF:
        size = sysconf(name)
        if size and size > 0:
            caches.append(Cache(level, kind, int(size), ()))
    return tuple(caches)


def read_cpuinfo(path: str = CPUINFO) -> tuple[str | None, set[str] | None]:
    """Model name and flags of the first processor in /proc/cpuinfo (None where absent)."""
    model, flags = None, None
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                key, _, value = line.partition(":")
                key = key.strip().lower()
                if key == "model name" and model is None:
                    model = value.strip() or None
                elif key in ("flags", "features") and flags is None:
                    flags = set(value.split())
                elif not key and (model is not None or flags is not None):
                    break  # the end of the first processor's block
                if model is not None and flags is not None:
                    break
    except OSError:
        pass
    return model, flags


def read_facts(sysfs: str = SYSFS_CPU, cpuinfo: str = CPUINFO, cpus: tuple[int, ...] | None = None,
               sysconf=_os_sysconf) -> Facts:
    """facts() from the given places (tests point them at fake trees)."""
    cpus = tuple(sorted(cpus)) if cpus else usable_cpus()
    model, flags = read_cpuinfo(cpuinfo)
    if model is None:
        import platform
        model = platform.processor() or platform.machine() or "unknown"
    isa = tuple(f for f in ISA_OF_INTEREST if f in (flags or ()))
    from_sysfs = read_sysfs_caches(cpus[0], sysfs)
    from_sysconf = read_sysconf_caches(sysconf)
    disagreements = []
    for c in from_sysconf:
        mine = next((s for s in from_sysfs if s.level == c.level and (s.type == c.type or c.level > 1)), None)
        if mine is not None and mine.size != c.size:
            disagreements.append(f"{c.name}: sysfs {format_size(mine.size)}, sysconf {format_size(c.size)}")
    caches, source = (from_sysfs, "sysfs") if from_sysfs else (from_sysconf, "sysconf") if from_sysconf \
        else ((), "none")
    return Facts(model, isa, os.cpu_count() or len(cpus), len(cpus), tuple(cpus), caches, source,
                 tuple(disagreements))


@functools.cache
def facts() -> Facts:
    """This machine, read once per process (facts.cache_clear() to read again)."""
    return read_facts()


# --- the crossovers ----------------------------------------------------------------------------

def thread_rule(environ=os.environ, usable_cores: int | None = None) -> tuple[int, str]:
    """(threads, source): $OPSNN_NUM_THREADS, else the first number of $OMP_NUM_THREADS (as torch
    and the BLAS libraries read it), else the cores this process may run on ("os"). A bad
    $OPSNN_NUM_THREADS is a ValueError; a bad $OMP_NUM_THREADS is passed over."""
    for name in (THREADS_VARIABLE, "OMP_NUM_THREADS"):
        text = environ.get(name, "").split(",")[0].strip()
        if not text:
            continue
        try:
            count = int(text)
        except ValueError:
            count = 0
        if count >= 1:
            return min(count, MAX_THREADS), "env"
        if name == THREADS_VARIABLE:
            raise ValueError(f"{name}={environ[name]!r}: expected a positive integer")
    return (usable_cores if usable_cores is not None else len(usable_cpus())), "os"


def parse_override(text: str) -> dict[str, int]:
    """$OPSNN_TUNING, e.g. 'parallel_min=32768,stream_min=64M,threads=1' -> {field: value}. Sizes
    take K, M, G suffixes (binary); tiles are in elements (suffixes allowed). ValueError naming
    the variable and the key for anything else."""
    got: dict[str, int] = {}
    for item in text.split(","):
        if not item.strip():
            continue
        key, eq, value = item.partition("=")
        key = key.strip()
        where = f"{TUNING_VARIABLE}={text!r}"
        if key not in FIELDS:
            raise ValueError(f"{where}: unknown key {key!r}; known: {', '.join(FIELDS)}")
        if not eq:
            raise ValueError(f"{where}: {key} has no value ({key}=...)")
        if key in got:
            raise ValueError(f"{where}: {key} given twice")
        try:
            number = parse_size(value)
        except ValueError as e:
            raise ValueError(f"{where}: {key}: {e}") from None
        least = 0 if key == "stream_min" else 1
        if number < least or (key == "threads" and number > MAX_THREADS):
            bound = f"1 to {MAX_THREADS}" if key == "threads" else f"at least {least}"
            raise ValueError(f"{where}: {key}={value.strip()} is out of range ({bound})")
        got[key] = number
    return got


def _floor_pow2(n: int) -> int:
    return 1 << (max(1, n).bit_length() - 1)


def os_derived(f: Facts) -> dict[str, int]:
    """The crossovers the caches imply (only the fields they say something about)."""
    got = {}
    llc = f.last_level_usable()
    if llc:
        got["stream_min"] = max(1 << 20, int(STREAM_PER_LLC * llc) >> 20 << 20)
    l2 = f.cache("L2")
    if l2 is not None:
        per_thread = l2.size // f.sharing(l2)
        lo, hi = TILE_RANGE
        got["numpy_tile"] = min(hi, max(lo, _floor_pow2(per_thread // (NUMPY_TILE_BUFFERS * TILE_ITEM))))
        got["stage_tile"] = min(hi, max(lo, _floor_pow2(per_thread // (STAGE_TILE_BUFFERS * TILE_ITEM))))
    return got


DEFAULTS = {"parallel_min": DEFAULT_PARALLEL_MIN, "stream_min": DEFAULT_STREAM_MIN,
            "numpy_tile": DEFAULT_NUMPY_TILE, "stage_tile": DEFAULT_STAGE_TILE}


def choose(f: Facts, environ=os.environ, calibrated: dict | None = None) -> Tuning:
    """The Tuning for facts `f`, the environment and a calibration's chosen values (or None)."""
    override = parse_override(environ.get(TUNING_VARIABLE, ""))
    values, source = {}, {}
    if "threads" in override:
        values["threads"], source["threads"] = override["threads"], "override"
    else:
        values["threads"], source["threads"] = thread_rule(environ, f.usable_cores)
    derived = os_derived(f)
    for field in SIZE_FIELDS:
        for where, layer in (("override", override), ("calibrated", calibrated or {}), ("os", derived),
                             ("default", DEFAULTS)):
            if field in layer:
                values[field], source[field] = layer[field], where
                break
    return Tuning(**values, source=source)


def _version() -> str:
    version = getattr(sys.modules.get("opsnn"), "__version__", None)
    if version is None:  # opsnn still importing, or this module loaded on its own
        import importlib.metadata
        try:
            version = importlib.metadata.version("opsnn")
        except importlib.metadata.PackageNotFoundError:
            version = "unknown"
    return version


def fingerprint(f: Facts) -> dict:
    """What a calibration is valid for: the CPU model, its caches, the usable cores, opsnn's version."""
    return {"cpu": f.model, "caches": [f"{c.name} {c.size} {len(c.shared_cpus)}" for c in f.caches],
            "usable_cores": f.usable_cores, "opsnn": _version()}


def cache_dir(environ=os.environ) -> str:
    """$XDG_CACHE_HOME/opsnn, else ~/.cache/opsnn (a relative XDG_CACHE_HOME is ignored, as the
    XDG spec asks)."""
    base = environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "opsnn")


def calibration_path(f: Facts | None = None, environ=os.environ) -> str:
    import zlib  # a builtin module: no hashlib (3 ms to import) on the first call's path
    key = repr(sorted(fingerprint(f or facts()).items()))
    return os.path.join(cache_dir(environ), f"tuning-{zlib.crc32(key.encode()):08x}.json")


def read_calibration(path: str, expected: dict) -> dict | None:
    """The chosen values of a calibration file made for `expected` (a fingerprint); None where
    there is none. A corrupt file, or one made for another machine, is ignored with a warning."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as e:
        warnings.warn(f"opsnn: ignoring the calibration file {path}: {e}", RuntimeWarning, stacklevel=2)
        return None
    import json
    try:
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not an opsnn calibration of format {FORMAT}")
        chosen = data["chosen"]
        if not isinstance(chosen, dict) or any(
                k not in CALIBRATED_FIELDS or type(v) is not int or v < (0 if k == "stream_min" else 1)
                for k, v in chosen.items()):
            raise ValueError(f"bad 'chosen' values {chosen!r}")
    except (ValueError, KeyError, TypeError) as e:
        warnings.warn(f"opsnn: ignoring the corrupt calibration file {path} ({e}); `opsnn tune` writes it again",
                      RuntimeWarning, stacklevel=2)
        return None
    if data.get("fingerprint") != expected:
        warnings.warn(f"opsnn: ignoring the calibration file {path}: it was made for another machine or opsnn "
                      f"version ({data.get('fingerprint')!r}, this is {expected!r})", RuntimeWarning, stacklevel=2)
        return None
    return chosen


@functools.cache
def tuning() -> Tuning:
    """This process's Tuning, chosen once (tuning.cache_clear() to choose again). ValueError for a
    bad $OPSNN_TUNING or $OPSNN_NUM_THREADS, naming it."""
    f = facts()
    return choose(f, os.environ, read_calibration(calibration_path(f), fingerprint(f)))


def threads_allowed() -> int:
    """Threads a call may use (tuning().threads): the one place of the rule."""
    return tuning().threads


def describe() -> dict:
    """facts() as a JSON-able dict (for `opsnn info`)."""
    f = facts()
    return {"model": f.model, "isa": list(f.isa), "cores": f.cores, "usable_cores": f.usable_cores,
            "caches": [{"name": c.name, "level": c.level, "type": c.type, "size": c.size,
                        "shared_cpus": len(c.shared_cpus) or None} for c in f.caches],
            "cache_source": f.cache_source, "disagreements": list(f.disagreements),
            "last_level_usable": f.last_level_usable()}


def format_size(n: int) -> str:
    """Bytes for people: '32 MiB', '33.9 MiB', '512 B'."""
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            value = n / (1 << shift)
            return f"{value:.0f} {unit}" if n % (1 << shift) == 0 else f"{value:.1f} {unit}"
    return f"{n} B"


def format_tuning(t: Tuning) -> str:
    """One line: each value with its unit and source."""
    return ", ".join([f"threads {t.threads} ({t.source['threads']})",
                      f"parallel_min {format_size(t.parallel_min)} of output per thread ({t.source['parallel_min']})",
                      f"stream_min {format_size(t.stream_min)} moved ({t.source['stream_min']})",
                      f"numpy_tile {t.numpy_tile} elements ({t.source['numpy_tile']})",
                      f"stage_tile {t.stage_tile} elements ({t.source['stage_tile']})"])


# --- calibration -------------------------------------------------------------------------------

STREAM_SIZES = tuple(int(round((1 << 18) * 2 ** (k / 2))) // 1024 * 1024 for k in range(15))  # 256K..32M elements
PARALLEL_SIZES = tuple(int(round(4096 * 2 ** (k / 2))) // 64 * 64 for k in range(17))     # 4K..1M elements
WIN = 0.95        # a side wins a size where its best time is under 95 % of the other's (see crossover)
REPEATS = 3       # independent passes per crossover; only one they agree on is written (see agreed)
AGREE_STEPS = 2   # passes agree when their crossovers are at most this many sizes apart (a factor 2)
NEVER = 1 << 62   # a stream_min no call reaches
_ARRAYS = 3       # the backward moves grad, feature and out


def crossover(sizes, base, candidate, win: float = WIN) -> int | None:
    """The index of the size from which `candidate` is taken over `base`: the step that fits the
    measurements best, i.e. minimizes the sum over the sizes from it on of log(candidate / (win *
    base)) (a size where the candidate is not under `win` of the base counts against it). None where
    no step pays (the candidate never wins overall). One noisy size moves the step only as far as
    its own ratio outweighs its neighbours'; on a tie the later step is taken."""
    import math
    best, best_sum, suffix = None, 0.0, 0.0
    for i in range(len(sizes) - 1, -1, -1):
        suffix += math.log(candidate[i] / (win * base[i]))
        if suffix < best_sum - 1e-12:
            best, best_sum = i, suffix
    return best


def agreed(indices: list[int | None], n_sizes: int, steps: int = AGREE_STEPS) -> tuple[bool, int | None]:
    """(whether the passes' crossover indices agree, the one to keep: their median). None (no step
    pays) counts as the index one past the largest size. Three 10-second runs on one VM once chose
    parallel_min 2 MiB, 128 KiB and 128 KiB: passes that far apart measured noise, not the machine,
    and writing any of them made some calls slower than the OS-derived value."""
    at = sorted(n_sizes if i is None else i for i in indices)
    if not at or at[-1] - at[0] > steps:
        return False, None
    middle = at[len(at) // 2]
    return True, None if middle >= n_sizes else middle


def _repeated(lanes, arrays_for, sizes, budget_s: float, max_rounds: int, sample_s: float,
              repeats: int) -> tuple[list[list[float]], list[int | None], list[list[list[float]]]]:
    """`repeats` independent passes of _best_times, budget shared: (each lane's best over all passes,
    each pass's crossover index, each pass's times)."""
    passes = [_best_times(lanes, arrays_for, sizes, budget_s / repeats, 3, max_rounds, sample_s)
              for _ in range(repeats)]
    best = [[min(p[k][s] for p in passes) for s in range(len(sizes))] for k in range(len(lanes))]
    return best, [crossover(sizes, p[0], p[1]) for p in passes], passes


def _lane_module():
    import importlib
    try:
        return importlib.import_module("opsnn.engine._select")
    except ImportError:
        raise CalibrationError("calibration needs the C lane (opsnn.engine._select), which this installation "
                               "does not have: the OS-derived crossovers stand") from None


def _best_times(lanes, arrays_for, sizes, budget_s: float, min_rounds: int, max_rounds: int,
                sample_s: float) -> list[list[float]]:
    """Best seconds per call of each lane at each size: rounds of interleaved samples (the lanes'
    order alternating) until the budget is spent; each sample runs one untimed call, then enough
    calls to last sample_s."""
    clock = time.perf_counter
    best = [[float("inf")] * len(sizes) for _ in lanes]
    reps = [1] * len(sizes)
    start, rounds = clock(), 0
    while rounds < min_rounds or (rounds < max_rounds and clock() - start < budget_s):
        order = list(range(len(lanes))) if rounds % 2 == 0 else list(range(len(lanes)))[::-1]
        for s, n in enumerate(sizes):
            g, f, o = arrays_for(n)
            for k in order:
                lane = lanes[k]
                lane(g, f, o)
                r = reps[s]
                t0 = clock()
                for _ in range(r):
                    lane(g, f, o)
                dt = (clock() - t0) / r
                if dt < best[k][s]:
                    best[k][s] = dt
                if rounds == 0:
                    reps[s] = max(reps[s], min(10000, int(sample_s / max(dt, 1e-9))))
        rounds += 1
    return best


def calibrate(seconds: float = 10.0, *, stream_sizes=STREAM_SIZES, parallel_sizes=PARALLEL_SIZES,
              write: bool = True, path: str | None = None, repeats: int = REPEATS) -> dict:
    """Measure the streaming and parallel crossovers of the C lane (float32 backward) on this machine
    in about `seconds`, each in `repeats` independent passes, write those the passes agree on (agreed)
    to the calibration file (unless write=False) and return the record: what was measured (best
    seconds per call over the passes, each pass's crossover) and what was chosen; a crossover the
    passes disagree on is left out of "chosen" (the OS-derived value stands for it). CalibrationError
    where the C lane was not built."""
    import numpy as np

    from opsnn.engine import keys, modes

    select = _lane_module()
    f = facts()
    threads = f.usable_cores
    dtype = np.dtype(np.float32)
    item = dtype.itemsize
    n_max = max(max(stream_sizes, default=0), max(parallel_sizes, default=0))
    rng = np.random.default_rng(0)
    g = rng.standard_normal(n_max, dtype=np.float32)
    x = rng.standard_normal(n_max, dtype=np.float32) + np.float32(1.0)  # about half above the threshold
    o = np.empty_like(g)
    params = list(modes.params(keys.raw_greater(dtype, 1.0), modes.PLAIN))  # threshold_backward's select

    def lane(parallel_min: int, stream_min: int, threads: int):
        return select.Lane(dtype, params, 1 << 30, _ARRAYS, parallel_min, stream_min, threads)

    def arrays_for(n):
        return g[:n], x[:n], o[:n]

    started = time.perf_counter()
    record: dict = {"format": FORMAT, "fingerprint": fingerprint(f), "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                    "threads": threads, "dtype": "float32", "win": WIN, "chosen": {}}
    parallel_share = 0.4 if threads > 1 and parallel_sizes else 0.0
    # streaming stores: always (stream_min=0) against never, on all threads
    if stream_sizes:
        lanes = [lane(DEFAULT_PARALLEL_MIN, NEVER, threads), lane(DEFAULT_PARALLEL_MIN, 0, threads)]
        (plain, stream), each, passes = _repeated(lanes, arrays_for, stream_sizes, seconds * (1 - parallel_share),
                                                  40, 2e-3, repeats)
        ok, i = agreed(each, len(stream_sizes))
        if i is None:
            chosen, note = 2 * stream_sizes[-1] * item * _ARRAYS, \
                f"streaming did not pay up to {stream_sizes[-1]} elements: set beyond them"
        else:
            chosen = stream_sizes[i] * item * _ARRAYS
            note = f"streaming pays from {stream_sizes[i]} elements on" + \
                (" (the smallest measured)" if i == 0 else "")
        record["stream"] = {"elements": list(stream_sizes), "plain_s": plain, "stream_s": stream,
                            "crossover_elements": None if i is None else stream_sizes[i],
                            **_passes_record(each, passes, stream_sizes, ("plain_s", "stream_s"), ok), "note": note}
        if ok:
            record["chosen"]["stream_min"] = chosen
        else:
            record["stream"]["note"] = _disagreement("streaming", each, stream_sizes)
    if parallel_share:
        (one, many), each, passes = _repeated([lane(1, NEVER, 1), lane(1, NEVER, threads)], arrays_for,
                                              parallel_sizes, seconds * parallel_share, 200, 3e-4, repeats)
        ok, i = agreed(each, len(parallel_sizes))
        if i is None:
            chosen, note = 2 * parallel_sizes[-1] * item // threads, \
                f"{threads} threads did not pay up to {parallel_sizes[-1]} elements: set beyond them"
        else:
            chosen = max(1, parallel_sizes[i] * item // threads)
            note = f"{threads} threads pay from {parallel_sizes[i]} elements on" + \
                (" (the smallest measured)" if i == 0 else "")
        record["parallel"] = {"elements": list(parallel_sizes), "one_thread_s": one, "all_threads_s": many,
                              "crossover_elements": None if i is None else parallel_sizes[i],
                              **_passes_record(each, passes, parallel_sizes, ("one_thread_s", "all_threads_s"), ok),
                              "note": note}
        if ok:
            record["chosen"]["parallel_min"] = chosen
        else:
            record["parallel"]["note"] = _disagreement(f"{threads} threads", each, parallel_sizes)
    elif parallel_sizes:
        record["parallel"] = {"note": "one usable core: no second thread to measure"}
    record["seconds"] = round(time.perf_counter() - started, 3)
    if write:
        record["path"] = write_calibration(record, path)
        tuning.cache_clear()
    return record


def _passes_record(each, passes, sizes, sides, ok: bool) -> dict:
    return {"agreed": ok, "passes": [{"crossover_elements": None if i is None else sizes[i],
                                      sides[0]: p[0], sides[1]: p[1]} for i, p in zip(each, passes, strict=True)]}


def _disagreement(what: str, each, sizes) -> str:
    at = ", ".join("none" if i is None else str(sizes[i]) for i in each)
    return (f"the {len(each)} passes disagree on where {what} pay (from {at} elements on): not written; "
            "the OS-derived (or default) value stands; measure again on a quieter machine, or longer")


def write_calibration(record: dict, path: str | None = None) -> str:
    """Write `record` atomically (a temporary file renamed over the old one); returns the path."""
    import json
    path = path or calibration_path()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        with open(temporary, "w", encoding="utf-8") as fh:
            json.dump({k: v for k, v in record.items() if k != "path"}, fh, indent=1)
            fh.write("\n")
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return path


def reset(path: str | None = None) -> str | None:
    """Remove this machine's calibration file; its path, or None where there was none."""
    path = path or calibration_path()
    try:
        os.unlink(path)
    except FileNotFoundError:
        return None
    tuning.cache_clear()
    return path
