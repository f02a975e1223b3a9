"""The C ABI's tests compile C/C++ programs once per session (each cached by source and flags)
and run them as subprocesses; skipped where no C++ compiler or no shared libpython exists."""
from __future__ import annotations

import ctypes
import hashlib
import subprocess
from pathlib import Path

import pytest

PROGRAMS = Path(__file__).parent / "programs"


@pytest.fixture(scope="session")
def capi_built():
    from opsnn.capi.build import BuildUnavailable, build
    try:
        return build()
    except BuildUnavailable as e:
        pytest.skip(f"the C ABI cannot be built here: {e}")


@pytest.fixture(scope="session")
def lib(capi_built):
    """The library loaded into this Python with ctypes, as a C program calls it: the signatures the
    in-process tests pass pointers and handles through."""
    lib = ctypes.CDLL(str(capi_built / "libascendcl.so"))
    i64p = ctypes.POINTER(ctypes.c_int64)
    lib.aclGetRecentErrMsg.restype = ctypes.c_char_p
    lib.opsnnGetDeviceMode.restype = ctypes.c_char_p
    lib.aclCreateScalar.restype = ctypes.c_void_p
    lib.aclCreateTensor.restype = ctypes.c_void_p
    lib.aclCreateTensor.argtypes = [i64p, ctypes.c_uint64, ctypes.c_int, i64p, ctypes.c_int64, ctypes.c_int, i64p,
                                    ctypes.c_uint64, ctypes.c_void_p]
    lib.aclDestroyTensor.argtypes = [ctypes.c_void_p]
    lib.aclrtMalloc.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t, ctypes.c_int]
    lib.aclrtFree.argtypes = [ctypes.c_void_p]
    lib.aclrtMemcpy.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    return lib


class Compiler:
    """compile(source, std=, c=) -> path of the binary, compiled once per session."""

    def __init__(self, root: Path):
        self.root = root
        self._done: dict[str, Path] = {}

    def __call__(self, source: Path, *, std: str | None = None, c: bool = False) -> Path:
        from opsnn.capi.programs import compile_program
        key = hashlib.sha1(f"{source}|{std}|{c}".encode()).hexdigest()[:12]
        if key not in self._done:
            self._done[key] = compile_program(source, self.root / f"{source.stem}-{key}", std=std, c=c)
        return self._done[key]


@pytest.fixture(scope="session")
def compiled(capi_built, tmp_path_factory):
    return Compiler(tmp_path_factory.mktemp("capi-programs"))


def run(program: Path, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    import os
    return subprocess.run([str(program)], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def values(stdout: str) -> dict[str, str]:
    """key=value lines of a test program."""
    return dict(line.split("=", 1) for line in stdout.splitlines() if "=" in line)
