"""aclnnThreshold / aclnnInplaceThreshold, the two phases (docs/threshold-v2.md §3-4).

    workspace_size, executor, ret = threshold_get_workspace_size(self, threshold, value, out)
    ret = threshold(workspace, workspace_size, executor, stream)
    workspace_size, executor, ret = inplace_threshold_get_workspace_size(self_ref, threshold, value)
    ret = inplace_threshold(workspace, workspace_size, executor, stream)

out = self where self > threshold, else value (NaN self stays). Phase 1, upstream's order:
executor (561101, no device); self, out, threshold, value present (161001); self's dtype in the
SoC's list, and before arch35 out's dtype castable from self's (161002); self rank <= 8 and out
of exactly self's shape, no broadcasting (161002); for an integer self, threshold then value
representable in self's dtype (161002, checks.check_scalar_fits: 300 for uint8 would wrap to 44,
as torch refuses; self's dtype even where the 910B computes int16 in int32); an empty self succeeds with workspace 0 and
nothing to run. Then Contiguous(self), before arch35 int16 -> int32 (the 910B kernel has no
int16), l0 ThresholdV2, Cast to out's dtype, ViewCopy into out. Scalar dtypes are never checked:
they are converted to the tensor's dtype (scalar_to_tensor.py), their values only as above. The inplace API is the
same body with out = self_ref. (The C API's null workspaceSize/executor check has no Python
counterpart: they are returned.)"""
from __future__ import annotations

import functools

from opsnn.acl import AclScalar
from opsnn.aclnn import checks, two_phase
from opsnn.aclnn import status as s
from opsnn.aclnn.checks import can_cast
from opsnn.aclnn.executor import Executor
from opsnn.aclnn.l0 import cast, contiguous, view_copy
from opsnn.aclnn.l0_tensor import L0Tensor

from .threshold import is_arch35, threshold_v2

API_NAME = "aclnnThreshold"
INPLACE_API_NAME = "aclnnInplaceThreshold"

# Upstream's support list (SoCs from 910B on, Ascend950 included, have bfloat16).
_DTYPES = ("float32", "int32", "float16", "int8", "uint8", "int16", "int64")
_DTYPES_BF16 = _DTYPES + ("bfloat16",)


def supported_dtypes(family: str) -> tuple[str, ...]:
    """self's dtype list for a SoC family."""
    return _DTYPES_BF16 if family in ("ascend910b", "ascend950") else _DTYPES


def _plan(executor: Executor, self, threshold, value, out) -> None:
    checks.check_not_null(self, "self")
    checks.check_not_null(out, "out")
    checks.check_not_null(threshold, "threshold", AclScalar)
    checks.check_not_null(value, "value", AclScalar)

    family = executor.platform.family
    checks.check_dtype_supported(self, "self", supported_dtypes(family))
    arch35 = is_arch35(executor.platform)
    if not arch35 and not can_cast(self.dtype_name, out.dtype_name):
        raise s.AclnnError(s.ACLNN_ERR_PARAM_INVALID, s.KIND_DTYPE,
                           f"self dtype {self.dtype_name} can not cast to out dtype {out.dtype_name}")

    checks.check_max_dim(self, "self")
    checks.check_shape(out, "out", self.view_dims, "the shape of self")
    checks.check_scalar_fits(threshold, "threshold", self.dtype_name)
    checks.check_scalar_fits(value, "value", self.dtype_name)

    if self.numel == 0:
        return  # nothing to launch, workspace 0

    x = contiguous(executor, L0Tensor.from_acl(self))
    if not arch35 and x.dtype_name == "int16":
        x = cast(executor, x, "int32")
    result = threshold_v2(executor, x, threshold, value)
    view_copy(executor, cast(executor, result, out.numpy_dtype), L0Tensor.from_acl(out))


def threshold_get_workspace_size(self, threshold, value, out):
    """Phase 1 of aclnnThreshold: (workspace_size, executor, status)."""
    return two_phase.get_workspace_size(
        API_NAME, functools.partial(_plan, self=self, threshold=threshold, value=value, out=out))


def threshold(workspace, workspace_size, executor, stream) -> int:
    """Phase 2: queue the planned work on `stream` (None: the device's default stream)."""
    return two_phase.run(API_NAME, workspace, workspace_size, executor, stream)


def inplace_threshold_get_workspace_size(self_ref, threshold, value):
    """Phase 1 of aclnnInplaceThreshold: the same body with out = self_ref."""
    return two_phase.get_workspace_size(
        INPLACE_API_NAME, functools.partial(_plan, self=self_ref, threshold=threshold, value=value, out=self_ref))


def inplace_threshold(workspace, workspace_size, executor, stream) -> int:
    return two_phase.run(INPLACE_API_NAME, workspace, workspace_size, executor, stream)
