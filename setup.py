"""The compiled engine: the fast path's select in C (opsnn/engine/_select.c), every layout.

Optional: where no C compiler is found (or it fails), the install goes on without it and the
fast path runs on the numpy engine alone, with a warning saying what is lost and how to get it;
`opsnn info` says afterwards whether it was built and which engine a call gets. Nothing is ever
compiled at run time."""
import importlib.util
import sys
from pathlib import Path

import numpy
from setuptools import Extension, setup
from setuptools.command.build import build
from setuptools.command.build_ext import build_ext

NOT_BUILT = """
********************************************************************************
WARNING: opsnn's C engine (opsnn/engine/_select.c) was NOT built:
  {error}
opsnn works without it, but every fast-path call then runs on the numpy
engine, several times slower (up to 70x on small calls).
To build it, install a C compiler and the Python headers and reinstall opsnn:
  Debian/Ubuntu: apt install gcc python3-dev    Fedora/RHEL: dnf install gcc python3-devel
  macOS: xcode-select --install
`opsnn info` says whether it is built.
********************************************************************************
"""


class BuildExt(build_ext):
    """setuptools' optional extension prints one line among hundreds (and pip hides it): say it loudly."""

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as e:  # any compiler failure (no gcc, no Python.h, ...): the lane is optional
            if not ext.optional:
                raise
            print(NOT_BUILT.format(error=str(e).strip() or type(e).__name__), file=sys.stderr, flush=True)


# The acl/aclnn C ABI: its own optional step after build_ext (opsnn/capi/setup_step.py, loaded by path).
CMDCLASS = {"build_ext": BuildExt}
_capi_step_file = Path(__file__).resolve().parent / "opsnn" / "capi" / "setup_step.py"
if _capi_step_file.is_file():
    _spec = importlib.util.spec_from_file_location("opsnn_capi_setup_step", _capi_step_file)
    _capi_step = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(_capi_step)
    CMDCLASS["build_capi"] = _capi_step.BuildCapi
    build.sub_commands.append(("build_capi", None))

setup(cmdclass=CMDCLASS, ext_modules=[Extension(
    "opsnn.engine._select", ["opsnn/engine/_select.c"],
    include_dirs=[numpy.get_include()],
    extra_compile_args=["-O3", "-fno-strict-aliasing", "-Wno-unknown-pragmas"],
    optional=True,
)])
