"""`opsnn ut TEST.cpp | DIR`: build unit tests written for CANN (op_kernel tests for the CPU-debug
library, op_host and op_api tests for the host twin) and run them on opsnn's emulator and sanitizer
(docs/cpp-kernels.md).

A test's layer comes from its folder (tests/ut/op_kernel, op_host or op_api). An op_kernel test is
built as upstream's cmake/ut.cmake builds it (ut_cases.py: the AddOpTestCase calls of its
CMakeLists per SoC, the kernel as its own translation unit with the test's options, the tiling
header, the build tree's include folders); op_host and op_api tests are planned by the host twin
(opsnn.host.ut_layers). Every layer is compiled, linked, cached and run by ut_build.py. Given a
folder, every test below it runs and a table sums them up (ut_survey.py).

The exit status is the test's; a launch the sanitizer finds errors in fails the test too. A problem
with the command or the build is 2; a test program stopped by --timeout 124; opsnn stopped by a
signal 128 + its number."""
from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from . import build as kt_build
from . import ut_build
from .socs import arch_defines, platform_for
from .tiling_header import header_text
from .tpl_entry import tiling_key_entry
from .ut_cases import (
    HELPERS,
    LAYERS,
    NO_TEST,
    CMakeError,
    KernelUtCase,
    UtError,
    compute_unit,
    copied_to_binary_dir,
    layer_of,
    op_dir_of,
    read_cases,
    repo_root_of,
)

DEFAULT_TIMEOUT_S = 3600.0  # upstream's heaviest kernel UT (index_fill: 48 cores, 63 M elements) runs for minutes
SOURCE_SUFFIXES = (".cpp", ".cc", ".cxx", ".c++", ".C")
TIMEOUT_STATUS = 124  # what timeout(1) exits with

__all__ = ["UtError", "copied_to_binary_dir", "kernel_compile_command", "main", "run_one"]


@dataclass
class Options:
    """What the command line says about how to build and run a test."""
    socs: list[str] = field(default_factory=list)
    defines: list[str] = field(default_factory=list)
    include_dirs: list[Path] = field(default_factory=list)
    sanitize: bool = True
    gtest_args: list[str] = field(default_factory=list)
    workdir: Path | None = None
    timeout: float = DEFAULT_TIMEOUT_S
    verbose: bool = False
    capture: bool = False  # keep the programs' output (`opsnn ut DIR`) instead of showing it


@dataclass
class Unit:
    """One program to build and the SoCs it runs on."""
    soc: str  # as the CMakeLists or the command line writes it ("" is the default SoC)
    spec: ut_build.BuildSpec
    options: list[str]  # the UT's own options (reports)
    origin: str
    env: dict = field(default_factory=dict)
    on_link_error: object = None
    run_files: list[Path] = field(default_factory=list)
    repo_root: Path | None = None


@dataclass
class UtPlan:
    test: Path
    layer: str
    units: list[Unit]
    skipped: list[str] = field(default_factory=list)  # SoCs not run, each with why
    notes: list[str] = field(default_factory=list)  # where this build departs from upstream's


def check_source(test: Path) -> str:
    """The test's text; UtError for what cannot be a unit test (a missing, non-C++ or empty file)."""
    if not test.exists():
        raise UtError(f"no such test file: {test}")
    if not test.is_file():
        raise UtError(f"{test} is not a file")
    if test.suffix not in SOURCE_SUFFIXES:
        raise UtError(f"{test} is not a C++ source ({', '.join(SOURCE_SUFFIXES)})")
    try:
        text = test.read_text(errors="replace")
    except OSError as e:
        raise UtError(f"cannot read {test}: {e.strerror or e}") from None
    if not text.strip():
        raise UtError(f"{test} is empty")
    if not re.search(r"\b(TEST|TEST_F|TEST_P|TYPED_TEST)\s*\(|\bmain\s*\(", text):
        raise UtError(f"{test} {NO_TEST}")
    return text


# ---- the kernel compile command (also what the host twin compiles kernels with) ----

