"""What `opsnn ut` builds an op_api unit test from (the op_api layer of opsnn.host.ut_layers).

Upstream's build (ops-nn cmake/ut.cmake add_opapi_ut_modules, cmake/func.cmake) compiles an op_api
UT from the test, the operator's op_api sources (op_api/ or op_host/op_api/), the shared UT helpers
of tests/ut/op_api/op_api_ut_common (inc on the include path, src/*.cpp and src/inner/*.cpp
compiled), tests/ut/op_api/ut_main.cpp, with -fno-access-control, and links it against the
toolkit's nnopbase. opsnn builds the same sources the same way, and links its host twin instead
(libopsnn_host: opdev, nnopbase, the acl runtime). Differences, and why:

- upstream's tests/ut/op_api/stub/opdev/{platform,op_executor}.cpp are not compiled and its stub
  folder is not on the include path: opsnn's opdev/platform.h and its executor replace them (the
  SoC a UT sets with SocVersionManager / NpuArchManager is honoured as the stub's is, and a launch
  with no op_host in the program is recorded, not tiled, as the stub's CreatAiCoreKernelLauncher
  does nothing); the toolkit's SocVersion numbering is kept (the stub's differs for Ascend350 only);
- the l0 ops of ops-math (Contiguous, Cast, ...) are opsnn's, where upstream's UT links stubs that
  return their input: phase 1 records the same steps either way;
- upstream's build compiles every operator's op_api into one library; opsnn compiles the test's
  operator and the l0 ops it reaches in other operators by relative include (the .cpp beside each
  such header), transitively;
- `level2/aclnn_<op>.h` resolves, as the toolkit's include/aclnnop/level2 does for an installed
  package, to the operator's own op_api header of that name (the test's operator first, then any
  operator of the checkout), through a generated forwarding header.

nlohmann/json (included by op_api_ut_common) comes from the system (Debian's nlohmann-json3-dev)."""
from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from opsnn.cpudebug import build as kt_build
from opsnn.cpudebug.ut_build import write_if_changed
from opsnn.platform import DEFAULT_SOC, get_platform

from . import build as host_build
from .op_build import FALLBACK_INCLUDE
from .op_folder import (
    OperatorFolder,
    OpFolderError,
    checkout_include_dirs,
    checkout_root,
    folder_of,
    is_operator_folder,
)

UT_COMMON = Path("tests") / "ut" / "op_api" / "op_api_ut_common"
_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]', re.M)
_JSON_DIRS = (Path("/usr/include"), Path("/usr/local/include"))


@dataclass
class HostUtPlan:
    """What `opsnn ut` builds an op_host or op_api UT from."""
    sources: list[Path]
    include_dirs: list[Path]
    cflags: list[str]
    libs: list[str]
    env: dict[str, str] = field(default_factory=dict)
    socs: list[str] = field(default_factory=list)


def plan(test: Path, socs: list[str], defines: list[str]) -> HostUtPlan:
    """The sources, include folders, flags and libraries of an op_api UT (`defines` are the
    caller's to add per build; they do not change what is compiled)."""
    test = Path(test).resolve()
    folder = operator_of_test(test)
    root = checkout_root(folder) if folder is not None else _checkout_above(test)
    sources = [test]
    include_dirs = [*host_build.include_dirs()]
    if folder is not None:
        api = folder.api_sources() + l0_dependencies(folder.api_sources())
        sources += api
        if folder.op_api_dir is not None:
            include_dirs.append(folder.op_api_dir)
        for owner in _folders_inferring_shapes(api):
            sources += owner.host_sources(get_platform(socs[0] if socs else DEFAULT_SOC).family)
            include_dirs += [d for d in (owner.op_host_dir, owner.root.parent) if d is not None]
    include_dirs += checkout_include_dirs(root)
    libs = [*host_build.host_libs(), "-lgtest", "-lpthread"]
    texts = [test.read_text(errors="replace")]
    if root is not None and (root / UT_COMMON / "inc").is_dir():
        common = root / UT_COMMON
        include_dirs.append(common / "inc")
        sources += sorted((common / "src").glob("*.cpp")) + sorted((common / "src" / "inner").glob("*.cpp"))
        main = root / "tests" / "ut" / "op_api" / "ut_main.cpp"
        if main.is_file():
            sources.append(main)
        else:
            libs.append("-lgtest_main")
        if "op_api_ut_common/" in texts[0] and not any((d / "nlohmann" / "json.hpp").is_file() for d in _JSON_DIRS):
            raise ValueError("upstream's op_api UT helpers include nlohmann/json.hpp, which this machine lacks: "
                             "install Debian's nlohmann-json3-dev (apt-get install nlohmann-json3-dev)")
    else:
        libs.append("-lgtest_main")
    level2 = level2_dir(test, folder, root)
    if level2 is not None:
        include_dirs.append(level2)
    include_dirs.append(FALLBACK_INCLUDE)
    cflags = ["-std=c++17", "-O0", "-g", "-w", "-fno-access-control", "-DLOG_CPP"]
    return HostUtPlan(_unique(sources), _unique(include_dirs), cflags, libs, {}, list(socs))


