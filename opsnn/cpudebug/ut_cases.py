"""What upstream's build makes of an op_kernel UT: the AddOpTestCase calls of its CMakeLists, read
as ops-nn's cmake/ut.cmake reads them, per SoC.

ut.cmake's AddOpTestCase([opName] socVersions options [DEPENDENCY_OPS...] [UT_SRC_DIR dir]
[MULTI_KERNEL_TARGET]), for each SoC of the build's compute unit (ASCEND_COMPUTE_UNIT, which the
CMakeLists may branch on), compiles the test sources `test_<kernel>*.cpp` of the UT folder (and of
its arch22/arch35 folder for the SoC) and the kernel `<kernel>.cpp` as separate translation units
with the same options: `-include` the tiling header (the folder's `<op>_tiling_def.h`, foreach's
shared one, or one generated from op_host), the options string split on spaces and `;`, then
`-DUT_SOC_VERSION="Ascend..."` and `-DKERNELUT=1`. The kernel and the operators it depends on are
copied into `tbe/ascendc/<op>` of the build tree, beside `common`, `inc` and `pool_3d_common`, which
are on the include path. `<kernel>` is the opFile the op's definition gives that compute unit, else
the op's name."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .cmake_lists import CMakeError, Evaluator, Scope, parse, split_list

# cmake/func.cmake: map_compute_unit (short -> long) and get_target_dir (long -> arch folder)
COMPUTE_UNITS = {"ascend910b": "ascend910b1", "ascend310p": "ascend310p1", "ascend910_93": "ascend910_9391",
                 "ascend950": "ascend950pr_9599", "ascend350": "ascend350_355e", "mc62": "mc62cm12aa"}
TARGET_DIRS = {"ascend910b1": "arch22", "ascend310p1": "arch22", "ascend910_9391": "arch22",
               "ascend950pr_9599": "arch35", "ascend350_355e": "arch35"}
BINARY_DIR = "/@CMAKE_BINARY_DIR@"  # ${CMAKE_BINARY_DIR}: where upstream's build puts what it copies
HELPERS = ("kernel_ut_data_helper", "kernel_ut_data_executor")  # upstream's shared UT sources
LAYERS = ("op_kernel", "op_host", "op_api")  # the tests/ut/<layer> folders a unit test is in


NO_TEST = "defines no test: no TEST/TEST_F/TEST_P (gtest) and no main()"  # UtError's words for such a file


class UtError(Exception):
    """A problem with the command or the test that is not the test's result (exit status 2)."""


def layer_of(test: Path) -> str:
    """op_kernel, op_host or op_api: the folder below tests/ut the test lives in (op_kernel elsewhere).
    As upstream's cmake/ut.cmake collects them, an op_host folder's test_aclnn_*.cpp and anything
    under tests/ut/op_host/op_api are op_api tests (aclnn tests kept there for history)."""
    parts = test.resolve().parts
    for k in range(len(parts) - 2):
        if parts[k] == "tests" and parts[k + 1] == "ut" and parts[k + 2] in LAYERS:
            if parts[k + 2] == "op_host" and (test.name.startswith("test_aclnn_") or "op_api" in parts[k + 3:-1]):
                return "op_api"
            return parts[k + 2]
    return "op_kernel"


def compute_unit(soc: str) -> str | None:
    """The compute unit a SoC name of AddOpTestCase matches (ut.cmake's socMatch: the unit's short
    or long name, lower case), None when none does (upstream's build then skips that SoC)."""
    low = soc.strip().lower()
    if low in COMPUTE_UNITS:
        return low
    for short, long in COMPUTE_UNITS.items():
        if long == low:
            return short
    return None


@dataclass
class KernelUtCase:
    """One AddOpTestCase call for one SoC, as ut.cmake processes it."""
    op_name: str
    soc: str  # as the CMakeLists writes it
    options: list[str]  # the options string split as ut.cmake splits it
    op_dir: Path
    ut_src_dir: Path
    dependency_ops: list[str] = field(default_factory=list)
    multi_kernel_target: bool = False
    kernel_name: str = ""  # the opFile for the SoC's compute unit, else the op's name
    origin: str = ""  # "<CMakeLists>:<line>"
    extra_trees: dict[str, Path] = field(default_factory=dict)  # tbe/ascendc/<name> copied by the CMakeLists

    @property
    def soc_version(self) -> str:
        return self.soc.replace("ascend", "Ascend")

    def test_sources(self) -> list[Path]:
        """The test files the case compiles (ut.cmake's file(GLOB test_<kernel>*.cpp))."""
        pattern = f"test_{self.kernel_name}*.cpp"
        target = TARGET_DIRS.get(self.soc.lower(), "")
        found = [] if self.multi_kernel_target and target else sorted(self.ut_src_dir.glob(pattern))
        if target:
            found += sorted((self.ut_src_dir / target).glob(pattern))
        return found

    def kernel_source(self) -> Path | None:
        """The kernel translation unit (none for MULTI_KERNEL_TARGET cases)."""
        if self.multi_kernel_target:
            return None
        path = self.op_dir / "op_kernel" / f"{self.kernel_name}.cpp"
        return path if path.is_file() else None


