"""Compile, link, cache and run a unit-test program: the machinery every layer of `opsnn ut`
(op_kernel, op_host, op_api) shares.

A build is a list of sources, each compiled to its own object with its own dependency file (one -MF
for several sources keeps only the last's), then linked. Builds are cached by content: the key is
the commands (with the build folder written as a placeholder) and the bytes of every file the
compiler read, so an unchanged test with unchanged headers reuses its program and any change
rebuilds. Concurrent runs never share a half-built file: each builds in a folder of its own, which
is renamed into place whole (a program is never rewritten once it exists, so running it never
meets "Text file busy"), and `latest.json`, the pointer to the current build, is replaced
atomically. Generated inputs (a kernel entry, a tiling header, a mirror of upstream's build tree)
live in content-addressed folders, so their paths are stable while their content is.

Child processes (compilers, the test program and whatever it starts) run in their own process
group, are given a time limit, and are killed with the group when opsnn gets SIGINT, SIGTERM or
SIGHUP (`interruptible`)."""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from . import build as kt_build

WORK = "@WORK@"  # the build folder in the cache key: each run builds in a folder of its own
_KEEP_OLD_BUILDS_S = 600.0  # an older build another run may still be starting is kept this long


class BuildFailed(Exception):
    """A compile or link step failed: `stderr` is the tool's output, `step` names what failed."""

    def __init__(self, step: str, command: list[str], stderr: str):
        super().__init__(f"{step} failed")
        self.step, self.command, self.stderr = step, command, stderr


@dataclass(frozen=True)
class Source:
    path: Path
    flags: tuple[str, ...] = ()  # this source's own options, after the spec's common ones


@dataclass
class BuildSpec:
    """What to build: the sources (each its own object), the flags all of them get, the link flags."""
    sources: list[Source]
    common_flags: list[str]
    link_flags: list[str]
    tag: str  # the configuration's name in the cache (test + layer + options): one entry each
    meta: dict = field(default_factory=dict)  # kept with the build, returned with it (notes)

    def compile_commands(self, work: str) -> list[tuple[list[str], str, str]]:
        """[(command, object, depfile)] with `work` as the build folder."""
        out = []
        for k, src in enumerate(self.sources):
            obj, dep = f"{work}/src{k}.o", f"{work}/src{k}.d"
            out.append(([*kt_build.compiler(), *self.common_flags, *src.flags, "-MD", "-MF", dep,
                         "-c", str(src.path), "-o", obj], obj, dep))
        return out

    def link_command(self, work: str) -> list[str]:
        objects = [obj for _, obj, _ in self.compile_commands(work)]
        return [*kt_build.compiler(), *objects, "-o", f"{work}/test", *self.link_flags]

    def request_digest(self) -> str:
        commands = [c for c, _, _ in self.compile_commands(WORK)] + [self.link_command(WORK)]
        h = hashlib.sha256()
        for c in commands:
            h.update(("\0".join(c) + "\n").encode())
        return h.hexdigest()


@dataclass
class Built:
    binary: Path
    seconds: float
    reused: bool
    meta: dict


def _content_key(request: str, deps: list[str]) -> str:
    h = hashlib.sha256(request.encode())
    for path in sorted(set(deps)):
        h.update(path.encode() + b"\0")
        try:
            h.update(hashlib.sha256(Path(path).read_bytes()).digest())
        except OSError:
            h.update(b"missing")
    return h.hexdigest()


def depfile_dependencies(depfile: Path) -> list[str]:
    """The files a compiler's -MD dependency file lists (what the compile read)."""
    text = depfile.read_text().replace("\\\n", " ")
    _, _, deps = text.partition(":")
    return deps.split()



def _write_atomically(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}")
    tmp.write_text(text)
    os.replace(tmp, path)


def write_if_changed(path: Path, text: str) -> None:
    """`text` into `path` where it differs (written beside, then renamed); parents made."""
    if not path.is_file() or path.read_text() != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_atomically(path, text)


