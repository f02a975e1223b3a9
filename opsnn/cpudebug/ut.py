"""`opsnn ut TEST.cpp`: build an op_kernel unit test written for CANN's CPU-debug library and run it
on opsnn's emulator and sanitizer (docs/cpp-kernels.md).

The test compiles unchanged: opsnn's headers come first on the include path, `__CCE_KT_TEST__` is
defined, gtest (gtest_main) supplies main, and the kernel it #includes by relative path resolves as
upstream's layout has it. Where the test's folder has upstream's CMakeLists.txt, its
AddOpTestCase(... "SOC;..." "-D...") options apply when the command line gives none. Inside a
checkout of upstream's tree, the shared UT helpers its tests include (kernel_ut_data_helper.h,
kernel_ut_data_executor.h) are found by walking up from the test, and compiled with it.

The exit status is the test's; a launch the sanitizer finds errors in fails the test too (its gtest
case fails, and the program's status says so)."""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import build as kt_build
from .socs import platform_for
from .tpl_entry import tiling_key_entry

_HELPERS = ("kernel_ut_data_helper", "kernel_ut_data_executor")  # upstream's shared UT sources


class UtError(Exception):
    """A problem with the command or the test that is not the test's result (exit status 2)."""


@dataclass
class TestCase:
    """What AddOpTestCase says of a test: its SoCs and compile options."""
    name: str
    socs: list[str]
    options: list[str]


@dataclass
class Plan:
    test: Path
    socs: list[str]
    defines: list[str]
    extra_sources: list[Path] = field(default_factory=list)
    include_dirs: list[Path] = field(default_factory=list)
    origin: str = "command line"
    repo_root: Path | None = None  # the upstream checkout holding the test (its helpers' OPS_NN_ROOT)
    kernel_source: Path | None = None  # the kernel .cpp compiled beside the test (not #included by it)
    run_files: list[Path] = field(default_factory=list)  # what the CMakeLists copies where the test runs
    c_declarations: list[str] = field(default_factory=list)  # the test's extern "C" kernel declarations


def parse_cmake_cases(text: str) -> list[TestCase]:
    """The AddOpTestCase(...) calls of a CMakeLists.txt (comments dropped; arguments quoted or not)."""
    text = "\n".join(line.split("#", 1)[0] for line in text.splitlines())
    out = []
    for m in re.finditer(r"AddOpTestCase\s*\((.*?)\)", text, re.S):
        tokens = re.findall(r'"([^"]*)"|(\S+)', m.group(1))
        args = [q if q or not u else u for q, u in tokens]
        if not args:
            continue
        socs = [s for s in (args[1].split(";") if len(args) > 1 else []) if s.strip()]
        options = shlex.split(args[2]) if len(args) > 2 and args[2].strip().startswith("-") else []
        out.append(TestCase(args[0], socs, options))
    return out


def _upstream_helper_dir(test: Path) -> Path | None:
    """tests/ut/op_kernel of an upstream checkout that holds the test, walking up from it."""
    for d in test.resolve().parents:
        cand = d / "tests" / "ut" / "op_kernel"
        if (cand / f"{_HELPERS[0]}.h").is_file():
            return cand
    return None


def copied_to_binary_dir(cmake_text: str, source_dir: Path) -> list[Path]:
    """The files a test folder's CMakeLists copies next to the built tests
    (`${CMAKE_COMMAND} -E copy <files> ${CMAKE_BINARY_DIR}/tests/ut/op_kernel`: a test's data
    scripts, run from there); `opsnn ut` puts them in the folder the test runs in."""
    text = "\n".join(line.split("#", 1)[0] for line in cmake_text.splitlines())
    out = []
    for m in re.finditer(r"-E\s+copy\s+(.*?)\$\{CMAKE_BINARY_DIR\}/tests/ut/op_kernel\b", text, re.S):
        for token in m.group(1).split():
            path = Path(token.replace("${CMAKE_CURRENT_SOURCE_DIR}", str(source_dir)))
            if path.is_file() and path not in out:
                out.append(path)
    return out