def kernel_flags(soc: str, defines: list[str], include_dirs: list[Path]) -> list[str]:
    """The flags a kernel translation unit compiles with, as `opsnn ut` compiles an op_kernel UT's
    kernel: opsnn's headers first, then `include_dirs`, ASCENDC_CPU_DEBUG and __CCE_KT_TEST__, the
    SoC's architecture macros, the UT's `defines`, `-DUT_SOC_VERSION="Ascend..."` for `soc` (as upstream's UT
    build names it)."""
    flags = [*kt_build.kernel_cflags(), "-DASCENDC_CPU_DEBUG", "-O0", "-g", "-w",
             *[f"-I{d}" for d in include_dirs], *arch_defines(soc), *defines]
    if soc:
        flags.append(f'-DUT_SOC_VERSION="{soc.replace("ascend", "Ascend")}"')
    return flags


def kernel_compile_command(source: Path, output: Path, soc: str, defines: list[str],
                           include_dirs: list[Path]) -> list[str]:
    """The command compiling one kernel source to an object (`-c`), as `opsnn ut` compiles it."""
    return [*kt_build.compiler(), *kernel_flags(soc, defines, include_dirs), "-c", str(source), "-o", str(output)]


# ---- op_kernel: upstream's build of a kernel UT ----

def _mirror(case: KernelUtCase, repo: Path | None, cache: Path) -> Path:
    """build/tbe/ascendc as upstream's build makes it (kernel_src_copy and the common copies), as
    per-file links: <op> and each dependency operator's op_kernel, common (matmul's cmct, conv's
    common kernels), inc (common/inc/op_kernel), pool_3d_common, and what the CMakeLists copies.
    Upstream's build folder is the checkout's `build`, so a kernel's include that climbs out of
    the build tree (`../../../../common/inc/op_kernel/macro.h`) lands in the checkout: the tree's
    other top-level entries link to the checkout's."""
    links: dict[str, Path] = {}
    tbe = "build/tbe/ascendc"

    def add(src: Path, dest: str) -> None:
        if not src.is_dir():
            return
        for f in src.rglob("*"):
            if f.is_file():
                links.setdefault(f"{tbe}/{dest}/{f.relative_to(src)}".replace("//", "/"), f.resolve())

    add(case.op_dir / "op_kernel", case.op_name)
    for dep in case.dependency_ops:
        dep_dir = (case.op_dir.parent / dep)
        add(dep_dir / "op_kernel", dep_dir.name)
    if repo is not None:
        add(repo / "matmul" / "common" / "cmct", "common/cmct")
        add(repo / "conv" / "common" / "op_kernel", "common")
        add(repo / "common" / "inc" / "op_kernel", "inc")
        add(repo / "pooling" / "pool_3d_common" / "op_kernel", "pool_3d_common")
        for entry in repo.iterdir():
            if entry.name != "build":
                links[entry.name] = entry.resolve()
    for name, src in case.extra_trees.items():
        add(src, name)
    return ut_build.generated_tree(cache, {}, links) / tbe


def _tiling_include(case: KernelUtCase, repo: Path | None, cache: Path) -> tuple[Path, str]:
    """(header, what it is): the folder's <op>_tiling_def.h, foreach's shared one, or the header
    upstream's build generates from op_host."""
    own = case.ut_src_dir / f"{case.op_name}_tiling_def.h"
    if own.is_file():
        return own, "the UT folder's"
    if repo is not None and case.op_dir.resolve().relative_to(repo).parts[0] == "foreach":
        shared = repo / "foreach" / "foreach_abs" / "tests" / "ut" / "op_kernel" / "foreach_abs_tiling_def.h"
        if shared.is_file():
            return shared, "foreach's shared"
    return (ut_build.generated_file(cache, f"{case.op_name}_tiling_data.h", header_text(case.op_dir, case.op_name)),
            "generated from op_host")


def _helper_sources(test_text: str, repo: Path | None) -> list[Path]:
    """Upstream's shared UT helpers the test uses (compiled with their own options, as upstream's
    build compiles them into a common object)."""
    if repo is None:
        return []
    out = []
    for folder, names in ((repo / "tests" / "ut" / "op_kernel", HELPERS), (repo / "tests" / "ut" / "common",
                                                                          ("test_cube_util",))):
        out += [folder / f"{n}.cpp" for n in names if f"{n}.h" in test_text and (folder / f"{n}.cpp").is_file()]
    return out


