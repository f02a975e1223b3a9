"""opsnn.capi: the acl/aclnn C ABI, so C and C++ programs written for CANN compile and run on opsnn.

    g++ prog.cpp $(python -m opsnn.capi --cflags --libs) -o prog && ./prog

Headers (acl/acl.h, aclnn/*.h, aclnnop/aclnn_<op>.h) and one library, lib/libascendcl.so, with
upstream's other link names; every call runs on the Python runtime and aclnn layers through an
embedded interpreter (docs/c-abi.md). The operator headers and entry points are generated from
each operator's op_api/aclnn_signature.py.

Where it is built (`build_root()`): per environment, never inside the installed package (a
read-only install, a shared venv): $OPSNN_CAPI_DIR when set, else <sys.prefix>/share/opsnn/capi
where that can be written, else a per-user cache folder keyed by the environment. The folder
holds include/, lib/ (and lib64/, an alias for build files that look there), cmake/ and
pkgconfig/, the layout of a CANN toolkit's."""
from __future__ import annotations

import os
import sys
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
LINK_NAMES = ("ascendcl", "nnopbase", "opapi_nn", "opapi_math")  # upstream's link line (and opapi)
LIBRARY = "libascendcl.so"
DIR_VARIABLE = "OPSNN_CAPI_DIR"  # where to build and find the C ABI (default: see build_root)


def _writable(path: Path) -> bool:
    """Whether `path` exists writable or could be made (its nearest existing ancestor is writable)."""
    for p in (path, *path.parents):
        if p.exists():
            return p.is_dir() and os.access(p, os.W_OK | os.X_OK)
    return False


def environment_cache() -> Path:
    """The per-user folder for this environment: $XDG_CACHE_HOME (or ~/.cache)/opsnn/capi/<env>."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    import hashlib  # here: ~4 ms (OpenSSL), which a program's aclInit should not pay when it is not needed

    tag = hashlib.sha256(f"{sys.prefix}|{sys.version}".encode()).hexdigest()[:12]
    return base / "opsnn" / "capi" / f"py{sys.version_info[0]}.{sys.version_info[1]}-{tag}"


def build_root() -> Path:
    """The folder the C ABI is built into and found in, for this environment (see the module's doc)."""
    explicit = os.environ.get(DIR_VARIABLE, "").strip()
    if explicit:
        return Path(explicit).expanduser().resolve()
    shared, cache = Path(sys.prefix) / "share" / "opsnn" / "capi", environment_cache()
    for candidate in (shared, cache):
        if (candidate / "lib" / LIBRARY).is_file():
            return candidate
    return shared if _writable(shared) else cache


def include_dir() -> Path:
    return build_root() / "include"


def lib_dir() -> Path:
    return build_root() / "lib"


def cflags() -> str:
    """Include flags resolving "acl/acl.h", "aclnnop/aclnn_<op>.h" and bare "aclnn_<op>.h"."""
    inc = include_dir()
    return f"-I{inc} -I{inc / 'aclnnop'} -I{inc / 'aclnn'}"


def libs() -> str:
    """-L, an rpath (the program finds the library without LD_LIBRARY_PATH) and the -l names."""
    lib = lib_dir()
    return f"-L{lib} -Wl,-rpath,{lib} " + " ".join(f"-l{n}" for n in LINK_NAMES)


def cmake_dir() -> Path:
    return build_root() / "cmake"


def pkgconfig_dir() -> Path:
    return build_root() / "pkgconfig"


def is_built() -> bool:
    return (lib_dir() / LIBRARY).is_file()
