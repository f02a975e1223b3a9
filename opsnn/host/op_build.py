"""Building an operator folder's host code against the host twin: op_host (OpDef, infershape,
tiling) and op_api of the folder and of the operators its op_api reaches, compiled as upstream's
cmake compiles them (include paths of cmake/variables.cmake's OPAPI_INCLUDE / OP_TILING_INCLUDE,
with opsnn's headers where the toolkit's would be), into a program (`opsnn run`: with an example)
or a shared library (opsnn.host.operator), plus the kernel manifest LaunchKernel builds the
folders' kernels from (opsnn/host/kernels.py).

Every object is cached by content (its compile command and every header the compiler read, from
its dependency file), so an unchanged folder relinks nothing and a changed source recompiles
alone; outputs are written beside and renamed."""
from __future__ import annotations

import hashlib
import os
import shlex
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from opsnn.capi.build import compiler
from opsnn.cpudebug import build as kt_build
from opsnn.cpudebug.socs import platform_for
from opsnn.cpudebug.ut_build import compiler_excerpt, depfile_dependencies, write_if_changed

from . import build as host_build
from .kernels import Manifest, content_key
from .op_folder import OperatorFolder, checkout_include_dirs, checkout_root, dependencies

FALLBACK_INCLUDE = Path(__file__).resolve().parent / "include_fallback"  # aclnn_kernels/, level0/ without a checkout
_FLAGS = ("-std=c++17", "-fPIC", "-O0", "-g", "-w")


class HostBuildError(Exception):
    """A source that does not compile (the compiler's first errors), or a link that fails."""


@dataclass
class BuildStats:
    compiled: int = 0      # objects compiled now
    reused: int = 0        # objects whose cached build was current
    linked: bool = False   # the output was linked now
    seconds: float = 0.0