def _select_cases(test: Path, found, opts: Options) -> tuple[list[tuple[KernelUtCase | None, str]], list[str]]:
    """[(case, SoC)] to run and notes. The command line's --soc picks SoCs (each with the case of
    its compute unit, or family, where the CMakeLists has one); without it, the cases whose glob
    takes this test, as upstream's build compiles it."""
    cases = found.cases if found is not None else []
    notes = list(found.misread) if found is not None else []
    if opts.socs:
        out = []
        for soc in opts.socs:
            unit = compute_unit(soc)
            match = [c for c in cases if compute_unit(c.soc) == unit and unit is not None]
            if not match:
                family = _family(soc)
                match = [c for c in cases if family is not None and _family(c.soc) == family]
            out.append((match[0] if match else (cases[0] if cases else None), soc))
        return out, notes
    mine = [c for c in cases if test.resolve() in (p.resolve() for p in c.test_sources())]
    if mine:
        return [(c, c.soc) for c in mine], notes
    if cases:
        globs = sorted({f"test_{c.kernel_name}*.cpp" for c in cases})
        notes.append(f"no AddOpTestCase compiles {test.name} (upstream's build takes {', '.join(globs)} "
                     f"of {cases[0].ut_src_dir}); run with the folder's cases' options")
        seen, out = set(), []
        for c in cases:
            if c.soc not in seen:
                seen.add(c.soc)
                out.append((c, c.soc))
        return out, notes
    if found is not None and found.cmake_files and not found.misread:
        notes.append(f"no AddOpTestCase in {', '.join(str(c) for c in found.cmake_files)}: upstream's build "
                     "never compiles this test; run as the command line says")
    return [(None, "")], notes


def _family(soc: str) -> str | None:
    try:
        return platform_for(soc).name.rstrip("0123456789").rstrip("B")
    except ValueError:
        return None


def _synthetic_case(test: Path, op_dir: Path) -> KernelUtCase:
    """An op in upstream's layout without CMakeLists: the op named by its folder, its kernel the
    op_kernel/<name>.cpp the test's name names."""
    stem = test.stem[len("test_"):] if test.stem.startswith("test_") else test.stem
    name = next((n for n in (stem, op_dir.name) if (op_dir / "op_kernel" / f"{n}.cpp").is_file()), op_dir.name)
    return KernelUtCase(op_dir.name, "", [], op_dir, op_dir / "tests" / "ut" / "op_kernel", kernel_name=name,
                        origin="the command line")


def plan_kernel_ut(test: Path, text: str, opts: Options, cache: Path) -> UtPlan:
    op_dir = op_dir_of(test)
    try:
        found = read_cases(test) if op_dir is not None else None
    except (CMakeError, RecursionError) as e:
        raise UtError(f"cannot read the CMakeLists beside {test.name}: {e}") from None
    repo = repo_root_of(test)
    selected, notes = _select_cases(test, found, opts)
    plan = UtPlan(test, "op_kernel", [], notes=notes)
    for case, soc in selected:
        try:
            platform_for(soc)
        except ValueError as e:
            if opts.socs:
                raise UtError(str(e)) from None
            plan.skipped.append(f"{soc}: skipped, opsnn does not model this SoC ({e})")
            continue
        if case is None and op_dir is not None:
            case = _synthetic_case(test, op_dir)
        plan.units.append(_kernel_unit(test, text, case, soc, opts, repo, cache, found))
    if not plan.units and not plan.skipped:
        raise UtError(f"nothing to run for {test}")
    return plan


def _kernel_unit(test: Path, text: str, case: KernelUtCase | None, soc: str, opts: Options, repo: Path | None,
                 cache: Path, found) -> Unit:
    options = list(opts.defines) if opts.defines or case is None else list(case.options)
    includes = [*opts.include_dirs]
    ut_flags: list[str] = []
    origin = "the command line" if opts.defines or case is None else case.origin
    kernel: Path | None = None
    if case is not None:
        header, what = _tiling_include(case, repo, cache)
        ut_flags += ["-include", str(header)]
        tree = _mirror(case, repo, cache)
        if repo is not None:
            includes += [repo / "tests" / "ut" / "op_kernel", repo / "tests" / "ut" / "common",
                         repo / "conv" / "conv3d_backprop_input_v2" / "op_kernel"]
        includes += [tree / case.op_name, tree, tree / "common"]
        if case.kernel_source() is not None:
            kernel = tree / case.op_name / f"{case.kernel_name}.cpp"
        origin += f"; tiling header: {what}"
    ut_flags += [*arch_defines(soc), *options]
    if soc:
        ut_flags.append(f'-DUT_SOC_VERSION="{soc.replace("ascend", "Ascend")}"')
    if case is not None and not case.multi_kernel_target:
        ut_flags.append("-DKERNELUT=1")
    common = [*kt_build.kernel_cflags(), "-DASCENDC_CPU_DEBUG", "-O0", "-g", "-w", *[f"-I{d}" for d in includes]]
    sources = [ut_build.Source(test, tuple(ut_flags))]
    sources += [ut_build.Source(h) for h in _helper_sources(text, repo)]
    if kernel is not None:
        sources.append(ut_build.Source(kernel, tuple(ut_flags)))
    tag = hashlib.sha256("\0".join(["op_kernel", str(test), soc, *ut_flags, *map(str, includes)]).encode()).hexdigest()
    spec = ut_build.BuildSpec(sources, common, ["-lgtest_main", "-lgtest", *kt_build.kernel_libs()], tag[:20])
    unit = Unit(soc, spec, options, origin, run_files=list(found.run_files) if found else [], repo_root=repo)
    declarations = re.findall(r'extern\s+"C"\s[^;{}]*;', re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S))
    if kernel is not None and declarations:
        unit.on_link_error = _entry_fallback(spec, kernel, declarations, cache)
    return unit


