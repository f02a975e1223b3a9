"""Where opsnn.backends went (issue 29): it held threshold_backward's and threshold's numpy side,
now in their operator folder (opsnn/activation/threshold_grad_v2_d/backends/), and two generic
pieces, now opsnn.op_common.pool and opsnn.op_common.tiles. Nothing lives here; the old module
names still import (the same module objects: patching one patches the other), so that code
written against them keeps working. New code imports the new places."""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys

from opsnn.op_common.api_args import SEMANTICS  # noqa: F401 (read here by older callers)

_HERE = "opsnn.activation.threshold_grad_v2_d.backends"
MOVED = {**{name: f"{_HERE}.{name}" for name in ("ascend_rules", "emulator", "express", "fast", "keep_range",
                                                  "numpy_engine", "plan", "reference", "torch_rules")},
         "pool": "opsnn.op_common.pool", "tiles": "opsnn.op_common.tiles"}


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """opsnn.backends.<name> -> the module it moved to (imported on first use, as before)."""

    def find_spec(self, fullname, path=None, target=None):
        package, _, name = fullname.rpartition(".")
        if package != __name__ or name not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec):
        return importlib.import_module(MOVED[spec.name.rpartition(".")[2]])

    def exec_module(self, module):
        pass  # already executed under its own name


if not any(isinstance(f, _Alias) for f in sys.meta_path):
    sys.meta_path.insert(0, _Alias())


def __getattr__(name: str):
    if name in MOVED:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