@dataclass
class OperatorBuild:
    """One operator folder (and its dependencies) built for one SoC."""
    folder: OperatorFolder
    soc: str                                    # as the user wrote it (ascend910b, Ascend950, ...)
    extra_include_dirs: list[Path] = field(default_factory=list)
    verbose: bool = False

    def __post_init__(self):
        self.platform = platform_for(self.soc)  # ValueError: an unknown SoC
        from opsnn.platform import SOCS

        self.family = SOCS[self.platform.name].family
        self.deps = dependencies(self.folder)
        self.checkout = checkout_root(self.folder)
        roots = "\0".join(str(f.root) for f in self.folders)
        tag = hashlib.sha256(f"{roots}\0{self.platform.name}".encode()).hexdigest()[:16]
        self.work = kt_build.lib_dir().parent / "host-builds" / f"{self.folder.name}-{tag}"

    @property
    def folders(self) -> list[OperatorFolder]:
        return [self.folder, *self.deps]

    def sources(self) -> list[Path]:
        """op_host (the SoC's tiling) and op_api sources of every folder, the main one first."""
        out: list[Path] = []
        for f in self.folders:
            out += [s for s in (*f.host_sources(self.family), *f.api_sources()) if s not in out]
        return out

    def include_dirs(self) -> list[Path]:
        """The host twin's headers where a toolkit's are on the path (include/, op_common/,
        op_common/op_host/, ...: build.host_include_dirs) and the acl C declarations, then the
        checkout's as upstream's cmake orders them, the staged aclnnop/ headers, each folder's
        op_api and op_host (and the category folder above, as add_tiling_sources adds), and last
        the fallback aclnn_kernels/ and level0/ declarations for a folder outside a checkout."""
        dirs = [*host_build.host_include_dirs(), *checkout_include_dirs(self.checkout), self.work / "include"]
        for f in self.folders:
            for d in (f.op_api_dir, f.op_host_dir, f.root.parent if f.op_host_dir else None):
                if d is not None and d not in dirs:
                    dirs.append(d)
        dirs += [*self.extra_include_dirs, FALLBACK_INCLUDE]
        return dirs

    def stage_headers(self) -> None:
        """include/aclnnop/aclnn_*.h forwarding to each folder's op_api header, as a CANN install
        has them (examples #include "aclnnop/aclnn_<op>.h"); the main folder's win a name clash."""
        d = self.work / "include" / "aclnnop"
        d.mkdir(parents=True, exist_ok=True)
        wanted = {}
        for f in self.folders:
            for h in f.aclnn_headers():
                wanted.setdefault(h.name, f'#include "{h}"\n')
        for name, text in wanted.items():
            write_if_changed(d / name, text)
        for stale in d.glob("*.h"):
            if stale.name not in wanted:
                stale.unlink()

    def compile_command(self, source: Path, obj: Path, dep: Path) -> list[str]:
        return [*compiler(), *_FLAGS, *(f"-I{d}" for d in self.include_dirs()), "-MD", "-MF", str(dep),
                "-c", str(source), "-o", str(obj)]

    def compile(self, sources: list[Path], stats: BuildStats) -> list[Path]:
        """An object per source, compiled where its cached build is not current (in parallel)."""
        self.stage_headers()
        objdir = self.work / "obj"
        objdir.mkdir(parents=True, exist_ok=True)
        jobs = []
        for s in sources:
            stem = f"{s.stem}-{hashlib.sha256(str(s).encode()).hexdigest()[:10]}"
            jobs.append((s, objdir / f"{stem}.o"))

        def one(job) -> tuple[bool, str]:
            source, obj = job
            return _cached_compile(self.compile_command(source, Path("{out}"), obj.with_suffix(".d")), source, obj,
                                   self.verbose)

        workers = max(1, min(len(jobs), os.cpu_count() or 1))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(one, jobs))
        errors = [text for _, text in results if text]
        if errors:
            raise HostBuildError("\n".join(errors))
        stats.compiled += sum(1 for built, _ in results if built)
        stats.reused += sum(1 for built, _ in results if not built)
        return [o for _, o in jobs]

    def link(self, objects: list[Path], out: Path, shared: bool, stats: BuildStats) -> Path:
        """The program (or shared library) of the objects, linked against libopsnn_host and
        libopsnn_kt, relinked when an object or the command changed."""
        host_build.build()
        cmd = [*compiler(), *(["-shared"] if shared else []), *map(str, objects), "-o", "{out}",
               *host_build.host_libs()]
        key = hashlib.sha256("\0".join(cmd).encode())
        for o in objects:
            key.update(o.read_bytes())
        stamp = out.with_name(out.name + ".key")
        if out.is_file() and stamp.is_file() and stamp.read_text() == key.hexdigest():
            return out
        with tempfile.TemporaryDirectory(prefix="link-", dir=out.parent) as tmp:
            tmp_out = Path(tmp) / out.name
            done = _run([str(tmp_out) if c == "{out}" else c for c in cmd], self.verbose)
            if done.returncode != 0:
                raise HostBuildError(f"linking {out.name} failed:\n{_excerpt(done.stderr)}")
            os.replace(tmp_out, out)
        stamp.write_text(key.hexdigest())
        stats.linked = True
        return out

    def manifest(self) -> Path:
        """The kernel manifest of these folders (opsnn/host/kernels.py): their op_kernel folders,
        the main one first, and the checkout's include folders."""
        kernel_dirs = [f.op_kernel_dir for f in self.folders if f.op_kernel_dir is not None]
        return Manifest(kernel_dirs, checkout_include_dirs(self.checkout)).write(self.work / "kernels.json")

    def environment(self, sanitize: bool) -> dict[str, str]:
        """What a program of this build runs with: the manifest, the SoC for the acl runtime and the
        emulator, the sanitizer, and this Python (with opsnn importable) for the embedded runtime."""
        env = dict(os.environ, OPSNN_HOST_KERNELS=str(self.manifest()), OPSNN_KT_PYTHON=sys.executable,
                   OPSNN_SOC=self.platform.name, OPSNN_UT_SOC=self.platform.name,
                   OPSNN_UT_SANITIZE="on" if sanitize else "off", OPSNN_SANITIZE="1" if sanitize else "0")
        package_root = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH", "")) if p)
        return env


def _run(cmd: list[str], verbose: bool) -> subprocess.CompletedProcess:
    if verbose:
        print(" ".join(shlex.quote(c) for c in cmd), file=sys.stderr)
    return subprocess.run(cmd, capture_output=True, text=True)


def _cached_compile(command: list[str], source: Path, obj: Path, verbose: bool) -> tuple[bool, str]:
    """(compiled now?, error text or ""): the object is current when its command and every file
    its last compile read are unchanged."""
    dep, stamp = obj.with_suffix(".d"), obj.with_suffix(".key")
    if obj.is_file() and dep.is_file() and stamp.is_file() and stamp.read_text() == content_key(
            command, depfile_dependencies(dep)):
        return False, ""
    tmp = obj.with_name(f".{obj.name}.{os.getpid()}.{time.monotonic_ns()}.tmp")
    done = _run([str(tmp) if c == "{out}" else c for c in command], verbose)
    if done.returncode != 0:
        tmp.unlink(missing_ok=True)
        return False, f"compiling {source} failed:\n{_excerpt(done.stderr)}"
    os.replace(tmp, obj)
    stamp.write_text(content_key(command, depfile_dependencies(dep)))
    return True, ""


def _excerpt(stderr: str) -> str:
    return compiler_excerpt(stderr, 25)  # ut_build's: one rule for what of a compiler's output to show


__all__ = ["BuildStats", "HostBuildError", "OperatorBuild"]