def _entry_fallback(spec: ut_build.BuildSpec, kernel: Path, declarations: list[str], cache: Path):
    """When the link misses a kernel entry the test declares extern "C": the kernel compiled with
    an entry opsnn generates (a template's instantiation chosen by the tiling key, or the test's
    declaration giving a C++ entry C linkage), reported as the only reason the test links."""
    names = {m.group(1): d for d in declarations if (m := re.search(r"void\s+(\w+)\s*\(", d))}

    def fallback(stderr: str):
        missing = sorted(n for n in names if re.search(rf"undefined reference to [`'\u2018]{n}['\u2019]", stderr))
        if not missing:
            return None
        source = kernel.read_text(errors="replace")
        entries = [e for e in (tiling_key_entry(names[n], source, kernel.parent) for n in missing) if e]
        if entries:
            lines = ['#include "kernel_operator.h"', '#include "ascendc/host_api/tiling/template_argument.h"',
                     f'#include "{kernel}"', *entries]
            how = "a kernel template's entry choosing the instantiation by the tiling key"
        else:
            lines = ['#include "kernel_operator.h"', *(names[n] for n in missing), f'#include "{kernel}"']
            how = "the test's extern \"C\" declaration put before the kernel's C++ definition"
        shim = ut_build.generated_file(cache, "kernel_entry.cpp", "\n".join([*lines, ""]))
        flags = next(s.flags for s in spec.sources if s.path == kernel)
        sources = [ut_build.Source(shim, flags) if s.path == kernel else s for s in spec.sources]
        note = (f"links only through opsnn's generated kernel entry, {how}: upstream's build compiles the kernel "
                "as its own translation unit, where nothing defines the extern \"C\" entry the test declares "
                f"({', '.join(missing)}), so its link fails there (a templated kernel must be #included by its "
                "test to be instantiated)")
        return ut_build.BuildSpec(sources, spec.common_flags, spec.link_flags, spec.tag,
                                  {**spec.meta, "notes": [*spec.meta.get("notes", []), note]})
    return fallback


# ---- op_host / op_api: the host twin plans them ----

def plan_host_ut(test: Path, layer: str, opts: Options) -> UtPlan:
    try:
        from opsnn.host import ut_layers
    except ImportError:
        raise UtError(f"{layer} tests need opsnn's host twin (opsnn.host.ut_layers), which this opsnn lacks") from None
    try:
        socs = [platform_for(s).name for s in opts.socs]  # opsnn's names, as the host twin takes them
        hp = ut_layers.plan(layer, test, socs, list(opts.defines))
    except (ValueError, OSError) as e:
        raise UtError(str(e)) from None
    includes = [*opts.include_dirs, *hp.include_dirs]
    common = [*hp.cflags, *[f"-I{d}" for d in includes], *opts.defines]
    tag = hashlib.sha256("\0".join([layer, str(test), *common, *map(str, hp.sources)]).encode()).hexdigest()[:20]
    spec = ut_build.BuildSpec([ut_build.Source(Path(s)) for s in hp.sources], common, list(hp.libs), tag)
    socs = list(hp.socs) or [""]
    units = [Unit(soc, spec, list(opts.defines), f"opsnn.host.ut_layers ({layer})", env=dict(hp.env)) for soc in socs]
    return UtPlan(test, layer, units)


