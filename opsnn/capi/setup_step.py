"""setup.py's step for the C ABI: `build_capi`, a sub-command of `build` run after build_ext.

setup.py loads this file by path (the package is not importable while pip builds it). The step
runs `opsnn.capi.build` in a child of the installing interpreter with pip's build-isolation
variables removed, so the operators' declarations import with the venv's own numpy/ml_dtypes.
Where it cannot (no C++ compiler, no shared libpython, the dependencies not installed yet on a
first install), the install goes on and a warning says how to build it afterwards:
`python -m opsnn.capi build` (the tests and `python -m opsnn.capi example` also build on demand)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from setuptools import Command

NOT_BUILT = """
********************************************************************************
NOTE: opsnn's acl/aclnn C interface (libascendcl.so, opsnn/capi) was not built now:
  {error}
Python users lose nothing. For C/C++ programs, build it once the install is done:
  python -m opsnn.capi build
(needs a C++ compiler and a Python built with --enable-shared)
********************************************************************************
"""
_ISOLATION = ("PYTHONPATH", "PYTHONNOUSERSITE", "PYTHONHOME", "PIP_BUILD_TRACKER")


class BuildCapi(Command):
    description = "build opsnn's acl/aclnn C ABI (optional)"
    user_options: list = []

    def initialize_options(self):
        self.build_lib = None
        self.editable_mode = False

    def finalize_options(self):
        self.set_undefined_options("build_py", ("build_lib", "build_lib"))

    def run(self):
        source = Path(__file__).resolve().parents[2]  # the source tree holding opsnn/
        dest = source / "opsnn" / "capi" if self.editable_mode else Path(self.build_lib) / "opsnn" / "capi"
        env = {k: v for k, v in os.environ.items() if k not in _ISOLATION}
        code = "import sys; from opsnn.capi.build import build; build(dest=sys.argv[1])"
        done = subprocess.run([sys.executable, "-c", code, str(dest)], cwd=source, env=env,
                              capture_output=True, text=True)
        if done.returncode != 0:
            lines = (done.stderr.strip() or "unknown error").splitlines()
            print(NOT_BUILT.format(error=lines[-1]), file=sys.stderr, flush=True)

    def get_outputs(self):
        return []

    def get_source_files(self):
        return []
