"""`opsnn info`: what this installation runs on. The C express lane is built at install only where a
C compiler and the Python headers are (setup.py), and the install goes on without it; this is where
one finds out which engine a call gets, and what to install where something is missing."""
from __future__ import annotations

import importlib.metadata
import json
import os
import platform
import re
import sys

import numpy as np

import opsnn
from opsnn.backends import fast, pool
from opsnn.engine import machine

# Optional packages and what they enable (versions from their installed metadata: importing torch
# alone takes seconds).
INTEGRATIONS = {"torch": "torch", "dask": "dask", "distributed": "dask", "matplotlib": "plot",
                "ml_dtypes": None}
C_LANE_MODULE = "opsnn.engine._select"
C_LANE_FIX = ("install a C compiler and the Python headers (e.g. apt install gcc python3-dev) and reinstall "
              "opsnn (pip install --force-reinstall --no-deps opsnn, or pip install -e . in a checkout)")
# GCC's target_clones names each clone's symbol after its target (setup.py builds with symbols);
# the loader runs the first one, in this order, that the CPU supports.
_CLONE_SYMBOL = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*\.(arch_x86_64_v4|avx2|default)\x00")
_CLONE_ORDER = {"x86-64-v4": 0, "avx2": 1, "default": 2}
_CLONE_NEEDS = {"x86-64-v4": {"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"}, "avx2": {"avx2"},
                "default": set()}


def _version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def _cpu() -> dict:
    """Model name and flags from /proc/cpuinfo (Linux); platform.processor() elsewhere."""
    model, flags = None, None
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "model name" and model is None:
                    model = value.strip()
                elif key == "flags" and flags is None:
                    flags = set(value.split())
                if model is not None and flags is not None:
                    break
    except OSError:
        pass
    return {"model": model or platform.processor() or platform.machine() or "unknown",
            "cores": os.cpu_count(), "usable_cores": pool.cpu_count(), "flags": flags}


def _clones(path: str | None, flags: set | None) -> tuple[list[str] | None, str | None]:
    """The ISA clones compiled into the C lane (None where they cannot be read: a stripped or
    non-GCC build), and the one this CPU runs (None where its flags are unknown)."""
    if path is None:
        return None, None
    try:
        with open(path, "rb") as f:
            data = f.read()
        found = {m.group(1).decode().replace("arch_x86_64_v4", "x86-64-v4") for m in _CLONE_SYMBOL.finditer(data)}
    except OSError:
        return None, None
    if not found:
        return None, None
    clones = sorted(found, key=_CLONE_ORDER.__getitem__)
    runs = None if flags is None else next((c for c in clones if _CLONE_NEEDS[c] <= flags), None)
    return clones, runs


def collect() -> dict:
    """Everything `opsnn info` prints, as one JSON-able dict."""
    variable = os.environ.get(fast.ENGINE_VARIABLE)
    engine: dict = {"variable": variable, "engine": None, "error": None}
    try:
        lane = fast.engine_lane(None)
    except (ImportError, ValueError) as e:  # the same error the first call would raise
        engine["error"] = str(e)
    else:
        engine["engine"] = "c" if lane is not None else "numpy"
    try:
        import opsnn.engine._select as built  # noqa: F401  (whatever the engine: is it there at all?)
        c_path = built.__file__
    except ImportError:
        c_path = None
    cpu = _cpu()
    clones, runs = _clones(c_path, cpu.pop("flags"))
    try:
        threads: int | str = fast.threads_allowed()
    except ValueError as e:
        threads = f"error: {e}"
    crossovers: dict = {"override": os.environ.get(machine.TUNING_VARIABLE), "calibration_file": None,
                        "calibration_exists": False, "error": None}
    try:
        path = machine.calibration_path()
        crossovers.update(calibration_file=path, calibration_exists=os.path.exists(path))
        crossovers.update(machine.tuning()._asdict())
    except ValueError as e:  # a bad OPSNN_TUNING or OPSNN_NUM_THREADS: the first call would raise it
        crossovers["error"] = str(e)
    return {
        "opsnn": opsnn.__version__,
        "python": platform.python_version(),
        "python_executable": sys.executable,
        "numpy": np.__version__,
        "fast_engine": engine,
        "c_lane": {"built": c_path is not None, "path": c_path, "isa_clones": clones, "isa_in_use": runs},
        "packages": {name: _version(name) for name in INTEGRATIONS},
        "threads": threads,
        "cpu": cpu,
        "machine": machine.describe(),
        "crossovers": crossovers,
        "c_abi": _c_abi(),
        "cpp_kernels": _cpp_kernels(),
    }


def _cpp_kernels() -> dict:
    """What `opsnn ut` (C++ kernels and their CPU-debug UTs) needs: its runtime library, built for
    this environment on first use, a C++ compiler and gtest."""
    import shutil

    from opsnn.cpudebug import build as kt
    try:
        compiler = " ".join(kt.compiler())
    except kt.BuildUnavailable:
        compiler = None
    gtest = next((str(p) for p in ("/usr/include/gtest/gtest.h", "/usr/local/include/gtest/gtest.h")
                  if os.path.isfile(p)), None)
    library = kt.lib_dir() / kt.LIBRARY
    return {"runtime_built": library.is_file(), "runtime": str(library), "compiler": compiler,
            "gtest_header": gtest, "cmake": shutil.which("cmake")}


