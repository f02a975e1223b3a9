"""opsnn.capi: the acl/aclnn C ABI, so C and C++ programs written for CANN compile and run on opsnn.

    g++ prog.cpp $(python -m opsnn.capi --cflags --libs) -o prog && ./prog

Headers (acl/acl.h, aclnn/*.h, aclnnop/aclnn_<op>.h) and one library, lib/libascendcl.so, with
upstream's other link names; every call runs on the Python runtime and aclnn layers through an
embedded interpreter (docs/c-abi.md). The operator headers and entry points are generated from
each operator's op_api/aclnn_signature.py."""
from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
LINK_NAMES = ("ascendcl", "nnopbase", "opapi_nn", "opapi_math")  # upstream's link line (and opapi)


def include_dir() -> Path:
    return PACKAGE_DIR / "include"


def lib_dir() -> Path:
    return PACKAGE_DIR / "lib"


def cflags() -> str:
    """Include flags resolving "acl/acl.h", "aclnnop/aclnn_<op>.h" and bare "aclnn_<op>.h"."""
    inc = include_dir()
    return f"-I{inc} -I{inc / 'aclnnop'} -I{inc / 'aclnn'}"


def libs() -> str:
    """-L, an rpath (the program finds the library without LD_LIBRARY_PATH) and the -l names."""
    lib = lib_dir()
    return f"-L{lib} -Wl,-rpath,{lib} " + " ".join(f"-l{n}" for n in LINK_NAMES)


def cmake_dir() -> Path:
    return PACKAGE_DIR / "cmake"


def pkgconfig_dir() -> Path:
    return PACKAGE_DIR / "pkgconfig"


def is_built() -> bool:
    return (lib_dir() / "libascendcl.so").is_file()