def make_plan(test: Path, socs: list[str], defines: list[str]) -> Plan:
    if not test.is_file():
        raise UtError(f"no such test file: {test}")
    plan = Plan(test.resolve(), list(socs), list(defines))
    cmake = test.parent / "CMakeLists.txt"
    cmake_text = cmake.read_text(errors="replace") if cmake.is_file() else ""
    cases = parse_cmake_cases(cmake_text)
    case_name = cases[0].name if cases and not cases[0].name.lower().startswith("ascend") else None
    if cases and (not socs or not defines):
        case = cases[0]
        if not socs:
            plan.socs = case.socs
        if not defines:
            plan.defines = case.options
        plan.origin = f"{cmake} (AddOpTestCase {case.name})"
    if not plan.socs:
        plan.socs = [""]  # the default SoC
    for soc in plan.socs:
        try:
            platform_for(soc)
        except ValueError as e:
            raise UtError(str(e)) from None
    plan.run_files = copied_to_binary_dir(cmake_text, plan.test.parent)
    source = plan.test.read_text(errors="replace")
    _add_op_sources(plan, source, case_name)
    helper_dir = _upstream_helper_dir(plan.test)
    if helper_dir is not None:
        plan.include_dirs.append(helper_dir)
        plan.repo_root = helper_dir.parents[2]
        for name in _HELPERS:
            if f"{name}.h" in source and (helper_dir / f"{name}.cpp").is_file():
                plan.extra_sources.append(helper_dir / f"{name}.cpp")
    return plan


def _op_dir(test: Path) -> Path | None:
    """<op> of <op>/tests/ut/op_kernel/test_*.cpp (upstream's layout), else None."""
    d = test.parent
    if d.name == "op_kernel" and d.parent.name == "ut" and d.parent.parent.name == "tests":
        return d.parent.parent.parent
    return None


def _add_op_sources(plan: Plan, source: str, case_name: str | None) -> None:
    """What upstream's AddOpTestCase adds to a kernel UT's build, where the test's folder has it:
    `-include <op>_tiling_def.h` from the test's folder, the op's op_kernel folder on the include
    path, and the kernel source (op_kernel/<name>.cpp for test_<name>*.cpp) compiled beside a test
    that declares the kernel rather than #including its .cpp."""
    op_dir = _op_dir(plan.test)
    if op_dir is None:
        return
    op_name = case_name or op_dir.name
    tiling_def = plan.test.parent / f"{op_name}_tiling_def.h"
    if tiling_def.is_file():
        plan.defines = ["-include", str(tiling_def), *plan.defines]
    kernel_dir = op_dir / "op_kernel"
    if kernel_dir.is_dir():
        plan.include_dirs.append(kernel_dir)
        if not re.search(r'#\s*include\s*"[^"]*op_kernel/[^"]*\.cpp"', source):
            stem = plan.test.stem[len("test_"):] if plan.test.stem.startswith("test_") else plan.test.stem
            for name in (stem, op_name):
                if (kernel_dir / f"{name}.cpp").is_file():
                    plan.kernel_source = kernel_dir / f"{name}.cpp"
                    plan.c_declarations = re.findall(r'extern\s+"C"\s[^;{}]*;', source)
                    break


def _build_commands(plan: Plan, work: Path) -> tuple[list[tuple[list[str], Path]], list[str]]:
    """([(compile command, its depfile)], link command): one object per source, so each source's
    dependency file lists its own headers (one -MF for several sources keeps only the last's)."""
    cxx = kt_build.compiler()
    includes = [f"-I{d}" for d in plan.include_dirs]
    compiles, objects = [], []
    sources = [plan.test, *plan.extra_sources]
    if plan.kernel_source is not None:
        sources.append(_kernel_shim(plan, work))
    for k, source in enumerate(sources):
        obj, dep = work / f"src{k}.o", work / f"src{k}.d"
        # ASCENDC_CPU_DEBUG: what CANN's CPU-debug build defines, and UT headers test for
        compiles.append(([*cxx, *kt_build.kernel_cflags(), "-DASCENDC_CPU_DEBUG", *includes, "-O0", "-g", "-w",
                          "-MD", "-MF", str(dep),
                          *plan.defines, "-c", str(source), "-o", str(obj)], dep))
        objects.append(str(obj))
    link = [*cxx, *objects, "-o", str(work / "test"), "-lgtest", "-lgtest_main", *kt_build.kernel_libs()]
    return compiles, link


def _kernel_shim(plan: Plan, work: Path) -> Path:
    """The translation unit of a kernel compiled beside its test: the test's extern "C"
    declarations of the kernel come first, so the definition gets the C linkage the test links
    against (upstream's build compiles kernels through a generated wrapper that does this)."""
    shim = work / "kernel_shim.cpp"
    kernel = plan.kernel_source.read_text(errors="replace")
    entries = [e for e in map(lambda d: tiling_key_entry(d, kernel, plan.kernel_source.parent),
                              plan.c_declarations) if e]
    if entries:  # a kernel template: the C entry chooses the instantiation by the tiling key
        lines = ['#include "kernel_operator.h"', '#include "ascendc/host_api/tiling/template_argument.h"',
                 f'#include "{plan.kernel_source}"', *entries]
    else:
        lines = ['#include "kernel_operator.h"', *plan.c_declarations, f'#include "{plan.kernel_source}"']
    text = "\n".join([*lines, ""])
    if not shim.is_file() or shim.read_text() != text:
        shim.write_text(text)
    return shim