def make_plan(test: Path, opts: Options, cache: Path) -> UtPlan:
    text = check_source(test)
    layer = layer_of(test)
    if layer == "op_kernel":
        return plan_kernel_ut(test.resolve(), text, opts, cache)
    return plan_host_ut(test.resolve(), layer, opts)


# ---- running ----

def _default_workdir(tmp: Path, repo: Path | None) -> Path:
    """Where the test runs. Inside an upstream checkout: build/tests/ut/op_kernel of a folder whose
    other entries link to the checkout's, as upstream's build runs its kernel UTs -- their
    "../../../../<category>/<op>/tests/ut/op_kernel/<op>_data" paths reach the data folders
    (the checkout itself is never written to)."""
    if repo is None:
        return tmp
    root = tmp / "root"
    root.mkdir()
    for entry in repo.iterdir():
        if entry.name != "build":
            (root / entry.name).symlink_to(entry)
    return root / "build" / "tests" / "ut" / "op_kernel"


def _run_env(unit: Unit, soc: str, opts: Options, record: Path) -> dict:
    """The test program's environment. Upstream's data helpers find their test data under
    OPS_NN_ROOT and run a data folder's gen_data.py / compare_data.py with `python3`: this
    interpreter's folder comes first on PATH, so they get its numpy (and whatever else it has)."""
    env = dict(os.environ, OPSNN_KT_PYTHON=sys.executable, OPSNN_UT_SOC=soc,
               OPSNN_UT_SANITIZE="on" if opts.sanitize else "off", OPSNN_UT_JSON=str(record))
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")  # data steps importing tensorflow: its notices, not the test's
    if opts.verbose:
        env["OPSNN_UT_VERBOSE"] = "1"
    env["PATH"] = os.pathsep.join(p for p in (str(Path(sys.executable).parent), env.get("PATH", "")) if p)
    if unit.repo_root is not None:
        env["OPS_NN_ROOT"] = str(unit.repo_root)
    package_root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH", "")) if p)
    env.update(unit.env)
    return env


def _say(opts: Options, log: list[str], text: str) -> None:
    log.append(text)
    if not opts.capture:
        print(f"opsnn ut: {text}", file=sys.stderr, flush=True)


def run_one(test: Path, opts: Options, cache: Path) -> dict:
    """Build and run one test on each of its SoCs: its record (JSON-ready). Raises UtError for a
    problem with the command or the test itself (not a build failure: that is in the record)."""
    plan = make_plan(test, opts, cache)
    doc = {"test": str(plan.test), "layer": plan.layer, "skipped": plan.skipped, "notes": list(plan.notes),
           "runs": [], "log": [], "exit_status": 0}
    for text in plan.skipped + plan.notes:
        _say(opts, doc["log"], text)
    for unit in plan.units:
        run = {"soc": platform_for(unit.soc).name, "soc_as_written": unit.soc, "defines": unit.options,
               "options_from": unit.origin}
        doc["runs"].append(run)
        try:
            built = ut_build.build(unit.spec, cache, opts.verbose, unit.on_link_error)
        except ut_build.BuildFailed as e:
            run.update(exit_status=2, build_failed=e.step, compiler=compiler_excerpt(e.stderr))
            what = e.step if plan.test.name in e.step else f"{e.step} (building {plan.test.name})"
            _say(opts, doc["log"], f"{what} failed ({' '.join(unit.options) or 'no options'}; "
                 f"{unit.origin}):\n{run['compiler']}")
            doc["exit_status"] = doc["exit_status"] or 2
            continue
        for note in built.meta.get("notes", []):
            if note not in doc["notes"]:
                doc["notes"].append(note)
                _say(opts, doc["log"], f"note: {note}")
        run.update(compile_seconds=built.seconds, reused_build=built.reused)
        how = "reused the last build" if built.reused else f"built in {built.seconds:.1f} s"
        _say(opts, doc["log"], f"{plan.test.name}: {how} ({' '.join(unit.options) or 'no options'}; "
             f"from {unit.origin})")
        run.update(_run_unit(built.binary, unit, opts, doc["log"]))
        doc["exit_status"] = doc["exit_status"] or run["exit_status"]
    if not plan.units:
        doc["exit_status"] = 2
    return doc


