"""aclnnStatus codes (docs/threshold-grad-v2d.md §8) and the exception the framework uses to carry one to the API edge.

Inside opsnn.aclnn failures are raised as AclnnError; the public two-phase functions catch it,
record its message for get_recent_err_msg and return the status, as the C API does."""
from __future__ import annotations

ACLNN_SUCCESS = 0
ACLNN_ERR_PARAM_NULLPTR = 161001
ACLNN_ERR_PARAM_INVALID = 161002
ACLNN_ERR_RUNTIME_ERROR = 361001
ACLNN_ERR_INNER = 561000
ACLNN_ERR_INNER_INFERSHAPE = 561001
ACLNN_ERR_INNER_TILING = 561002
ACLNN_ERR_INNER_FIND_KERNEL = 561003
ACLNN_ERR_INNER_CREATE_EXECUTOR = 561101
ACLNN_ERR_INNER_NULLPTR = 561103

STATUS_NAMES = {
    ACLNN_SUCCESS: "ACLNN_SUCCESS",
    ACLNN_ERR_PARAM_NULLPTR: "ACLNN_ERR_PARAM_NULLPTR",
    ACLNN_ERR_PARAM_INVALID: "ACLNN_ERR_PARAM_INVALID",
    ACLNN_ERR_RUNTIME_ERROR: "ACLNN_ERR_RUNTIME_ERROR",
    ACLNN_ERR_INNER: "ACLNN_ERR_INNER",
    ACLNN_ERR_INNER_INFERSHAPE: "ACLNN_ERR_INNER_INFERSHAPE",
    ACLNN_ERR_INNER_TILING: "ACLNN_ERR_INNER_TILING",
    ACLNN_ERR_INNER_FIND_KERNEL: "ACLNN_ERR_INNER_FIND_KERNEL",
    ACLNN_ERR_INNER_CREATE_EXECUTOR: "ACLNN_ERR_INNER_CREATE_EXECUTOR",
    ACLNN_ERR_INNER_NULLPTR: "ACLNN_ERR_INNER_NULLPTR",
}

# What a failure was about, beyond its status: lets a caller map 161002 to TypeError (dtype)
# or ValueError (shape) without parsing messages.
KIND_NULLPTR = "nullptr"
KIND_DTYPE = "dtype"
KIND_SHAPE = "shape"
KIND_VALUE = "value"  # a value out of its range (an integer scalar past its dtype): ValueError
KIND_ATTR = "attr"  # an attribute or scalar value the API refuses (upstream's lambd < 0): ValueError
KIND_TILING = "tiling"
KIND_RUNTIME = "runtime"
KIND_INNER = "inner"


class AclnnError(Exception):
    def __init__(self, status: int, kind: str, message: str):
        super().__init__(message)
        self.status = status
        self.kind = kind
        self.message = message
