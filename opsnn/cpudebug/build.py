"""Build libopsnn_kt.so, the CPU-debug runtime's C side (src/runtime.cpp), once per environment.

It is built where the C ABI is (opsnn.capi.build_root(), a folder the user can write: never the
installed package), in kt/lib, keyed by a digest of its source, the compiler and this Python, so a
changed runtime or interpreter rebuilds it and an unchanged one costs nothing."""
from __future__ import annotations

import hashlib
import os
import shlex
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from opsnn.capi import build_root
from opsnn.capi.build import BuildUnavailable, compiler, libpython

PACKAGE_DIR = Path(__file__).resolve().parent
INCLUDE_DIR = PACKAGE_DIR / "include"
# the host twin's headers (graph/types.h, ...): kernels and their tiling headers include some; after ours
HOST_INCLUDE_DIR = PACKAGE_DIR.parent / "host" / "include"
# The toolkit's include tree has the ACL headers beside the kernel headers; a few kernels include
# <acl/acl.h> (for nothing a kernel runs). Searched last, so kernel headers win any name.
ACL_INCLUDE_DIR = PACKAGE_DIR.parent / "capi" / "include"
LIBRARY = "libopsnn_kt.so"
_SOURCES = ("src/runtime.cpp", "include/opsnn_kt/abi.h")


def lib_dir() -> Path:
    return build_root() / "kt" / "lib"


def _digest(cxx: list[str], libdir: str, pylib: str) -> str:
    h = hashlib.sha256()
    for part in (sys.executable, " ".join(cxx), libdir, pylib):
        h.update(part.encode())
    for rel in _SOURCES:
        h.update((PACKAGE_DIR / rel).read_bytes())
    return h.hexdigest()


def build(force: bool = False, verbose: bool = False) -> Path:
    """The library's path, built first where missing or out of date.

    Raises
    ------
    BuildUnavailable
        No C++ compiler or no shared libpython.
    RuntimeError
        The compiler failed (its output in the message).
    """
    cxx = compiler()
    libdir, pylib = libpython()
    out_dir = lib_dir()
    target, stamp = out_dir / LIBRARY, out_dir / ".stamp"
    digest = _digest(cxx, libdir, pylib)
    if not force and target.is_file() and stamp.is_file() and stamp.read_text() == digest:
        return target
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="opsnn-kt-", dir=out_dir) as tmp:
        tmp_lib = Path(tmp) / LIBRARY
        cmd = [*cxx, "-std=c++17", "-O2", "-fPIC", "-shared", "-Wall", "-Wextra", f"-I{INCLUDE_DIR}",
               f"-I{sysconfig.get_paths()['include']}", f'-DOPSNN_KT_PYTHON="{_c_string(sys.executable)}"',
               str(PACKAGE_DIR / "src" / "runtime.cpp"), "-o", str(tmp_lib), f"-Wl,-soname,{LIBRARY}",
               f"-L{libdir}", f"-l{pylib}", f"-Wl,-rpath,{libdir}"]
        if verbose:
            print(" ".join(shlex.quote(c) for c in cmd), file=sys.stderr)
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"compiling the CPU-debug runtime failed:\n{done.stderr}")
        os.replace(tmp_lib, target)
    stamp.write_text(digest)
    return target


_CMAKE_CONFIG = """# CMake package config for opsnn's CPU-debug runtime (docs/cpp-kernels.md), written by opsnn:
#   cmake -Dopsnn_kernel_DIR=$(python -m opsnn.capi --kernel-cmakedir) ...
#   find_package(opsnn_kernel REQUIRED)
#   find_package(GTest REQUIRED)
#   add_executable(test_op test_op.cpp)
#   target_link_libraries(test_op PRIVATE opsnn::kernel GTest::gtest_main)
if(NOT TARGET opsnn::kernel)
  add_library(opsnn::kernel SHARED IMPORTED)
  set_target_properties(opsnn::kernel PROPERTIES
    IMPORTED_LOCATION "{library}"
    IMPORTED_SONAME "libopsnn_kt.so"
    INTERFACE_INCLUDE_DIRECTORIES "{include}"
    INTERFACE_COMPILE_DEFINITIONS "__CCE_KT_TEST__"
    INTERFACE_COMPILE_FEATURES "cxx_std_17")
endif()
"""


def cmake_dir() -> Path:
    """A folder holding opsnn_kernelConfig.cmake (written with the library's and headers' paths)."""
    d = lib_dir().parent / "cmake"
    d.mkdir(parents=True, exist_ok=True)
    text = _CMAKE_CONFIG.format(library=lib_dir() / LIBRARY, include=f"{INCLUDE_DIR};{HOST_INCLUDE_DIR}")
    config = d / "opsnn_kernelConfig.cmake"
    if not config.is_file() or config.read_text() != text:
        config.write_text(text)
    return d


def kernel_flags(wanted: list[str]) -> tuple[int, list[str]]:
    """(status, values) for `python -m opsnn.capi --kernel-cflags/--kernel-libs/--kernel-cmakedir`:
    the runtime is built first where missing (a note on stderr); where it cannot be, the flags
    are printed all the same, the reason goes to stderr and the status is 1."""
    status = 0
    try:
        if not (lib_dir() / LIBRARY).is_file():
            print(f"opsnn: building the CPU-debug runtime into {lib_dir()} ...", file=sys.stderr, flush=True)
        build()
    except (BuildUnavailable, RuntimeError, OSError) as e:
        print(f"opsnn: the CPU-debug runtime is not built ({lib_dir()}): {e}", file=sys.stderr)
        status = 1
    values = {"kernel_cflags": lambda: " ".join(kernel_cflags()), "kernel_libs": lambda: " ".join(kernel_libs()),
              "kernel_cmakedir": lambda: str(cmake_dir())}
    return status, [values[k]() for k in wanted]


def kernel_cflags() -> list[str]:
    """What a kernel or its UT compiles with: the headers, C++17, __CCE_KT_TEST__. The host twin's
    base/context_builder too, as upstream's cmake/ut.cmake gives op_kernel UTs the toolkit's (its
    tests/ut/common helpers include the context builders by their bare names), and, searched last,
    the ACL headers and opbase's op_common (an op_host tiling header a UT includes names
    "op_host/tiling_base_util.h"), as its OPBASE_INC_DIRS do."""
    return ["-std=c++17", f"-I{INCLUDE_DIR}", f"-I{HOST_INCLUDE_DIR}",
            f"-I{HOST_INCLUDE_DIR / 'base' / 'context_builder'}", f"-idirafter{ACL_INCLUDE_DIR}",
            f"-idirafter{HOST_INCLUDE_DIR / 'op_common'}", "-D__CCE_KT_TEST__"]


def kernel_libs() -> list[str]:
    """What it links with: the runtime (with an rpath, so the program finds it) and pthread."""
    d = lib_dir()
    return [f"-L{d}", f"-Wl,-rpath,{d}", "-lopsnn_kt", "-lpthread"]


def _c_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


__all__ = ["BuildUnavailable", "build", "kernel_cflags", "kernel_libs", "lib_dir"]
