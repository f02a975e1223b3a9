"""setup.py's step for the C ABI: `build_capi`, a sub-command of `build` run after build_ext.

setup.py loads this file by path (the package is not importable while pip builds it). The C ABI
is never built into the package (nor into a wheel): it lives in a per-environment folder
(`opsnn.capi.build_root()`) and is built on first use (`python -m opsnn.capi --cflags`, `build`,
`example`, the tests). This step
- removes what an earlier build left in the build tree (a library, generated headers), so a wheel
  never ships a stale library;
- for an editable install, whose package stays where it is, builds it now in a child of the
  installing interpreter with pip's isolation variables removed (the operators' declarations
  import with the venv's own numpy); where it cannot (no C++ compiler, no shared libpython, the
  dependencies not installed yet on a first install) a note says so and the first use builds it."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Command

NOT_BUILT = """
********************************************************************************
NOTE: opsnn's acl/aclnn C interface (libascendcl.so, opsnn/capi) was not built now:
  {error}
Python users lose nothing. C/C++ programs get it built on first use
(`python -m opsnn.capi --cflags --libs`), or now:  python -m opsnn.capi build
(needs a C++ compiler and a Python built with --enable-shared; `opsnn info` says where it is)
********************************************************************************
"""
_ISOLATION = ("PYTHONPATH", "PYTHONNOUSERSITE", "PYTHONHOME", "PIP_BUILD_TRACKER")
_BUILT_IN_PACKAGE = ("lib", "lib64")  # what earlier versions built into the package's folder


def remove_stale(capi: Path) -> list[Path]:
    """Delete built files under a package tree's opsnn/capi (lib/, lib64/, the generated headers);
    the paths removed."""
    gone = []
    for name in _BUILT_IN_PACKAGE:
        if (capi / name).is_symlink() or (capi / name).is_file():
            (capi / name).unlink()
            gone.append(capi / name)
        elif (capi / name).is_dir():
            shutil.rmtree(capi / name)
            gone.append(capi / name)
    for header in (capi / "include" / "aclnnop").glob("aclnn_*.h"):
        if header.name != "aclnn_util.h":
            header.unlink()
            gone.append(header)
    return gone


class BuildCapi(Command):
    description = "build opsnn's acl/aclnn C ABI (optional; editable installs only, else on first use)"
    user_options: list = []

    def initialize_options(self):
        self.build_lib = None
        self.editable_mode = False

    def finalize_options(self):
        self.set_undefined_options("build_py", ("build_lib", "build_lib"))

    def run(self):
        source = Path(__file__).resolve().parents[2]  # the source tree holding opsnn/
        remove_stale(Path(self.build_lib) / "opsnn" / "capi")
        if not self.editable_mode:
            return
        env = {k: v for k, v in os.environ.items() if k not in _ISOLATION}
        code = "from opsnn.capi.build import build; print(build())"
        done = subprocess.run([sys.executable, "-c", code], cwd=source, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            lines = (done.stderr.strip() or "unknown error").splitlines()
            print(NOT_BUILT.format(error=lines[-1]), file=sys.stderr, flush=True)

    def get_outputs(self):
        return []

    def get_source_files(self):
        return []