def op_dir_of(test: Path) -> Path | None:
    """<op> of <op>/tests/ut/op_kernel[/...]/test_*.cpp (upstream's layout), else None."""
    for d in test.resolve().parents:
        if d.name == "op_kernel" and d.parent.name == "ut" and d.parent.parent.name == "tests":
            return d.parent.parent.parent
    return None


def repo_root_of(path: Path) -> Path | None:
    """The upstream checkout holding `path` (the folder whose tests/ut/op_kernel has upstream's
    shared UT helpers), else None."""
    for d in path.resolve().parents:
        if (d / "tests" / "ut" / "op_kernel" / f"{HELPERS[0]}.h").is_file():
            return d
    return None


def kernel_file_names(op_dir: Path) -> dict[str, str]:
    """compute unit -> the opFile its AICore config names (op_host/*_def.cpp:
    `cfg.ExtendCfgInfo("opFile.value", "name")` ... `AICore().AddConfig("unit", cfg)`)."""
    out: dict[str, str] = {}
    host = op_dir / "op_host"
    if not host.is_dir():
        return out
    for path in sorted(host.rglob("*_def.cpp")):
        text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", path.read_text(errors="replace"), flags=re.S)
        files: dict[str, str] = {}
        for statement in text.split(";"):
            head = re.match(r"\s*(?:OpAICoreConfig\s+)?(\w+)\s*[.=(]", statement)
            for m in re.finditer(r'ExtendCfgInfo\s*\(\s*"opFile\.value"\s*,\s*"(\w+)"\s*\)', statement):
                if head:
                    files[head.group(1)] = m.group(1)
            for m in re.finditer(r'AddConfig\s*\(\s*"(\w+)"\s*(?:,\s*(\w+))?\s*\)', statement):
                if m.group(2) in files:
                    out.setdefault(m.group(1).lower(), files[m.group(2)])
    return out


def _cmake_files(test: Path, op_dir: Path) -> list[Path]:
    """The CMakeLists that can call AddOpTestCase for `test`: the op's own, and each on the way
    from its UT folder down to the test."""
    out = [op_dir / "CMakeLists.txt"]
    ut_root = op_dir / "tests" / "ut" / "op_kernel"
    d = ut_root
    out.append(d / "CMakeLists.txt")
    for part in test.resolve().parent.relative_to(ut_root.resolve()).parts:
        d = d / part
        out.append(d / "CMakeLists.txt")
    return [p for p in out if p.is_file()]


def _base_scope(source_dir: Path, op_dir: Path, repo: Path | None, unit: str) -> Scope:
    root = str(repo if repo is not None else op_dir.parent)
    return Scope(variables={
        "CMAKE_CURRENT_SOURCE_DIR": str(source_dir), "CMAKE_CURRENT_LIST_DIR": str(source_dir),
        "PROJECT_SOURCE_DIR": root, "CMAKE_SOURCE_DIR": root, "OPS_NN_DIR": root,
        "CMAKE_BINARY_DIR": BINARY_DIR, "CMAKE_CURRENT_BINARY_DIR": BINARY_DIR, "CMAKE_COMMAND": "cmake",
        "UT_TEST_ALL": "ON", "OP_KERNEL_UT": "ON", "ASCEND_COMPUTE_UNIT": unit,
        "OP_DIR": str(op_dir), "OP_NAME": op_dir.name})


def _created_targets(name: str, args: list[str]) -> list[str]:
    if name != "addoptestcase" or not args:
        return []
    op = args[0] if not args[0].startswith("ascend") else ""
    return [f"ascendc_kernel_ut_src_copy_{op}", f"opkernel_{op}"] if op else []


@dataclass
class FolderCases:
    """Every case the CMakeLists around a test make, and what they copy."""
    cases: list[KernelUtCase]
    run_files: list[Path]  # copied next to the built tests (a data folder's scripts)
    misread: list[str]  # AddOpTestCase calls ut.cmake reads differently from how they are written
    cmake_files: list[Path] = field(default_factory=list)  # the CMakeLists read


def read_cases(test: Path) -> FolderCases | None:
    """The cases of every compute unit for the op holding `test`, None outside upstream's layout.

    Raises
    ------
    CMakeError
        A CMakeLists this reader cannot follow.
    """
    op_dir = op_dir_of(test)
    if op_dir is None:
        return None
    repo = repo_root_of(op_dir)
    opfiles = kernel_file_names(op_dir)
    cases: list[KernelUtCase] = []
    run_files: list[Path] = []
    misread: list[str] = []
    cmake_files = _cmake_files(test, op_dir)
    for cmake in cmake_files:
        commands = parse(cmake.read_text(errors="replace"))
        for unit in COMPUTE_UNITS:
            scope = _base_scope(cmake.parent, op_dir, repo, unit)
            Evaluator(scope, {"addoptestcase", "add_custom_target", "add_custom_command"},
                      _created_targets).run(commands)
            trees = _copied_trees(scope)
            for name, args, line in scope.calls:
                if name == "add_custom_command" or name == "add_custom_target":
                    run_files += [p for p in _copied_files(args, cmake.parent) if p not in run_files]
                    continue
                for case in _cases_of_call(args, cmake, line, op_dir, unit, misread):
                    case.kernel_name = opfiles.get(unit) or case.op_name
                    case.extra_trees = trees
                    if case not in cases:
                        cases.append(case)
    return FolderCases(cases, run_files, misread, cmake_files)


