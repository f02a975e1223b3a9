"""opsnn.aclnn: the aclnn framework (two phases, executor, workspace, l0 data-movement ops) and,
by name, every registered operator's public two-phase functions:

    workspace_size, executor, ret = aclnn.threshold_backward_get_workspace_size(grad_output, self, threshold, out)
    ret = aclnn.threshold_backward(workspace, workspace_size, executor, stream)

The framework knows no operator: a name it does not define itself is looked up in
opsnn.registry, where each operator folder lists its functions (imported on first use)."""
from __future__ import annotations

from .executor import Executor
from .recent_error import RecentError, get_recent_err_msg, get_recent_error
from .status import *  # noqa: F403 - the ACLNN_* codes are this package's public vocabulary
from .status import STATUS_NAMES, AclnnError


def __getattr__(name: str):
    from opsnn import registry

    # `from opsnn.aclnn import checks` asks here before importing the submodule (see registry.is_submodule)
    if not name.startswith("_") and not registry.is_submodule(__name__, name):
        function = registry.aclnn_function(name)
        if function is not None:
            return function
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    from opsnn import registry

    return sorted({*globals(), *registry.aclnn_function_names()})


__all__ = ["STATUS_NAMES", "AclnnError", "Executor", "RecentError", "get_recent_err_msg", "get_recent_error"]