def _run_unit(binary: Path, unit: Unit, opts: Options, log: list[str]) -> dict:
    name = platform_for(unit.soc).name
    with tempfile.TemporaryDirectory(prefix="opsnn-ut-") as tmp:
        tmp = Path(tmp)
        workdir = opts.workdir or _default_workdir(tmp, unit.repo_root)
        workdir.mkdir(parents=True, exist_ok=True)
        for f in unit.run_files:
            shutil.copyfile(f, workdir / f.name)
        record_path = tmp / "record.json"  # never in the workdir: that may be read-only
        _say(opts, log, f"running on {name} (sanitizer {'on' if opts.sanitize else 'off'})")
        if not opts.capture:
            sys.stdout.flush()
        done = ut_build.run_child([str(binary), *opts.gtest_args], capture=opts.capture, timeout=opts.timeout,
                                  cwd=workdir, env=_run_env(unit, unit.soc, opts, record_path))
        record = {}
        with contextlib.suppress(OSError, ValueError):
            record = json.loads(record_path.read_text())
    rc = done.returncode
    out = {"seconds": done.seconds, **record}
    if done.timed_out:
        _say(opts, log, f"the test program ran past --timeout {opts.timeout:g} s on {name} and was stopped")
        rc = TIMEOUT_STATUS
        out["timed_out"] = True
    elif rc < 0:
        _say(opts, log, f"the test program died of signal {signal.Signals(-rc).name} on {name}")
        out["signal"] = signal.Signals(-rc).name
        rc = 128 - rc
    elif rc == 0 and record.get("failures"):
        rc = 1
    out["exit_status"] = rc
    if opts.capture:
        if out.get("signal") == "SIGFPE" and (fault := _fault_line(done.stderr)):
            out["fault"] = fault
        full = done.stdout + "\n" + done.stderr
        failure = re.search(r"^.*(?:Failure|\berror\b|Error:).*$", full, re.M)
        out["first_failure"] = failure.group(0).strip()[:300] if failure else None
        out["stdout"], out["stderr"] = done.stdout[-4000:], done.stderr[-4000:]  # the end says why
    return out


_FAULT = re.compile(r"^opsnn ut: SIGFPE at (.+)\+(0x[0-9a-f]+)$", re.M)


def _fault_line(stderr: str) -> str | None:
    """'file:line' of the instruction a SIGFPE stopped (the runtime's line, through addr2line over
    the program's debug information); None where it cannot be said."""
    m = _FAULT.search(stderr)
    if m is None or shutil.which("addr2line") is None:
        return None
    try:
        done = subprocess.run(["addr2line", "-e", m.group(1), m.group(2)], capture_output=True, text=True,
                              timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    where = done.stdout.strip().splitlines()[0] if done.stdout.strip() else ""
    where = where.split(" (discriminator")[0]
    return where if where and not where.startswith("??") else None


def build_binary(test: Path, socs: list[str], defines: list[str], cache: Path) -> tuple[Path, float, bool]:
    """(program, seconds compiling, reused?) of a test's first build (benchmarks/bench_cpp_kernel.py)."""
    plan = make_plan(test, Options(socs=list(socs), defines=list(defines)), cache)
    built = ut_build.build(plan.units[0].spec, cache, on_link_error=plan.units[0].on_link_error)
    return built.binary, built.seconds, built.reused


def run_program(binary: Path, soc: str, sanitize: bool, workdir: Path, gtest_args: list[str]) -> tuple[int, dict]:
    """(exit status, the runtime's record) of one run of a built test (benchmarks/bench_cpp_kernel.py)."""
    unit = Unit(soc, ut_build.BuildSpec([], [], [], ""), [], "")
    out = _run_unit(binary, unit, Options(sanitize=sanitize, gtest_args=list(gtest_args), workdir=workdir), [])
    return out["exit_status"], out


compiler_excerpt = ut_build.compiler_excerpt
_compiler_excerpt = compiler_excerpt  # the name tests/cpudebug/test_not_modelled.py knows


# ---- the command ----

def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="opsnn ut", description="Build unit tests written for CANN (op_kernel tests for the CPU-debug "
        "library: tikicpulib.h, ICPU_RUN_KF, gtest; op_host and op_api tests for the host twin) and run them on "
        "opsnn's emulator and sanitizer. Given a folder, every test below it, and a table.")
    p.add_argument("test", help="a test source (e.g. <op>/tests/ut/op_kernel/test_<op>.cpp) or a folder")
    p.add_argument("--soc", action="append", default=[],
                   help="SoC as upstream writes it (ascend910B1, ascend950pr_9599, ...; case-insensitive); "
                        "repeatable; default: the SoCs of the AddOpTestCase calls that build the test")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME=VALUE",
                   help="a define for the build, e.g. -DDTYPE_X=half (default: AddOpTestCase's options)")
    p.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                   help="a folder to add to the include path (after opsnn's headers); repeatable")
    p.add_argument("--sanitize", choices=("on", "off"), default="on",
                   help="on: findings are recorded and an error fails the launch; off: misuse raises at once")
    p.add_argument("--json", metavar="FILE", help="every run, launch and finding as JSON")
    p.add_argument("--workdir", metavar="DIR", help="where the test runs (default: a temporary folder)")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, metavar="SECONDS",
                   help=f"stop a test program running longer (default {DEFAULT_TIMEOUT_S:g}; exit status 124)")
    p.add_argument("--jobs", "-j", type=int, default=1, metavar="N", help="with a folder: tests built and run at once")
    p.add_argument("--layer", action="append", choices=LAYERS, default=[],
                   help="with a folder: only tests of this layer (repeatable; default every layer)")
    p.add_argument("--verbose", "-v", action="store_true",
                   help="show the compile commands and one line per sanitizer finding")
    p.epilog = "Arguments after -- go to the test program (e.g. -- --gtest_filter='*case*')."
    return p


