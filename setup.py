"""The one compiled piece: the express lane's select in C (opsnn/backends/_select.c).

Optional: where no C compiler is found (or it fails), the install goes on without it and the
fast path runs on numba (or numpy) alone; `opsnn.backends.express.engine()` says which."""
import numpy
from setuptools import Extension, setup

setup(ext_modules=[Extension(
    "opsnn.backends._select", ["opsnn/backends/_select.c"],
    include_dirs=[numpy.get_include()],
    extra_compile_args=["-O3", "-fno-strict-aliasing", "-Wno-unknown-pragmas"],
    optional=True,
)])
