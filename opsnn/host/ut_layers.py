"""How `opsnn ut` builds upstream's op_host and op_api unit tests against the host twin.

`plan(layer, test, socs, defines)` says what to compile and link; opsnn/cpudebug/ut.py compiles,
links, caches and runs it as it does an op_kernel test. The plan follows upstream's
cmake/ut.cmake:

op_host (tiling and infershape UTs): the test; its operator's op_host sources (OpDef, infershape,
tiling, and the compute unit's tiling folder: opsnn.host.op_folder reads them as
add_modules_sources does); the checkout's tests/ut/common helpers (context fakers, case executors,
ut_op_common; compiled once per checkout and flags into objects kept beside libopsnn_host); the
checkout's tests/ut/op_host/test_op_host_main.cpp as main where it has one (gtest's main
otherwise). Compiled with -fno-access-control, LOG_CPP and BUILD_SOC_VERSION=<compute unit>;
include folders as upstream's: tests/ut/common, the checkout root, common/inc(/op_host),
common/include, the op_host folder and the folder two above it, then the host twin's headers where
a CANN toolkit puts its (include, include/exe_graph, include/base/context_builder, include/graph,
opbase's op_common and op_common/op_host). _GLIBCXX_USE_CXX11_ABI is left at the compiler's
default: every object, the host twin included, is compiled here with the same one.

An op_host build is for one compute unit (BUILD_SOC_VERSION and the tiling folder are compiled
in), so the SoCs asked for must share a family. A test_aclnn_*.cpp in an op_host folder is an op_api
test (upstream's cmake/ut.cmake builds it with the op_api module)."""
from __future__ import annotations

import fcntl
import hashlib
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from opsnn.capi.build import compiler
from opsnn.cpudebug import build as kt_build
from opsnn.host import build as host_build
from opsnn.host import op_folder, ut_op_api
from opsnn.host.build import host_include_dirs
from opsnn.host.ut_op_api import HostUtPlan
from opsnn.platform import DEFAULT_SOC, get_platform

LAYERS = ("op_host", "op_api")
HOST_CFLAGS = ("-std=c++17", "-fno-access-control", "-DLOG_CPP")


def plan(layer: str, test: Path, socs: list[str], defines: list[str]) -> HostUtPlan:
    """What building `test` (an upstream UT of `layer`) takes, for `socs` (opsnn SoC names; empty:
    the default SoC). `defines` are the caller's -D options (it adds them to every compile line).

    Raises
    ------
    ValueError
        An unknown layer or SoC, SoCs of several families, a test outside an operator folder or
        an ops-nn checkout.
    """
    test = Path(test).resolve()
    if layer == "op_host" and test.name.startswith("test_aclnn_"):
        layer = "op_api"  # upstream's op_host folders also hold op_api tests: its cmake takes test_aclnn_*.cpp as those
    if layer == "op_host":
        return _plan_op_host(test, socs, defines)
    if layer == "op_api":
        return _plan_op_api(Path(test).resolve(), socs, defines)
    raise ValueError(f"unknown unit-test layer {layer!r}; known: {', '.join(LAYERS)}")


def _family(socs: list[str]) -> tuple[str, list[str]]:
    names = list(socs) or [DEFAULT_SOC]
    families = {}
    for name in names:
        families.setdefault(get_platform(name).family, []).append(name)  # ValueError for an unknown SoC
    if len(families) > 1:
        raise ValueError(f"op_host unit tests build for one compute unit; {', '.join(names)} are of "
                         f"{', '.join(sorted(families))}: run each family separately")
    family = next(iter(families))
    return family, families[family]


def _checkout_or_none(test: Path) -> Path | None:
    try:
        return _checkout_of(test)
    except ValueError:
        return None


def _checkout_of(test: Path) -> Path:
    for d in test.parents:
        if (d / "tests" / "ut" / "common").is_dir() and (d / "common" / "inc").is_dir():
            return d
    raise ValueError(f"{test} is not in an ops-nn checkout (no tests/ut/common and common/inc above it): "
                     "upstream's op_host UT helpers come from the checkout")


def _operator_of(test: Path) -> op_folder.OperatorFolder:
    """<op> of <op>/tests/ut/<layer>/.../test.cpp (the folder holding the tests/ folder)."""
    for d in test.parents:
        if d.name == "tests" and op_folder.is_operator_folder(d.parent):
            return op_folder.OperatorFolder(d.parent)
    raise ValueError(f"{test} is not under an operator folder's tests/ut (<op>/tests/ut/op_host/...)")


