"""Build the C ABI: generate the operator headers and entry points from the declarations, compile
them with the shim into one library, lib/libascendcl.so, and give it upstream's other link names.

One real library: libascendcl.so (SONAME libascendcl.so, DT_NEEDED libpython with an rpath to
it). libnnopbase.so, libopapi_nn.so, libopapi_math.so, libopapi.so and libacl_rt.so are symlinks
to it, so `-lascendcl -lnnopbase -lopapi_nn -lopapi_math` (or any one of them) links, and the
program needs only libascendcl.so at run time. Needs a C++ compiler and a shared libpython;
without them `BuildUnavailable` says which is missing.

Built into `opsnn.capi.build_root()` (per environment, writable; never the package's own folder):
include/ (the static headers copied, the generated aclnnop/ ones), lib/ and lib64/ (an alias for
build files written for a CANN toolkit, which look there), cmake/ and pkgconfig/. A build is made
beside them (a hidden sibling folder) and each of its folders then takes the old one's place in
one rename (Linux's RENAME_EXCHANGE; lib/, which holds the stamp, last), so a process using the
folder never sees a half-written header or library: it has the old build or the new one (a
library it loaded stays mapped). Other folders there (kt/: the C++ kernel runtime) are left alone.
The build is keyed by content: the sources, the declarations, the compiler and this environment's
interpreter however it is spelled (.venv/bin/python and .venv/bin/python3 are one interpreter)."""
from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
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


_CONFIG_LOCK = threading.Lock()


def compiler() -> list[str]:
    # sysconfig fills its variables on first use, and a thread reading them while another fills them
    # can find CXX missing (builds compile in thread pools): one thread at a time here. Seen as one
    # object of a cached build compiled with c++ instead of g++, so its next run recompiled it.
    with _CONFIG_LOCK:
        configured = sysconfig.get_config_var("CXX")
    cxx = os.environ.get("CXX") or configured or ""
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


def canonical_python(python: str) -> str:
    """One spelling of an interpreter: python / python3 / python3.X in one folder, links to one
    file, are the same program (the embedded interpreter finds its venv from that folder), so they
    make one build, not one each (they used to rebuild the C ABI in turn)."""
    path = Path(python).absolute()
    try:
        target = path.resolve(strict=True)
    except OSError:
        return str(path)
    for name in ("python3", "python", f"python{sys.version_info[0]}.{sys.version_info[1]}"):
        other = path.parent / name
        try:
            if other.resolve(strict=True) == target:
                return str(other)
        except OSError:
            continue
    return str(path)


def _plan(python: str):
    """What a build compiles, and its digest (any change rebuilds)."""
    python = canonical_python(python)
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
    aclnnop/ ones), lib/ (and its alias lib64/), cmake/ and pkgconfig/, each made beside and
    renamed into place (the module's doc). Skipped when nothing changed. Returns lib/'s path."""
    dest = (build_root() if dest is None else Path(dest)).resolve()
    python = canonical_python(python or sys.executable)  # the embedded interpreter's program name: finds this venv
    cxx, libdir, pylib, headers, source, digest = _plan(python)
    if not force and _stamped(dest / "lib", digest):
        return dest / "lib"
    if dest == PACKAGE_DIR:
        raise ValueError("the C ABI is built outside the package's own folder (opsnn.capi.build_root())")
    try:
        dest.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise BuildUnavailable(f"cannot write {dest}: {e.strerror} (set {DIR_VARIABLE} to a writable folder)") from e
    if not os.access(dest, os.W_OK):
        raise BuildUnavailable(f"cannot write {dest} (set {DIR_VARIABLE} to a writable folder)")
    staging = Path(tempfile.mkdtemp(prefix=f".{dest.name}.build-", dir=dest.parent))
    try:
        _make_tree(staging, cxx, libdir, pylib, headers, source, digest, python, verbose)
        for name in _TREE:  # lib/ (the stamp) last: a build is whole once it is there
            _replace(staging / name, dest / name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return dest / "lib"


_TREE = ("cmake", "pkgconfig", "include", "lib64", "lib")  # the folders a build owns in its root


def _make_tree(root: Path, cxx, libdir, pylib, headers, source, digest, python, verbose) -> None:
    """A whole build in `root` (a fresh folder nobody else uses)."""
    include, lib = root / "include", root / "lib"
    for rel in (*(f"include/{h}" for h in _STATIC_HEADERS), *_SHIPPED):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(PACKAGE_DIR / rel, root / rel)
    (include / "aclnnop").mkdir(parents=True, exist_ok=True)
    for name, text in headers.items():
        (include / "aclnnop" / name).write_text(text)
    lib.mkdir(parents=True, exist_ok=True)
    (root / "ops.cpp").write_text(source)
    cmd = [*cxx, "-std=c++17", "-O2", "-fPIC", "-shared", "-fvisibility=hidden", "-Wall", "-Wextra",
           f"-I{include}", f"-I{PACKAGE_DIR / 'src'}", f"-I{sysconfig.get_paths()['include']}",
           f'-DOPSNN_CAPI_PYTHON="{_c_string(python)}"',
           f'-DOPSNN_CAPI_STDLIB="{_c_string(sysconfig.get_paths()["stdlib"])}"',
           f'-DOPSNN_CAPI_ROOT="{_c_string(str(PACKAGE_DIR.parents[1]))}"',
           str(PACKAGE_DIR / "src" / "capi.cpp"), str(root / "ops.cpp"), "-o", str(lib / LIBRARY),
           f"-Wl,-soname,{LIBRARY}", f"-L{libdir}", f"-l{pylib}", f"-Wl,-rpath,{libdir}", "-ldl", "-pthread"]
    if verbose:
        print(" ".join(shlex.quote(c) for c in cmd), file=sys.stderr)
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"compiling the C ABI failed:\n{done.stderr}")
    (root / "ops.cpp").unlink()
    for alias in ALIASES:
        try:
            (lib / alias).symlink_to(LIBRARY)
        except OSError:  # no symlinks here: a copy answers to the name just as well (same SONAME)
            shutil.copyfile(lib / LIBRARY, lib / alias)
    try:  # CANN's toolkits (and upstream's CMakeLists) keep the libraries in lib64/
        (root / "lib64").symlink_to("lib", target_is_directory=True)
    except OSError:
        shutil.copytree(lib, root / "lib64", symlinks=True)
    (lib / _STAMP).write_text(digest)


def _replace(new: Path, old: Path) -> None:
    """`new` takes `old`'s place in one step where the system can (old, if any, ends at `new`'s
    path, which the caller removes); else old moves aside first (a moment without it)."""
    if old.is_symlink() or old.exists():
        if _exchange(new, old):
            return
        aside = new.with_name(new.name + ".old")
        os.rename(old, aside)
    os.rename(new, old)


def _exchange(a: Path, b: Path) -> bool:
    """renameat2(RENAME_EXCHANGE): a and b swap names atomically (Linux 3.15+, glibc 2.28+)."""
    import ctypes
    import ctypes.util
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    return renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0


def _c_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def built(dest: Path | None = None) -> bool:
    return ((build_root() if dest is None else Path(dest)) / "lib" / LIBRARY).is_file()