def build(spec: BuildSpec, cache_root: Path, verbose: bool = False,
          on_link_error: Callable[[str], BuildSpec | None] | None = None) -> Built:
    """The spec's program, reused where its content is unchanged, else built.

    `on_link_error(stderr)` may return a replacement spec to build when the link fails (its meta
    says why); the result is cached under the original request.

    Raises
    ------
    BuildFailed
        A compile or link step failed.
    kt_build.BuildUnavailable, RuntimeError
        The CPU-debug runtime cannot be built here.
    """
    kt_build.build()
    entry = cache_root / spec.tag
    entry.mkdir(parents=True, exist_ok=True)
    request = spec.request_digest()
    latest = entry / "latest.json"
    with contextlib.suppress(OSError, ValueError):
        doc = json.loads(latest.read_text())
        binary = entry / doc["dir"] / "test"
        if doc["request"] == request and doc["key"] == _content_key(request, doc["deps"]) and binary.is_file():
            return Built(binary, 0.0, True, doc.get("meta", {}))
    started = time.perf_counter()
    work = entry / f"tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    work.mkdir()
    try:
        effective, deps = _compile_and_link(spec, work, verbose, on_link_error)
        key = _content_key(request, deps)
        final = entry / f"b-{key[:20]}"
        try:
            os.rename(work, final)
        except OSError:  # another run finished the same build first: use it
            if not (final / "test").is_file():
                raise
        _write_atomically(latest, json.dumps({"request": request, "key": key, "deps": sorted(set(deps)),
                                              "dir": final.name, "meta": effective.meta}))
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)
    _collect_old(entry, keep=final.name)
    return Built(final / "test", time.perf_counter() - started, False, effective.meta)


def _compile_and_link(spec: BuildSpec, work: Path, verbose: bool, on_link_error) -> tuple[BuildSpec, list[str]]:
    deps: list[str] = []
    done: dict[int, tuple] = {}  # object position -> (source, common flags) compiled there
    while True:
        for k, (command, _, dep) in enumerate(spec.compile_commands(str(work))):
            what = (spec.sources[k], tuple(spec.common_flags))
            if done.get(k) == what:  # a replacement spec keeps this object
                continue
            _step(f"compiling {spec.sources[k].path.name}", command, verbose)
            deps.extend(depfile_dependencies(Path(dep)))
            done[k] = what
        try:
            _step("linking", spec.link_command(str(work)), verbose)
            return spec, deps
        except BuildFailed as e:
            replacement = on_link_error(e.stderr) if on_link_error is not None else None
            if replacement is None:
                raise
            on_link_error = None  # one replacement at most
            spec = replacement


def _step(what: str, command: list[str], verbose: bool) -> None:
    if verbose:
        print(" ".join(shlex.quote(c) for c in command), file=sys.stderr, flush=True)
    done = run_child(command, capture=True)
    if done.returncode != 0:
        raise BuildFailed(what, command, done.stderr)


def _collect_old(entry: Path, keep: str) -> None:
    """Builds other than the current one, once old enough that no run can still be starting them."""
    now = time.time()
    for d in entry.iterdir():
        if d.name == keep or not d.is_dir():
            continue
        limit = _KEEP_OLD_BUILDS_S if d.name.startswith("b-") else 3600.0
        with contextlib.suppress(OSError):
            if now - d.stat().st_mtime > limit:
                shutil.rmtree(d, ignore_errors=True)


# ---- generated inputs: content-addressed, written whole ----

def generated_file(cache_root: Path, name: str, text: str) -> Path:
    """`name` holding `text`, in a folder named by the text's digest (created whole, never changed)."""
    return generated_tree(cache_root, {name: text}) / name


