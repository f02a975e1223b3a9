"""Build the C ABI: generate the operator headers and entry points from the declarations, compile
them with the shim into one library, lib/libascendcl.so, and give it upstream's other link names.

One real library: libascendcl.so (SONAME libascendcl.so, DT_NEEDED libpython with an rpath to
it). libnnopbase.so, libopapi_nn.so, libopapi_math.so, libopapi.so and libacl_rt.so are symlinks
to it, so `-lascendcl -lnnopbase -lopapi_nn -lopapi_math` (or any one of them) links, and the
program needs only libascendcl.so at run time. Needs a C++ compiler and a shared libpython;
without them `BuildUnavailable` says which is missing.

Built into `opsnn.capi.build_root()` (per environment, writable; never the package's own folder):
include/ (the static headers copied, the generated aclnnop/ ones), lib/ and lib64/ (an alias for
build files written for a CANN toolkit, which look there), cmake/ and pkgconfig/."""
from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from opsnn.aclnn.declarations import all_apis

from . import DIR_VARIABLE, LIBRARY, PACKAGE_DIR, build_root, codegen

ALIASES = ("libnnopbase.so", "libopapi_nn.so", "libopapi_math.so", "libopapi.so", "libacl_rt.so")
_SOURCES = ("src/capi.cpp", "src/capi_internal.h")
_STATIC_HEADERS = ("acl/acl.h", "acl/acl_rt.h", "acl/acl_base.h", "acl/acl_base_rt.h", "aclnn/acl_meta.h",
                   "aclnn/aclnn_base.h", "aclnnop/aclnn_util.h", "opsnn/opsnn_capi.h")
_SHIPPED = ("cmake/opsnnConfig.cmake", "cmake/opsnnConfigVersion.cmake", "pkgconfig/opsnn.pc")
_STAMP = ".build-stamp"


class BuildUnavailable(RuntimeError):
    """No C++ compiler or no shared libpython: the C ABI cannot be built here."""


def compiler() -> list[str]:
    cxx = os.environ.get("CXX") or sysconfig.get_config_var("CXX") or ""
    argv = shlex.split(cxx)
    if argv and shutil.which(argv[0]):
        return argv
    for name in ("c++", "g++", "clang++"):
        if shutil.which(name):
            return [name]
    raise BuildUnavailable("no C++ compiler found (set CXX)")


def libpython() -> tuple[str, str]:
    """(directory, -l name) of the shared libpython this interpreter runs on."""
    libdir = sysconfig.get_config_var("LIBDIR") or ""
    ldlib = sysconfig.get_config_var("LDLIBRARY") or ""
    if not sysconfig.get_config_var("Py_ENABLE_SHARED") or not ldlib.endswith(".so") \
            or not (Path(libdir) / ldlib).exists():
        raise BuildUnavailable(f"this Python ({sys.executable}) has no shared libpython "
                               "(build CPython with --enable-shared)")
    return libdir, ldlib[3:-3]


def _generated(apis, origins) -> tuple[dict[str, str], str]:
    return codegen.headers(apis, origins), codegen.entry_points(apis)


def _origins(apis) -> dict[str, str]:
    from opsnn import registry
    from opsnn.aclnn.declarations import operator_apis
    out = {}
    for op in registry.discover().values():
        for api in operator_apis(op):
            out[api.name] = f"{op.package}.op_api.aclnn_signature"
    return {a.name: out.get(a.name, "?") for a in apis}


def _plan(python: str):
    """What a build compiles, and its digest (any change rebuilds)."""
    cxx = compiler()
    libdir, pylib = libpython()
    apis = all_apis()
    headers, source = _generated(apis, _origins(apis))
    digest = hashlib.sha256()
    for part in (python, " ".join(cxx), libdir, pylib, PACKAGE_DIR, source, *sorted(headers.items())):
        digest.update(str(part).encode())
    for rel in _SOURCES + tuple(f"include/{h}" for h in _STATIC_HEADERS) + _SHIPPED:
        digest.update((PACKAGE_DIR / rel).read_bytes())
    return cxx, libdir, pylib, headers, source, digest.hexdigest()


def _stamped(lib: Path, digest: str) -> bool:
    stamp = lib / _STAMP
    return stamp.is_file() and stamp.read_text() == digest and (lib / LIBRARY).is_file()


