"""What a unit test's run says, in one line: passed (and whether it compares values), or failed with
its first reason and its class.

Classes (docs/cpp-kernels.md, "opsnn ut DIR"):
  passed        builds as upstream's build makes it and passes
  ut-defect     the test cannot pass as written, with the evidence (upstream's build meets it too)
  opsnn-lacks   opsnn lacks what the test needs (a header, an API, an instruction, a SoC)
  finding       the sanitizer finds an error in the kernel
  environment   the test's data step needs what this machine lacks (a Python module)
  unexplained   it fails for a reason not classified above (its first reason shown)

The rules read the compiler's, the program's and the runtime's own words; each names the evidence
it relies on, and anything they do not recognise stays `unexplained` rather than being guessed."""
from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass
from pathlib import Path

from . import build as kt_build
from .ut_cases import op_dir_of

CLASSES = ("passed", "ut-defect", "opsnn-lacks", "finding", "environment", "unexplained")

_Q = "['\u2018\u2019`]"  # g++ quotes names with ' or with typographic quotes
# headers of CANN's toolkit (and of its host libraries) that a kernel or test includes by name
_CANN_HEADER = re.compile(r"^(kernel_[\w.]+|lib/|impl/|adv_api/|basic_api/|atvoss/|register/|exe_graph/|graph/|"
                          r"tiling/|platform/|securec\.h|acl/|aclnn|op_common/|log/|opdev/|common/|tikicpulib|"
                          r"ascendc/|base/|runtime/|error_manager|mmpa|toolchain/|utils/|util/|op_api/|op_host/)")


@dataclass
class Verdict:
    klass: str
    reason: str
    compares_values: bool = False

    @property
    def passed(self) -> bool:
        return self.klass == "passed"