def _c_abi() -> dict:
    """Where the acl/aclnn C ABI is built for this environment, whether it is, and the device mode
    its aclnn launches run in (OPSNN_DEVICE_MODE, read at aclInit)."""
    from opsnn import capi
    from opsnn.capi import device_mode
    try:
        mode, error = device_mode.mode_from_environment(), None
    except ValueError as e:
        mode, error = None, str(e)
    if os.environ.get("OPSNN_SANITIZE", "").strip().lower() in ("1", "on", "true") and mode:
        mode = "emulator (OPSNN_SANITIZE=1)"
    return {"built": capi.is_built(), "root": str(capi.build_root()), "device_mode": mode, "error": error}


def _engine_line(engine: dict) -> str:
    setting = f"{fast.ENGINE_VARIABLE}={engine['variable']}" if engine["variable"] else \
        f"{fast.ENGINE_VARIABLE} unset: auto"
    if engine["error"]:
        return f"ERROR ({setting}): {engine['error']}"
    name = {"c": "C (every layout)", "numpy": "numpy (every layout; the C engine is not in use)"}[engine["engine"]]
    return f"{name} ({setting})"


def format_text(info: dict) -> str:
    c = info["c_lane"]
    if c["built"]:
        clones = ", ".join(c["isa_clones"]) if c["isa_clones"] else "unknown"
        in_use = f"; this CPU runs {c['isa_in_use']}" if c["isa_in_use"] else ""
        c_line = f"built ({c['path']}); ISA clones: {clones}{in_use}"
    else:
        c_line = ("NOT BUILT: every call runs on the numpy engine (5-70x slower) instead; to build it, "
                  f"{C_LANE_FIX}")
    lines = [f"opsnn       {info['opsnn']}", f"python      {info['python']} ({info['python_executable']})",
             f"numpy       {info['numpy']}", f"fast engine {_engine_line(info['fast_engine'])}",
             f"C lane      {c_line}"]
    for name, version in info["packages"].items():
        extra = INTEGRATIONS[name]
        hint = f" (pip install 'opsnn[{extra}]')" if extra and version is None else ""
        lines.append(f"{name:<11} {version or 'not installed'}{hint}")
    cpu = info["cpu"]
    lines += [f"threads     {info['threads']} ({fast.THREADS_VARIABLE}, else OMP_NUM_THREADS, else usable cores)",
              f"cpu         {cpu['model']}, {cpu['cores']} cores ({cpu['usable_cores']} usable by this process)"]
    return "\n".join(lines + [_c_abi_line(info["c_abi"]), _cpp_kernels_line(info["cpp_kernels"])]
                     + _machine_lines(info["machine"], info["crossovers"]))


def _cpp_kernels_line(k: dict) -> str:
    runtime = f"runtime built ({k['runtime']})" if k["runtime_built"] else \
        "runtime not built yet (its first use builds it)"
    missing = [what for what, ok in (("a C++ compiler", k["compiler"]), ("gtest (libgtest-dev)", k["gtest_header"]))
               if not ok]
    need = f"; missing: {', '.join(missing)}" if missing else ""
    return f"C++ kernels {runtime}; opsnn ut{' cannot run' if missing else ' ready'}{need}"


def _c_abi_line(c: dict) -> str:
    where = f"built ({c['root']})" if c["built"] else \
        f"not built yet ({c['root']}): `python -m opsnn.capi build`, or its first use builds it"
    mode = f"ERROR: {c['error']}" if c["error"] else f"{c['device_mode']} ({'OPSNN_DEVICE_MODE'})"
    return f"C ABI       {where}; device mode {mode}"


def _machine_lines(m: dict, crossovers: dict) -> list[str]:
    def cache(c: dict) -> str:
        shared = f" shared by {c['shared_cpus']} CPUs" if (c["shared_cpus"] or 1) > 1 else ""
        return f"{c['name']} {machine.format_size(c['size'])}{shared}"
    caches = ", ".join(map(cache, m["caches"])) or "unknown"
    lines = [f"isa         {' '.join(m['isa']) or 'none of interest'}",
             f"caches      {caches} (from {m['cache_source']})"]
    lines += [f"            disagree: {d} (sysfs is used)"
              for d in m["disagreements"]]
    if crossovers["error"]:
        lines.append(f"crossovers  ERROR: {crossovers['error']}")
        return lines
    chosen = machine.Tuning(**{k: crossovers[k] for k in machine.Tuning._fields})
    lines.append(f"crossovers  {machine.format_tuning(chosen)}")
    override = crossovers["override"]
    file = crossovers["calibration_file"]
    lines.append(f"tuning      {machine.TUNING_VARIABLE}={override!r}" if override else
                 f"tuning      {machine.TUNING_VARIABLE} unset; " +
                 (f"calibration {file}" if crossovers["calibration_exists"] else
                  f"no calibration ({file}): `opsnn tune` measures this machine"))
    return lines


def main(as_json: bool = False) -> int:
    """`opsnn info [--json]` (the CLI parses the arguments, as for every command)."""
    info = collect()
    print(json.dumps(info, indent=2) if as_json else format_text(info))
    return 0