def _cases_of_call(args: list[str], cmake: Path, line: int, op_dir: Path, unit: str,
                   misread: list[str]) -> list[KernelUtCase]:
    """ut.cmake's reading of one AddOpTestCase call, for the SoCs of `unit`."""
    if not args:
        return []
    if re.match(r"^ascend", args[0]):  # opName may be left out: a first argument starting "ascend" is a SoC
        op_name, socs, options, rest = op_dir.name, args[0], args[1] if len(args) > 1 else "", args[2:]
        if not any(compute_unit(s) for s in split_list(socs)):
            note = (f"{cmake}:{line}: ut.cmake reads the first argument {args[0]!r} as the SoC list (a first "
                    "argument starting with 'ascend' is taken for one), so upstream's build never compiles "
                    "this case")
            if note not in misread:
                misread.append(note)
    else:
        op_name, socs, options, rest = args[0], args[1] if len(args) > 1 else "", \
            args[2] if len(args) > 2 else "", args[3:]
    ut_src_dir = cmake.parent if str(cmake.parent).endswith("/tests/ut/op_kernel") \
        else cmake.parent / "tests" / "ut" / "op_kernel"
    deps, multi, expect_dir = [], False, False
    for arg in (item for a in rest for item in split_list(a)):  # ARGN is one list, as ut.cmake builds it
        if arg == "UT_SRC_DIR":
            expect_dir = True
        elif expect_dir:
            ut_src_dir, expect_dir = cmake.parent / arg, False  # file(GLOB) reads a relative one from here
        elif arg == "MULTI_KERNEL_TARGET":
            multi = True
        else:
            deps.append(arg)
    # -DUT_CUSTOM_TILING_DATA_KEYS=... names tiling keys for the generated header, not an option
    options = re.sub(r"-DUT_CUSTOM_TILING_DATA_KEYS=[^ ]+", "", options)
    split = split_list(options.replace(" ", ";"))
    out = []
    for soc in split_list(socs):
        if compute_unit(soc) != unit:
            continue
        out.append(KernelUtCase(op_name, soc, split, op_dir, ut_src_dir, deps, multi, origin=f"{cmake}:{line}"))
    return out


def _copied_trees(scope: Scope) -> dict[str, Path]:
    """tbe/ascendc/<name> folders an add_custom_target copies (`-E copy_directory SRC
    ${CMAKE_BINARY_DIR}/tbe/ascendc/<name>`)."""
    out = {}
    prefix = f"{BINARY_DIR}/tbe/ascendc/"
    for name, args, _ in scope.calls:
        if name != "add_custom_target":
            continue
        for k in range(len(args) - 2):
            if args[k] == "copy_directory" and args[k + 2].startswith(prefix):
                out[args[k + 2][len(prefix):].strip("/")] = Path(args[k + 1])
    return out


def _copied_files(args: list[str], source_dir: Path) -> list[Path]:
    """Files a custom command copies next to the built tests (`-E copy <files>
    ${CMAKE_BINARY_DIR}/tests/ut/op_kernel`): a data folder's scripts, run from there."""
    out = []
    dest = f"{BINARY_DIR}/tests/ut/op_kernel"
    for k, arg in enumerate(args):
        if arg != "copy" or k == 0 or args[k - 1] != "-E":
            continue
        files = []
        for item in args[k + 1:]:
            if item.rstrip("/") == dest:
                out += [p for p in files if p.is_file()]
                break
            if item.startswith("-") or item.isupper():
                break
            files.append(Path(item) if Path(item).is_absolute() else source_dir / item)
    return out


def copied_to_binary_dir(cmake_text: str, source_dir: Path) -> list[Path]:
    """The files a CMakeLists copies next to the built tests (see _copied_files)."""
    scope = Scope(variables={"CMAKE_CURRENT_SOURCE_DIR": str(source_dir), "CMAKE_BINARY_DIR": BINARY_DIR,
                             "CMAKE_COMMAND": "cmake", "UT_TEST_ALL": "ON", "OP_KERNEL_UT": "ON"})
    Evaluator(scope, {"add_custom_command", "add_custom_target"}).run(parse(cmake_text))
    out = []
    for _, args, _ in scope.calls:
        out += [p for p in _copied_files(args, source_dir) if p not in out]
    return out


__all__ = ["CMakeError", "FolderCases", "KernelUtCase", "compute_unit", "copied_to_binary_dir", "read_cases"]