def up_to_date(dest: Path | None = None) -> bool:
    """Whether `dest` (default: `build_root()`) holds a build of these sources for this Python
    (where nothing can be built here, whether a library is there at all)."""
    dest = (build_root() if dest is None else Path(dest)).resolve()
    try:
        digest = _plan(sys.executable)[-1]
    except BuildUnavailable:
        return (dest / "lib" / LIBRARY).is_file()
    return _stamped(dest / "lib", digest)


def build(dest: Path | None = None, *, python: str | None = None, force: bool = False, verbose: bool = False) -> Path:
    """Build into `dest` (default: `build_root()`): include/ (the static headers and the generated
    aclnnop/ ones), lib/ (and its alias lib64/), cmake/ and pkgconfig/. Skipped when nothing
    changed. Returns lib/'s path."""
    dest = (build_root() if dest is None else Path(dest)).resolve()
    python = python or sys.executable  # the embedded interpreter's program name: finds this venv
    cxx, libdir, pylib, headers, source, digest = _plan(python)
    include, lib = dest / "include", dest / "lib"
    stamp = lib / _STAMP
    if not force and _stamped(lib, digest):
        return lib
    if dest == PACKAGE_DIR:
        raise ValueError("the C ABI is built outside the package's own folder (opsnn.capi.build_root())")
    try:
        dest.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise BuildUnavailable(f"cannot write {dest}: {e.strerror} (set {DIR_VARIABLE} to a writable folder)") from e
    if not os.access(dest, os.W_OK):
        raise BuildUnavailable(f"cannot write {dest} (set {DIR_VARIABLE} to a writable folder)")
    for rel in (*(f"include/{h}" for h in _STATIC_HEADERS), *_SHIPPED):
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(PACKAGE_DIR / rel, dest / rel)
    for stale in (include / "aclnnop").glob("aclnn_*.h"):  # an operator no longer declared
        if stale.name != "aclnn_util.h" and stale.name not in headers:
            stale.unlink()
    (include / "aclnnop").mkdir(parents=True, exist_ok=True)
    for name, text in headers.items():
        _write_if_changed(include / "aclnnop" / name, text)
    lib.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="opsnn-capi-") as tmp:
        ops = Path(tmp) / "ops.cpp"
        ops.write_text(source)
        out = Path(tmp) / LIBRARY
        cmd = [*cxx, "-std=c++17", "-O2", "-fPIC", "-shared", "-fvisibility=hidden", "-Wall", "-Wextra",
               f"-I{include}", f"-I{PACKAGE_DIR / 'src'}", f"-I{sysconfig.get_paths()['include']}",
               f'-DOPSNN_CAPI_PYTHON="{_c_string(python)}"',
               f'-DOPSNN_CAPI_STDLIB="{_c_string(sysconfig.get_paths()["stdlib"])}"',
               f'-DOPSNN_CAPI_ROOT="{_c_string(str(PACKAGE_DIR.parents[1]))}"',
               str(PACKAGE_DIR / "src" / "capi.cpp"), str(ops), "-o", str(out),
               f"-Wl,-soname,{LIBRARY}", f"-L{libdir}", f"-l{pylib}", f"-Wl,-rpath,{libdir}", "-ldl", "-pthread"]
        if verbose:
            print(" ".join(shlex.quote(c) for c in cmd), file=sys.stderr)
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"compiling the C ABI failed:\n{done.stderr}")
        os.replace(out, lib / LIBRARY) if out.stat().st_dev == lib.stat().st_dev else shutil.move(out, lib / LIBRARY)
    for alias in ALIASES:
        link = lib / alias
        if link.is_symlink() or link.exists():
            link.unlink()
        try:
            link.symlink_to(LIBRARY)
        except OSError:  # no symlinks here: a copy answers to the name just as well (same SONAME)
            shutil.copyfile(lib / LIBRARY, link)
    lib64 = dest / "lib64"  # CANN's toolkits (and upstream's CMakeLists) keep the libraries there
    if not lib64.is_symlink() and not lib64.exists():
        try:
            lib64.symlink_to("lib", target_is_directory=True)
        except OSError:
            shutil.copytree(lib, lib64, symlinks=True)
    stamp.write_text(digest)
    return lib


def _c_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _write_if_changed(path: Path, text: str) -> None:
    if not path.is_file() or path.read_text() != text:
        path.write_text(text)


def built(dest: Path | None = None) -> bool:
    return ((build_root() if dest is None else Path(dest)) / "lib" / LIBRARY).is_file()