def compares_values(text: str) -> bool:
    """Whether a test checks what the kernel computed: a gtest assertion on an output element (an
    indexed or dereferenced value, EXPECT_NEAR/FLOAT_EQ on anything), or a comparison it runs
    (a compare script, a golden file, a comparison helper). A test asserting only that an
    allocation or a tiling call succeeded compares nothing."""
    text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)
    for m in re.finditer(r"\b(?:EXPECT|ASSERT)_(\w+)\s*\(", text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        args = text[m.end():i - 1]
        if m.group(1) in ("NEAR", "FLOAT_EQ", "DOUBLE_EQ"):
            return True
        if "nullptr" in args or "NULL" in args:
            continue
        if re.search(r"\w\s*\[|\*\s*\(?\w|compare|Compare|golden|Golden|system\s*\(", args):
            return True
    return bool(re.search(r"compare\w*\.py|CompareData|CompareResult|verify_result|golden", text))


def _first_error(text: str) -> str:
    for line in text.splitlines():
        if re.search(r"\berror\b|undefined reference|multiple definition", line):
            return line.strip()
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return lines[0] if lines else "(no output)"


def _located(line: str) -> str:
    """`file:line: error: what` shortened to `name:line: what`."""
    m = re.match(r"(\S+?):(\d+):(?:\d+:)?\s*(?:fatal )?error:\s*(.*)", line)
    if m:
        return f"{Path(m.group(1)).name}:{m.group(2)}: {m.group(3)}"
    return line


def build_verdict(compiler: str, step: str, test: Path, test_text: str, options: list[str],
                  checkout: Path | None) -> Verdict:
    """A failed build."""
    first = _first_error(compiler)
    located = _located(first)
    m = re.search(r"error: (?:#error|static assertion failed:?) ?\"?(opsnn[^\"]*)", first)
    if m:  # opsnn's headers refuse, by name, what its emulator does not model
        return Verdict("opsnn-lacks", _short(m.group(1)))
    m = re.search(rf"no matches converting function {_Q}(\w+){_Q} to type", first)
    if m:  # the kernel takes the API's address: its signature must be AscendC's exactly
        return Verdict("opsnn-lacks", f"{m.group(1)} with AscendC's exact signature (the kernel takes its address) "
                       f"({located})")
    m = re.search(r"fatal error: ([^:]+): No such file or directory", first)
    if m:
        header = m.group(1).strip()
        if _CANN_HEADER.match(header):
            return Verdict("opsnn-lacks", f"header {header} ({located})")
        where = _anywhere(header, checkout)
        if where is None and checkout is not None and header.startswith("."):
            return Verdict("ut-defect", f"includes {header}, which is nowhere in the checkout ({located})")
        if where is None:  # not the checkout's: one of the toolkit's (CANN's include folders)
            return Verdict("opsnn-lacks", f"header {header}, a toolkit header ({located})")
        return Verdict("opsnn-lacks", f"header {header}: upstream's build reaches the checkout's {where}, "
                       f"opsnn's does not ({located})")
    m = re.search(rf"{_Q}((?:ORIG_)?DTYPE_\w+){_Q} (?:was not declared|does not name a type|has not been declared)",
                  first)
    if m and not any(o.startswith(f"-D{m.group(1)}=") or o == f"-D{m.group(1)}" for o in options):
        defined = [o[2:].split("=")[0] for o in options if o.startswith("-D") and "DTYPE" in o]
        return Verdict("ut-defect", f"the code reads {m.group(1)}, the UT's options define "
                       f"{', '.join(defined) or 'no DTYPE_* macro'} (DTYPE_* come only from the UT's options in "
                       f"upstream's UT build) ({located})")
    m = re.search(rf"multiple definition of {_Q}(\w+)", first)
    if m and re.search(r'#\s*include\s*"[^"]*op_kernel/[^"]*\.cpp"', test_text):
        return Verdict("ut-defect", f"{m.group(1)} is defined twice: the test #includes the kernel .cpp, which "
                       "upstream's build also compiles as its own translation unit")
    m = re.search(rf"undefined reference to {_Q}(\w+)", first)
    common = m and _unlinked_ut_common(m.group(1), checkout)
    if common:
        return Verdict("ut-defect", f"calls {m.group(1)}, which only the checkout's {common} defines: upstream's "
                       "op_kernel UT program links none of tests/ut/common but test_cube_util.cpp (its op_host "
                       f"UTs' helpers stay out) ({located})")
    m = re.search(rf"undefined reference to {_Q}(\w+)", first)
    if m and re.search(rf'extern\s+"C"[^;]*\b{re.escape(m.group(1))}\s*\(', test_text):
        return Verdict("ut-defect", f"nothing defines the kernel entry {m.group(1)} the test declares extern \"C\" "
                       "(upstream's build links the same objects)")
    m = re.search(rf"use of deleted function {_Q}(?:\w+::)*(\w+TilingData)& (?:\w+::)*operator=", first)
    if m:
        return Verdict("ut-defect", f"the test copy-assigns a host {m.group(1)} (a BEGIN_TILING_DATA_DEF class: a "
                       "field table and a pointer to its data) as if it were the kernel's plain tiling struct; the "
                       "bytes it would leave are the host object's, not the tiling data the kernel reads (opsnn's "
                       f"host twin deletes that copy) ({located})")
    entry = _entry_in_another_unit(first, test, test_text)
    if entry:
        return Verdict("ut-defect", f"{entry} ({located})")
    tpl = _undeclared_in_tiling_key(first, test)
    if tpl:
        return Verdict("ut-defect", f"{tpl} ({located})")
    m = re.search(rf"{_Q}(?:const )?(?:struct |class )?(\w+){_Q} has no member named {_Q}(\w+)", first)
    stale = m and _stale_ut_tiling_header(m.group(1), m.group(2), test)
    if stale:
        return Verdict("ut-defect", f"{stale} ({located})")
    m = re.search(rf"{_Q}(?:AscendC::)?([\w:]+){_Q} (?:is not a member of|was not declared|has not been declared|"
                  rf"does not name a (?:type|template)|is not a namespace-name)", first) or \
        re.search(rf"{_Q}(?:class |struct )?([\w:<>, ]+){_Q} has no member named {_Q}(\w+)", first) or \
        re.search(rf"no matching function for call to {_Q}([\w:]+)", first) or \
        re.search(rf"there are no arguments to {_Q}([\w:]+){_Q} that depend on a template parameter", first) or \
        re.search(rf"undefined reference to {_Q}([^'\u2019]+)", first)
    if m:
        what = m.group(1) if m.lastindex == 1 else f"{m.group(1)}::{m.group(2)}"
        return Verdict("opsnn-lacks", f"{what} ({located})")
    if "not modelled" in compiler.splitlines()[0] if compiler else False:
        return Verdict("opsnn-lacks", compiler.splitlines()[0])
    return Verdict("unexplained", f"{step} fails: {located}")


def _operator_dir(test: Path) -> Path:
    """The operator's folder of a test in upstream's layout (ut_cases.op_dir_of: nested folders such
    as op_kernel/arch35 too), else the test's own folder."""
    return op_dir_of(test) or test.parent


def _unlinked_ut_common(name: str, checkout: Path | None) -> str | None:
    """The tests/ut/common source (other than test_cube_util.cpp, the one upstream's op_kernel UT
    program compiles) that defines function `name`, or None."""
    common = checkout / "tests" / "ut" / "common" if checkout else None
    if common is None or not common.is_dir():
        return None
    for source in sorted(common.glob("*.cpp")):
        if source.name != "test_cube_util.cpp" and re.search(
                rf"^[\w:<>&*\s]*\b{re.escape(name)}\s*\([^;]*\)\s*(?:const\s*)?\{{?\s*$",
                source.read_text(errors="replace"), re.M):
            return str(source.relative_to(checkout))
    return None


def _entry_in_another_unit(first: str, test: Path, test_text: str) -> str | None:
    """Evidence that the test names a kernel entry its own translation unit cannot see: the entry
    (a __global__ function, a template here) is defined only in the operator's kernel .cpp, which
    the test does not #include and no header it includes declares; upstream's build compiles the
    test and that .cpp apart, so it fails on the same name."""
    m = re.search(rf"{_Q}(\w+){_Q} was not declared in this scope", first)
    if not m or not first.startswith(str(test)) and Path(first.split(":")[0]).name != test.name:
        return None
    name = m.group(1)
    operator = _operator_dir(test)
    for kernel in sorted(operator.glob("op_kernel/**/*.cpp")):
        text = kernel.read_text(errors="replace")
        if re.search(rf"__global__[^;{{]*\bvoid\s+{re.escape(name)}\s*\(", text) and \
                not re.search(rf'#\s*include\s*"[^"]*\b{re.escape(kernel.name)}"', test_text):
            return (f"the test names the kernel entry {name}, which only {kernel.name} defines; the test does not "
                    f"include it, and upstream's build compiles the two apart")
    return None


def _undeclared_in_tiling_key(first: str, test: Path) -> str | None:
    """Evidence that a name in an ASCENDC_TPL_* list of the operator's tiling-key header is declared
    nowhere: op_host's tiling includes the same header, and CANN's host-side macros evaluate the
    list, so upstream's op_host build fails on that line as well."""
    m = re.match(rf"(\S+?):(\d+):(?:\d+:)?\s*error: {_Q}(\w+){_Q} was not declared in this scope", first)
    if not m:
        return None
    header, line, name = Path(m.group(1)), int(m.group(2)), m.group(3)
    try:
        text = header.read_text(errors="replace").splitlines()[line - 1]
    except (OSError, IndexError):
        return None
    operator = _operator_dir(test)
    if "ASCENDC_TPL_" not in text or operator not in header.resolve().parents:
        return None
    for host in sorted(operator.glob("op_host/**/*.cpp")):
        if re.search(rf'#\s*include\s*"[^"]*\b{re.escape(header.name)}"', host.read_text(errors="replace")):
            return (f"{name} in the tiling-key list of {header.name}:{line} is declared nowhere; the operator's "
                    f"{host.name} includes that header, so upstream's op_host build fails on it too")
    return None


def _stale_ut_tiling_header(struct: str, member: str, test: Path) -> str | None:
    """Evidence that the UT folder's tiling header lags the operator: it defines `struct` without
    `member`, which the operator's op_host tiling defines (TILING_DATA_FIELD_DEF / a struct field);
    upstream's build force-includes the same header (-include <op>_tiling_def.h), so fails the same."""
    for header in sorted(test.parent.glob("*tiling_def*.h")):
        text = header.read_text(errors="replace")
        if not re.search(rf"\bstruct\s+{re.escape(struct)}\b", text) or re.search(rf"\b{re.escape(member)}\b", text):
            continue
        operator = _operator_dir(test)
        for host in sorted(operator.glob("op_host/**/*.h")) + sorted(operator.glob("op_kernel/**/*.h")):
            if re.search(rf"\b{re.escape(member)}\b", host.read_text(errors="replace")):
                return (f"the UT folder's {header.name} defines {struct} without {member}, which the operator's "
                        f"{host.name} has: the UT's tiling header lags the operator (upstream's build includes the "
                        "same header)")
    return None


def _anywhere(header: str, checkout: Path | None) -> Path | None:
    """A file of the checkout whose path ends as the include does (in the checkout, or in the
    build tree upstream's build copies it to)."""
    if checkout is None:
        return None
    tail = header.lstrip("./")
    for p in _files_named(checkout).get(header.split("/")[-1], ()):
        # an operator's op_kernel files sit in tbe/ascendc/<op>/ of upstream's build tree
        if str(p).endswith(tail) or str(p).replace("/op_kernel/", "/").endswith(tail):
            return p
    return None


@functools.lru_cache(maxsize=4)
def _files_named(checkout: Path) -> dict[str, list[Path]]:
    out: dict[str, list[Path]] = {}
    for dirpath, _, files in os.walk(checkout):
        for f in files:
            out.setdefault(f, []).append(Path(dirpath, f).relative_to(checkout))
    return out


_LACKS = re.compile(r"not modelled|is refused|not supported|unsupported|NotImplemented|has no attribute", re.I)
_MODULE = re.compile(r"ModuleNotFoundError: No module named '([\w.]+)'")


def run_verdict(runs: list[dict], notes: list[str], test_text: str, test: Path | None = None,
                checkout: Path | None = None) -> Verdict:
    """Runs that built: what they say. A test that links only with opsnn's help is a UT defect
    whatever its run says (upstream's build does not get that far)."""
    verdict = _runs_verdict(runs, compares_values(test_text), test, checkout)
    if notes:
        return Verdict("ut-defect", f"{'passes' if verdict.passed else 'runs'} only with opsnn's help: {notes[0]}"
                       + ("" if verdict.passed else f"; then: {verdict.reason}"), verdict.compares_values)
    return verdict


def _runs_verdict(runs: list[dict], compares: bool, test: Path | None, checkout: Path | None) -> Verdict:
    for run in runs:
        if run.get("timed_out"):
            return Verdict("unexplained", f"on {run['soc']}: still running at the time limit", compares)
        for launch in run.get("launches", []):
            error = launch.get("error")
            if error:
                if re.search(r"block_dim must be in \[1, \d+\], got 0\b", error):
                    return Verdict("ut-defect", "the test launches its kernel on 0 cores (ICPU_RUN_KF's numBlocks is "
                                   "0): none of the kernel's code would run, and AscendC documents no such launch; "
                                   + _short(error), compares)
                if _LACKS.search(error):
                    return Verdict("opsnn-lacks", _short(error), compares)
                return Verdict("unexplained", _short(error), compares)
            errs = [f for f in launch.get("findings", []) if f.get("level") == "error"]
            if errs:
                f = errs[0]
                detail = str(f.get("detail", ""))
                if f.get("kind") == "core_failed" or _LACKS.search(detail):  # the emulator refused it
                    where = f"{f.get('instruction')} at {f['source']}: " if f.get("source") else ""
                    branch = None if "not modelled" in detail else \
                        _undefined_dtype_branch(f.get("source", ""), run.get("defines", []), test, checkout)
                    if branch:
                        return Verdict("ut-defect", f"{branch}; on that branch {where}{_short(detail)}", compares)
                    return Verdict("opsnn-lacks", where + _short(detail), compares)
                barrier = _barrier_compiled_out(f.get("kind"), test) if f.get("kind") in _RACES else None
                if barrier:
                    return Verdict("ut-defect", f"{barrier}; the finding: {f.get('kind')}: {f.get('instruction')}"
                                   + (f" at {f['source']}" if f.get("source") else ""), compares)
                return Verdict("finding", f"{f.get('kind')}: {f.get('instruction')}"
                               + (f" at {f['source']}" if f.get("source") else "")
                               + f": {_short(detail)[:160]} ({len(errs)} error(s) in {launch.get('kernel')})",
                               compares)
        out = run.get("stdout", "") + "\n" + run.get("stderr", "")
        if run.get("exit_status", 0) != 0:
            module = _MODULE.search(out)
            if module:
                return Verdict("environment", f"its data step needs the Python module {module.group(1)}", compares)
            division = _division_by_zero(run.get("fault")) if run.get("signal") == "SIGFPE" else None
            if division:
                return Verdict("ut-defect", division, compares)
            if run.get("signal"):
                return Verdict("unexplained", f"the program died of {run['signal']} on {run['soc']}"
                               + _last_words(out), compares)
            said = [ln[len("opsnn ut: "):] for ln in run.get("stderr", "").splitlines() if ln.startswith("opsnn ut: ")
                    and "ICPU_RUN_KF(" not in ln]
            if run.get("exit_status") == 70 and said:  # the runtime stopped the program, saying why
                return Verdict("unexplained", f"on {run['soc']}: the runtime stopped the program: {_short(said[-1])}",
                               compares)
            failure = run.get("first_failure") or next(
                (m.group(1).strip() for m in [re.search(r"^(.*?(?:Failure|error).*)$", out, re.M)] if m), None)
            return Verdict("unexplained", f"on {run['soc']}: "
                           + (failure[:200] if failure else f"exit status {run['exit_status']}"), compares)
    return Verdict("passed", "", compares)


def _division_by_zero(fault: str | None) -> str | None:
    """Evidence that a SIGFPE is the UT's own: the trapping instruction lies in the kernel's or the
    test's code, which CANN's CPU debug also compiles for the host, so its build traps there too (an
    integer division by zero: on hand-written tilings, a field the UT left 0). None where opsnn's
    own headers trapped (opsnn's defect) or where it is not known."""
    if not fault or ":" not in fault:
        return None
    file, _, line = fault.rpartition(":")
    path = Path(file)
    if Path(kt_build.INCLUDE_DIR) in path.parents or not path.is_file() or not line.isdigit():
        return None
    lines = path.read_text(errors="replace").splitlines()
    text = lines[int(line) - 1].strip() if 0 < int(line) <= len(lines) else ""
    return (f"the program died of SIGFPE (an integer division by zero) at {path.name}:{line}"
            + (f" `{text[:120]}`" if text else "") + ": the kernel's scalar code, which the toolkit's CPU build "
            "also runs on the host, traps there the same way")


_CONDITIONAL = re.compile(r"\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)")


def _undefined_dtype_branch(source: str, defines: list[str], test: Path | None, checkout: Path | None) -> str | None:
    """Evidence that the code at `file:line` is compiled only because the UT leaves a dtype macro
    undefined: an enclosing `#if ORIG_DTYPE_X == DT_BF16` holds when ORIG_DTYPE_X is not defined
    (in #if an undefined name is 0, and so is DT_BF16, an enum constant and no macro). Upstream's UT
    build passes the same options, so it compiles the same branch for a dtype the test never runs."""
    m = re.fullmatch(r"(.+):(\d+)", source)
    if not m or test is None:
        return None
    name, line = m.group(1), int(m.group(2))
    operator = _operator_dir(test)
    files = [p for p in operator.rglob(name)] or \
        ([checkout / p for p in _files_named(checkout).get(name, ())] if checkout else [])
    if len(files) != 1:
        return None
    defined = {d[2:].split("=")[0] for d in defines if d.startswith("-D")}
    stack: list[tuple[int, str]] = []
    for n, text in enumerate(files[0].read_text(errors="replace").splitlines()[:line - 1], 1):
        c = _CONDITIONAL.match(text)
        if not c:
            continue
        kind, condition = c.group(1), c.group(2).strip()
        if kind in ("if", "ifdef", "ifndef"):
            stack.append((n, condition if kind == "if" else ""))
        elif kind in ("elif", "else") and stack:
            stack[-1] = (n, condition if kind == "elif" else "")
        elif kind == "endif" and stack:
            stack.pop()
    for n, condition in stack:
        read = re.search(r"\b((?:ORIG_)?DTYPE_\w+)\s*==\s*(DT_\w+)", condition)
        if read and read.group(1) not in defined:
            return (f"the kernel's `#if {condition}` ({name}:{n}) holds only because the UT's options define no "
                    f"{read.group(1)} (in #if an undefined name is 0, as is {read.group(2)}); upstream's UT build "
                    "compiles the same branch")
    return None


_RACES = ("gm_write_overlap", "gm_read_write_race")
_NOT_KT_TEST = re.compile(r"\s*#\s*(?:ifndef\s+__CCE_KT_TEST__|if\s+!\s*defined\s*\(?\s*__CCE_KT_TEST__)")
_SYNC_ALL = re.compile(r"^\s*(?:AscendC::)?SyncAll\s*(?:<[^>]*>)?\s*\(")


def _barrier_compiled_out(kind: str, test: Path | None) -> str | None:
    """Evidence that a cross-core race exists only in the UT build: a SyncAll of the operator's
    kernel sources lies inside `#ifndef __CCE_KT_TEST__`, so the build that defines it (upstream's UT
    build, as CANN's CPU debug does) runs the cores with no barrier where the device has one."""
    operator = op_dir_of(test) if test is not None else None
    if operator is None:
        return None
    for source in sorted(operator.rglob("op_kernel/**/*")):
        if source.suffix not in (".h", ".hpp", ".cpp") or not source.is_file():
            continue
        depth = 0  # nesting inside an `#ifndef __CCE_KT_TEST__` (0: outside)
        for n, text in enumerate(source.read_text(errors="replace").splitlines(), 1):
            c = _CONDITIONAL.match(text)
            if c and c.group(1) in ("if", "ifdef", "ifndef"):
                depth = depth + 1 if depth or _NOT_KT_TEST.match(text) else 0
            elif c and c.group(1) == "endif" and depth:
                depth -= 1
            elif c and c.group(1) in ("else", "elif") and depth == 1:
                depth = 0  # the branch that the UT build compiles
            elif depth and _SYNC_ALL.match(text):
                return (f"the kernel's SyncAll ({source.name}:{n}) is compiled only without __CCE_KT_TEST__: the UT "
                        f"build, which defines it (upstream's too), runs the cores with no barrier there, so this "
                        f"{kind} is the build's; on the device the barrier orders the cores")
    return None


def _short(text: str) -> str:
    return re.sub(r"\s+", " ", text)[:240]


def _last_words(out: str) -> str:
    lines = [ln for ln in out.splitlines() if ln.strip() and not ln.startswith("[")]
    return f" (last output: {lines[-1].strip()[:160]})" if lines else ""
