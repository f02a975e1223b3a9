"""Build the C ABI: generate the operator headers and entry points from the declarations, compile
them with the shim into one library, lib/libascendcl.so, and give it upstream's other link names.

One real library: libascendcl.so (SONAME libascendcl.so, DT_NEEDED libpython with an rpath to
it). libnnopbase.so, libopapi_nn.so, libopapi_math.so, libopapi.so and libacl_rt.so are symlinks
to it, so `-lascendcl -lnnopbase -lopapi_nn -lopapi_math` (or any one of them) links, and the
program needs only libascendcl.so at run time. Needs a C++ compiler and a shared libpython;
without them `BuildUnavailable` says which is missing."""
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

from . import codegen

PACKAGE_DIR = Path(__file__).resolve().parent
LIBRARY = "libascendcl.so"
ALIASES = ("libnnopbase.so", "libopapi_nn.so", "libopapi_math.so", "libopapi.so", "libacl_rt.so")
_SOURCES = ("src/capi.cpp", "src/capi_internal.h")
_STATIC_HEADERS = ("acl/acl.h", "acl/acl_rt.h", "acl/acl_base.h", "acl/acl_base_rt.h", "aclnn/acl_meta.h",
                   "aclnn/aclnn_base.h", "aclnnop/aclnn_util.h")
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


def build(dest: Path | None = None, *, python: str | None = None, force: bool = False, verbose: bool = False) -> Path:
    """Build into `dest` (default: this package's directory): include/ (the static headers and
    the generated aclnnop/ ones) and lib/. Skipped when nothing changed. Returns lib/'s path."""
    dest = PACKAGE_DIR if dest is None else Path(dest)
    python = python or sys.executable  # the embedded interpreter's program name: finds this venv
    cxx = compiler()
    libdir, pylib = libpython()
    apis = all_apis()
    headers, source = _generated(apis, _origins(apis))

    include, lib = dest / "include", dest / "lib"
    digest = hashlib.sha256()
    for part in (python, " ".join(cxx), libdir, pylib, source, *sorted(headers.items())):
        digest.update(str(part).encode())
    for rel in _SOURCES + tuple(f"include/{h}" for h in _STATIC_HEADERS):
        digest.update((PACKAGE_DIR / rel).read_bytes())
    stamp = lib / _STAMP
    if not force and stamp.is_file() and stamp.read_text() == digest.hexdigest() and (lib / LIBRARY).is_file():
        return lib

    if dest != PACKAGE_DIR:  # a build tree: what ships beside the library goes with it
        for rel in (*(f"include/{h}" for h in _STATIC_HEADERS), *_SHIPPED):
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(PACKAGE_DIR / rel, dest / rel)
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
               str(PACKAGE_DIR / "src" / "capi.cpp"), str(ops), "-o", str(out),
               f"-Wl,-soname,{LIBRARY}", f"-L{libdir}", f"-l{pylib}", f"-Wl,-rpath,{libdir}", "-ldl"]
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
    stamp.write_text(digest.hexdigest())
    return lib


def _c_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _write_if_changed(path: Path, text: str) -> None:
    if not path.is_file() or path.read_text() != text:
        path.write_text(text)


def built(dest: Path | None = None) -> bool:
    return ((PACKAGE_DIR if dest is None else Path(dest)) / "lib" / LIBRARY).is_file()
