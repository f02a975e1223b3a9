"""opsnn.aclnn: the aclnn framework (two phases, executor, workspace, l0 data-movement ops) and,
by name, the operators' public two-phase functions:

    workspace_size, executor, ret = aclnn.threshold_backward_get_workspace_size(grad_output, self, threshold, out)
    ret = aclnn.threshold_backward(workspace, workspace_size, executor, stream)

The framework knows no operator. `OPERATOR_APIS` only says where each public function lives,
and it is imported on first use (a second operator adds its lines there)."""
from __future__ import annotations

import importlib

from .executor import Executor
from .recent_error import RecentError, get_recent_err_msg, get_recent_error
from .status import *  # noqa: F403 - the ACLNN_* codes are this package's public vocabulary
from .status import STATUS_NAMES, AclnnError

OPERATOR_APIS = {
    "threshold_backward_get_workspace_size": "opsnn.activation.threshold_grad_v2_d.op_api.aclnn_threshold_backward",
    "threshold_backward": "opsnn.activation.threshold_grad_v2_d.op_api.aclnn_threshold_backward",
}


def __getattr__(name: str):
    if name in OPERATOR_APIS:
        return getattr(importlib.import_module(OPERATOR_APIS[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["STATUS_NAMES", "AclnnError", "Executor", "RecentError", "get_recent_err_msg", "get_recent_error",
           *OPERATOR_APIS]