def _dependencies(depfile: Path) -> list[str]:
    text = depfile.read_text().replace("\\\n", " ")
    _, _, deps = text.partition(":")
    return deps.split()


def _cache_key(commands: list[list[str]], deps: list[str] | None) -> str:
    h = hashlib.sha256("\n".join(" ".join(c) for c in commands).encode())
    for path in deps or ():
        try:
            h.update(Path(path).read_bytes())
        except OSError:
            h.update(b"missing:" + path.encode())
    return h.hexdigest()


def build_test(plan: Plan, cache_dir: Path, verbose: bool = False) -> tuple[Path, float, bool]:
    """(binary, seconds spent compiling, reused?) -- an unchanged test and includes reuse the last build."""
    kt_build.build()
    tag = hashlib.sha256(f"{plan.test}|{' '.join(plan.defines)}".encode()).hexdigest()[:16]
    work = cache_dir / tag
    work.mkdir(parents=True, exist_ok=True)
    binary, stamp = work / "test", work / "stamp"
    compiles, link = _build_commands(plan, work)
    commands = [c for c, _ in compiles] + [link]

    def key() -> str | None:
        if not all(dep.is_file() for _, dep in compiles):
            return None
        return _cache_key(commands, [d for _, dep in compiles for d in _dependencies(dep)])

    if binary.is_file() and stamp.is_file() and stamp.read_text() == key():
        return binary, 0.0, True
    started = time.perf_counter()
    for command in commands:
        if verbose:
            print(" ".join(shlex.quote(c) for c in command), file=sys.stderr)
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise UtError(f"compiling {plan.test.name} failed ({' '.join(plan.defines) or 'no options'}):\n"
                          + _compiler_excerpt(done.stderr))
    seconds = time.perf_counter() - started
    stamp.write_text(key() or "")
    return binary, seconds, False


# AscendC surfaces opsnn's headers leave out on purpose: a compile error naming one is explained first.
NOT_MODELLED = (
    (re.compile(r"is not a member of ['\u2018](?:AscendC::)?MicroAPI['\u2019]"
                r"|['\u2018]MicroAPI::\w+['\u2019] has not been declared"),  # g++ quotes ' or \u2018 \u2019
     "not modelled: this AscendC::MicroAPI call -- opsnn's CPU-debug runtime has MicroAPI's registers, masks, "
     "DataCopy, Cast and elementwise arithmetic (docs/cpp-kernels.md, 'MicroAPI'), not every MicroAPI function"),
)


def _compiler_excerpt(stderr: str, limit: int = 40) -> str:
    lines = [ln for ln in stderr.splitlines() if "error" in ln or "note: " not in ln]
    errors = [ln for ln in lines if "error" in ln or "undefined reference" in ln or "multiple definition" in ln]
    shown = (errors or lines)[:limit]
    more = len(errors or lines) - len(shown)
    reasons = [why for pattern, why in NOT_MODELLED if any(pattern.search(ln) for ln in errors)]
    return "\n".join([*reasons, *shown]) + (f"\n... {more} more line(s)" if more > 0 else "")


def run_test(binary: Path, soc: str, sanitize: bool, workdir: Path, gtest_args: list[str],
             repo_root: Path | None = None) -> tuple[int, dict]:
    """Run the built test once on one SoC: (exit status, the runtime's record).

    Upstream's data helpers find their test data under OPS_NN_ROOT (set to `repo_root`) and run
    the data folder's gen_data.py / compare_data.py with `python3`: this interpreter's folder comes
    first on PATH, so they get its numpy (and whatever else it has)."""
    record_path = workdir / f"opsnn-ut-{os.getpid()}-{abs(hash(soc))}.json"
    env = dict(os.environ, OPSNN_KT_PYTHON=sys.executable, OPSNN_UT_SOC=soc,
               OPSNN_UT_SANITIZE="on" if sanitize else "off", OPSNN_UT_JSON=str(record_path))
    env["PATH"] = os.pathsep.join(p for p in (str(Path(sys.executable).parent), env.get("PATH", "")) if p)
    if repo_root is not None:
        env["OPS_NN_ROOT"] = str(repo_root)
    env.setdefault("PYTHONPATH", "")
    package_root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env["PYTHONPATH"]) if p)
    sys.stdout.flush()
    done = subprocess.run([str(binary), *gtest_args], cwd=workdir, env=env)
    record = {}
    if record_path.is_file():
        record = json.loads(record_path.read_text())
        record_path.unlink()
    return done.returncode, record