def generated_tree(cache_root: Path, files: dict[str, str], links: dict[str, Path] | None = None) -> Path:
    """A folder holding `files` (relative path -> text) and symbolic links (relative path -> target),
    named by their digest. Links are per file, so `..` inside the tree stays inside it (as a copy
    of the files would, which is what upstream's build makes)."""
    h = hashlib.sha256()
    for rel in sorted(files):
        h.update(f"f\0{rel}\0".encode() + files[rel].encode() + b"\0")
    for rel in sorted(links or {}):
        h.update(f"l\0{rel}\0{links[rel]}\0".encode())
    final = cache_root / "gen" / h.hexdigest()[:24]
    if final.is_dir():
        return final
    tmp = final.with_name(f"{final.name}.tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    try:
        for rel, text in files.items():
            (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp / rel).write_text(text)
        for rel, target in (links or {}).items():
            (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp / rel).symlink_to(target)
        tmp.mkdir(parents=True, exist_ok=True)
        try:
            os.rename(tmp, final)
        except OSError:
            if not final.is_dir():
                raise
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return final


# ---- child processes: time limits, and taken down with opsnn ----

_children: set[subprocess.Popen] = set()
_children_lock = threading.Lock()
_stopping = threading.Event()


class Interrupted(BaseException):
    """opsnn got SIGINT/SIGTERM/SIGHUP: its children are killed; the command ends with 128 + signum."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


@dataclass
class ChildResult:
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool = False


def _kill_group(proc: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


def run_child(argv: list[str], *, capture: bool = False, timeout: float | None = None, cwd: Path | None = None,
              env: dict | None = None) -> ChildResult:
    """Run a program in its own process group; on `timeout` (seconds) the group is killed and
    `timed_out` set. Output is captured (text) or goes to this process's stdout/stderr."""
    if _stopping.is_set():
        raise Interrupted(signal.SIGTERM)
    started = time.perf_counter()
    pipe = subprocess.PIPE if capture else None
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=pipe, stderr=pipe, text=capture,
                            errors="replace" if capture else None, start_new_session=True)
    with _children_lock:
        _children.add(proc)
    timed_out = False
    try:
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            _kill_group(proc)
            out, err = proc.communicate()
    finally:
        with _children_lock:
            _children.discard(proc)
        if proc.poll() is None:
            _kill_group(proc)
            proc.wait()
    # the group may hold what the program started (a data script): it goes with the program
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    return ChildResult(proc.returncode, out or "", err or "", time.perf_counter() - started, timed_out)


def kill_children() -> None:
    _stopping.set()
    with _children_lock:
        for proc in list(_children):
            _kill_group(proc)


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP kill every child (compilers, test programs and what they
    started) and raise Interrupted in the main thread instead of a KeyboardInterrupt traceback."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):
        kill_children()
        raise Interrupted(signum)

    wanted = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    previous = {s: signal.signal(s, handler) for s in wanted}
    _stopping.clear()
    try:
        yield
    finally:
        for s, h in previous.items():
            signal.signal(s, h)


# AscendC surfaces opsnn's headers leave out on purpose: a compile error naming one is explained first.
NOT_MODELLED = (
    (re.compile(r"is not a member of ['\u2018](?:AscendC::)?MicroAPI['\u2019]"
                r"|['\u2018]MicroAPI::\w+['\u2019] has not been declared"),  # g++ quotes ' or \u2018 \u2019
     "not modelled: this AscendC::MicroAPI call -- opsnn's CPU-debug runtime has MicroAPI's registers, masks, "
     "DataCopy, Cast and elementwise arithmetic (docs/cpp-kernels.md, 'MicroAPI'), not every MicroAPI function"),
)


_MIRRORED = re.compile(r"/[^\s:'\"]*/gen/[0-9a-f]{24}/[^\s:'\"]+")


def compiler_excerpt(stderr: str, limit: int = 40) -> str:
    # a file of the build tree's mirror is shown by its own path
    stderr = _MIRRORED.sub(lambda m: str(Path(m.group(0)).resolve()), stderr)
    lines = [ln for ln in stderr.splitlines() if "error" in ln or "note: " not in ln]
    errors = [ln for ln in lines if "error" in ln or "undefined reference" in ln or "multiple definition" in ln]
    # a static_assert in opsnn's headers says what; the kernel's line that instantiated it says where
    here = [ln for ln in stderr.splitlines() if "required from here" in ln and "/opsnn_kt/" not in ln]
    if here and any("static assertion failed" in ln for ln in errors):
        errors.insert(next(i for i, ln in enumerate(errors) if "static assertion failed" in ln) + 1, here[0])
    shown = (errors or lines)[:limit]
    more = len(errors or lines) - len(shown)
    reasons = [why for pattern, why in NOT_MODELLED if any(pattern.search(ln) for ln in errors)]
    return "\n".join([*reasons, *shown]) + (f"\n... {more} more line(s)" if more > 0 else "")