def _folders_inferring_shapes(api_sources: list[Path]) -> list[OperatorFolder]:
    """The operator folders of the l0 ops among `api_sources` that call INFER_SHAPE: the shape
    inference is their op_host's (IMPL_OP_INFERSHAPE), so the UT links that op_host (def,
    infershape and tiling: with an op_host in the program, a launch is tiled). Upstream's op_api
    UTs pass without: their l0 ops size their outputs themselves."""
    owners: dict[Path, OperatorFolder] = {}
    for source in api_sources:
        if "INFER_SHAPE(" in source.read_text(errors="replace"):
            try:
                owner = folder_of(source)
            except OpFolderError:
                continue
            owners.setdefault(owner.root, owner)
    return list(owners.values())


def operator_of_test(test: Path) -> OperatorFolder | None:
    """<op> of <op>/tests/ut/op_api/.../test_*.cpp (upstream's layout; also tests/ut/op_host/, where
    some folders keep their aclnn tests), else the operator folder the file is in, else None."""
    parts = test.parts
    for k in range(len(parts) - 3, 0, -1):
        if parts[k:k + 2] == ("tests", "ut") and parts[k + 2] in ("op_api", "op_host"):
            root = Path(*parts[:k])
            if is_operator_folder(root):
                return OperatorFolder(root)
    try:
        return folder_of(test)
    except OpFolderError:
        return None


def l0_dependencies(api_sources: list[Path]) -> list[Path]:
    """The l0 op sources other operators' op_api headers stand for: for each header an op_api
    source includes by relative path from another operator's op_api folder, the .cpp beside it of
    the same name; transitively."""
    seen = {p.resolve() for p in api_sources}
    out: list[Path] = []
    todo = list(api_sources)
    while todo:
        source = todo.pop(0)
        headers = [source, *(source.parent.glob("*.h") if source.suffix == ".cpp" else [])]
        for text_file in headers:
            for inc in _INCLUDE.findall(text_file.read_text(errors="replace")):
                if not inc.startswith(".."):
                    continue
                header = Path(os.path.normpath(text_file.parent / inc))
                if header.parent.name != "op_api" or header.parent == source.parent:
                    continue
                cpp = header.with_suffix(".cpp")
                if cpp.is_file() and cpp.resolve() not in seen:
                    seen.add(cpp.resolve())
                    out.append(cpp.resolve())
                    todo.append(cpp.resolve())
    return out


def level2_dir(test: Path, folder: OperatorFolder | None, root: Path | None) -> Path | None:
    """A folder whose level2/<name> forwards to the operator's own op_api header <name>, for each
    `level2/...` the test includes; None when it includes none."""
    wanted = sorted({inc.split("/", 1)[1] for inc in _INCLUDE.findall(test.read_text(errors="replace"))
                     if inc.startswith("level2/")})
    if not wanted:
        return None
    found: dict[str, Path] = {}
    for name in wanted:
        candidates = [folder.op_api_dir / name] if folder is not None and folder.op_api_dir else []
        if root is not None:
            candidates += sorted(root.glob(f"**/op_api/{name}"))
        hit = next((c for c in candidates if c.is_file()), None)
        if hit is None:
            raise ValueError(f"{test.name} includes level2/{name}, which no operator's op_api folder has"
                             + ("" if root else " (the test is in no ops-nn checkout)"))
        found[name] = hit.resolve()
    tag = hashlib.sha256("\n".join(f"{n}={p}" for n, p in found.items()).encode()).hexdigest()[:16]
    out = kt_build.lib_dir().parent / "ut-op-api" / tag
    for name, header in found.items():
        target = out / "level2" / name
        write_if_changed(target, f'/* generated by opsnn ut: level2/{name} is the operator\'s own header */\n'
                                 f'#include "{header}"\n')
    return out


def _checkout_above(test: Path) -> Path | None:
    for d in test.parents:
        if (d / UT_COMMON / "inc").is_dir():
            return d
    return None


def _unique(items: list[Path]) -> list[Path]:
    out: list[Path] = []
    for p in items:
        if p not in out:
            out.append(p)
    return out


__all__ = ["FALLBACK_INCLUDE", "HostUtPlan", "l0_dependencies", "level2_dir", "operator_of_test", "plan"]