def _plan_op_host(test: Path, socs: list[str], defines: list[str]) -> HostUtPlan:
    family, chosen = _family(socs)
    root = _checkout_or_none(test)
    folder = _operator_of(test)
    op_host = folder.op_host_dir
    includes = [root / "tests" / "ut" / "common", root, root / "common" / "inc", root / "common" / "inc" / "op_host",
                root / "common" / "include"] if root is not None else []
    if op_host is not None:
        includes += [op_host, op_host.parent.parent]
    includes = [d for d in includes if d.is_dir()] + host_include_dirs()
    cflags = [*HOST_CFLAGS, f"-DBUILD_SOC_VERSION={family}"]
    # outside a checkout (an operator folder of one's own) there are no upstream fakers: a test
    # built on metadef's context builders alone needs none
    common = _common_objects(root / "tests" / "ut" / "common", includes, [*cflags, *defines]) if root else []
    main = root / "tests" / "ut" / "op_host" / "test_op_host_main.cpp" if root else Path("/nonexistent")
    sources = [test, *folder.host_sources(family)] + ([main] if main.is_file() else [])
    gtest = ["-lgtest"] if main.is_file() else ["-lgtest_main", "-lgtest"]
    try:
        host_build.build()
    except (RuntimeError, host_build.BuildUnavailable) as e:
        raise ValueError(f"the host twin (libopsnn_host.so) cannot be built: {e}") from None
    libs = [*map(str, common), *host_build.host_libs(), *gtest, "-lpthread", "-ldl"]
    return HostUtPlan(sources, includes, cflags, libs, {}, chosen)


def _plan_op_api(test: Path, socs: list[str], defines: list[str]) -> HostUtPlan:
    """opsnn.host.ut_op_api says what (and why it differs from upstream's build)."""
    for name in socs:
        get_platform(name)  # ValueError for an unknown SoC
    p = ut_op_api.plan(test, socs, defines)
    try:
        host_build.build()
    except (RuntimeError, host_build.BuildUnavailable) as e:
        raise ValueError(f"the host twin (libopsnn_host.so) cannot be built: {e}") from None
    return p


def _tree_digest(h, root: Path) -> None:
    if not root.is_dir():
        return
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.suffix in (".h", ".hpp", ".cpp"):
            h.update(str(path.relative_to(root)).encode())
            h.update(path.read_bytes())


def _common_objects(common: Path, includes: list[Path], flags: list[str]) -> list[Path]:
    """The checkout's tests/ut/common/*.cpp compiled once per content and flags (upstream builds
    them into one object library shared by every op_host test)."""
    cxx = compiler()
    cmd_base = [*cxx, *flags, *(f"-I{d}" for d in includes)]
    h = hashlib.sha256("\0".join(cmd_base).encode())
    for tree in (common, common.parent.parent.parent / "common", host_build.INCLUDE_DIR, kt_build.INCLUDE_DIR):
        _tree_digest(h, tree)
    out = host_build.lib_dir() / "ut-common" / h.hexdigest()[:20]
    sources = sorted(common.glob("*.cpp"))
    objects = [out / f"{s.stem}.o" for s in sources]
    if all(o.is_file() for o in objects):
        return objects
    out.mkdir(parents=True, exist_ok=True)
    with open(out / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        todo = [(s, o) for s, o in zip(sources, objects, strict=True) if not o.is_file()]

        def compile_one(job: tuple[Path, Path]) -> str:
            src, obj = job
            tmp = obj.with_name(f".{obj.name}.{os.getpid()}.tmp")
            done = subprocess.run([*cmd_base, "-c", str(src), "-o", str(tmp)], capture_output=True, text=True)
            if done.returncode != 0:
                tmp.unlink(missing_ok=True)
                return f"{src}:\n{done.stderr[-4000:]}"
            os.replace(tmp, obj)
            return ""

        with ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
            failures = [f for f in pool.map(compile_one, todo) if f]
    if failures:
        raise ValueError("compiling the checkout's tests/ut/common helpers against the host twin failed:\n"
                         + "\n".join(failures))
    return objects


__all__ = ["HostUtPlan", "LAYERS", "host_include_dirs", "plan"]