def _writable_report(path: str) -> None:
    """Checked before anything runs (a report that cannot be written after the run is the run
    lost): opened for appending, which changes no existing file, removed again where it was new."""
    existed = os.path.lexists(path)
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as e:
        raise UtError(f"cannot write the --json report {path}: {e.strerror or e}") from None
    if not existed:
        os.unlink(path)


def _usable_workdir(path: str) -> Path:
    d = Path(path).resolve()
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UtError(f"cannot create --workdir {path}: {e.strerror or e}") from None
    if not d.is_dir():
        raise UtError(f"--workdir {path} is not a folder")
    try:
        with tempfile.TemporaryFile(dir=d):
            pass
    except OSError as e:
        raise UtError(f"cannot write in --workdir {path}: {e.strerror or e}") from None
    return d


def cache_dir() -> Path:
    return kt_build.lib_dir().parent / "ut-cache"


def main(argv: list[str]) -> int:
    gtest_args: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, gtest_args = argv[:cut], argv[cut + 1:]
    args = _parser().parse_args(argv)
    with ut_build.interruptible():
        try:
            return _main(args, gtest_args)
        except ut_build.Interrupted as e:
            ut_build.kill_children()
            print(f"\nopsnn ut: stopped by {signal.Signals(e.signum).name}; the test programs were stopped with it",
                  file=sys.stderr, flush=True)
            return 128 + e.signum


def _main(args, gtest_args: list[str]) -> int:
    opts = Options(socs=args.soc, defines=[f"-D{d}" for d in args.defines],
                   include_dirs=[Path(d).resolve() for d in args.include_dirs], sanitize=args.sanitize == "on",
                   gtest_args=gtest_args, timeout=args.timeout, verbose=args.verbose)
    try:
        if args.timeout <= 0:
            raise UtError("--timeout must be more than 0 seconds")
        if args.jobs < 1:
            raise UtError("--jobs must be at least 1")
        for d in opts.include_dirs:
            if not d.is_dir():
                raise UtError(f"-I {d}: no such folder")
        if args.json:
            _writable_report(args.json)
        if args.workdir:
            opts.workdir = _usable_workdir(args.workdir)
        target = Path(args.test)
        if target.is_dir():
            from .ut_survey import run_folder
            kt_build.build()
            return run_folder(target, opts, cache_dir(), args.jobs, args.layer, args.json, run_one)
        if args.layer and layer_of(target) not in args.layer:
            raise UtError(f"{target} is an {layer_of(target)} test, not {'/'.join(args.layer)}")
        doc = run_one(target, opts, cache_dir())
    except UtError as e:
        print(f"opsnn ut: error: {e}", file=sys.stderr)
        return 2
    except (kt_build.BuildUnavailable, RuntimeError, OSError) as e:
        print(f"opsnn ut: error: the CPU-debug runtime cannot be built here: {e}", file=sys.stderr)
        return 2
    if args.json:
        try:
            Path(args.json).write_text(json.dumps(doc, indent=1, default=str))
        except OSError as e:
            print(f"opsnn ut: error: cannot write {args.json}: {e.strerror or e}", file=sys.stderr)
            return doc["exit_status"] or 2
    return doc["exit_status"]