def _default_workdir(tmp: Path, plan: Plan) -> Path:
    """Where the test runs. Inside an upstream checkout: build/tests/ut/op_kernel of a folder whose
    other entries link to the checkout's, as upstream's build runs its kernel UTs -- their
    "../../../../<category>/<op>/tests/ut/op_kernel/<op>_data" paths reach the data folders
    (the checkout itself is never written to)."""
    if plan.repo_root is None:
        return tmp
    root = tmp / "root"
    root.mkdir()
    for entry in plan.repo_root.iterdir():
        if entry.name != "build":
            (root / entry.name).symlink_to(entry)
    return root / "build" / "tests" / "ut" / "op_kernel"


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(
        prog="opsnn ut", description="Build an op_kernel unit test written for CANN's CPU-debug library "
        "(tikicpulib.h, ICPU_RUN_KF, gtest) and run it on opsnn's emulator and sanitizer.")
    p.add_argument("test", help="the test source, e.g. <op>/tests/ut/op_kernel/test_<op>.cpp")
    p.add_argument("--soc", action="append", default=[],
                   help="SoC as upstream writes it (ascend910B1, ascend950pr_9599, ...; case-insensitive); "
                        "repeatable; default: the test folder's AddOpTestCase SoCs, else Ascend910B2")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME=VALUE",
                   help="a define for the build, e.g. -DDTYPE_X=half (default: AddOpTestCase's options)")
    p.add_argument("--sanitize", choices=("on", "off"), default="on",
                   help="on: findings are recorded and an error fails the launch; off: misuse raises at once")
    p.add_argument("--json", metavar="FILE", help="the runs, their launches and findings as JSON")
    p.add_argument("--workdir", metavar="DIR", help="where the test runs (default: a temporary folder)")
    p.add_argument("--verbose", "-v", action="store_true", help="show the compile command")
    p.epilog = "Arguments after -- go to the test program (e.g. -- --gtest_filter='*case*')."
    gtest_args = []
    if "--" in argv:
        cut = argv.index("--")
        argv, gtest_args = argv[:cut], argv[cut + 1:]
    args = p.parse_args(argv)
    args.gtest_args = gtest_args
    defines = [f"-D{d}" for d in args.defines]
    try:
        plan = make_plan(Path(args.test), args.soc, defines)
        cache = kt_build.lib_dir().parent / "ut-cache"
        binary, seconds, reused = build_test(plan, cache, args.verbose)
    except UtError as e:
        print(f"opsnn ut: error: {e}", file=sys.stderr)
        return 2
    except (kt_build.BuildUnavailable, RuntimeError, OSError) as e:
        print(f"opsnn ut: error: the CPU-debug runtime cannot be built here: {e}", file=sys.stderr)
        return 2
    print(f"opsnn ut: {plan.test.name}: {'reused the last build' if reused else f'built in {seconds:.1f} s'} "
          f"({' '.join(plan.defines) or 'no options'}; from {plan.origin})", file=sys.stderr, flush=True)
    runs, status = [], 0
    with tempfile.TemporaryDirectory(prefix="opsnn-ut-") as tmp:
        workdir = Path(args.workdir).resolve() if args.workdir else _default_workdir(Path(tmp), plan)
        workdir.mkdir(parents=True, exist_ok=True)
        for f in plan.run_files:
            shutil.copyfile(f, workdir / f.name)
        for soc in plan.socs:
            name = platform_for(soc).name
            print(f"opsnn ut: running on {name} (sanitizer {args.sanitize})", file=sys.stderr, flush=True)
            started = time.perf_counter()
            rc, record = run_test(binary, soc, args.sanitize == "on", workdir, args.gtest_args,
                                  plan.repo_root)
            if rc == 0 and record.get("failures"):
                rc = 1
            if rc < 0:
                print(f"opsnn ut: the test program died of signal {signal.Signals(-rc).name} on {name}",
                      file=sys.stderr)
                rc = 128 - rc
            runs.append({"soc": name, "exit_status": rc, "seconds": time.perf_counter() - started, **record})
            status = status or rc
    if args.json:
        doc = {"test": str(plan.test), "defines": plan.defines, "options_from": plan.origin,
               "compile_seconds": seconds, "reused_build": reused, "runs": runs, "exit_status": status}
        try:
            Path(args.json).write_text(json.dumps(doc, indent=1, default=str))
        except OSError as e:
            print(f"opsnn ut: error: cannot write {args.json}: {e.strerror or e}", file=sys.stderr)
            return status or 2
    return status
