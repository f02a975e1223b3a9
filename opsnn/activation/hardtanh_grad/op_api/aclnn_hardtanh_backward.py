"""aclnnHardtanhBackward, the two phases (docs/hardtanh-grad.md).

    workspace_size, executor, ret = hardtanh_backward_get_workspace_size(grad_output, self, min, max, out)
    ret = hardtanh_backward(workspace, workspace_size, executor, stream)

out = gradOutput where min < self < max (or self is NaN), else 0. Phase 1, in upstream's order
(aclnn_hardtanh_backward.cpp):
  1. (C only) workspaceSize / executor null -> 161001: the C shim checks them; here they are returned
  2. null, in order self, gradOutput, out, min, max -> 161001
  3. gradOutput's, self's and out's dtypes in the SoC's list, then gradOutput's equal to self's
     -> 161002 (out's dtype is not compared with self's)
  4. gradOutput and self of rank <= 8 and of one view shape -> 161002 (out's shape is not
     checked; no broadcasting)
  5. min and max read as float32 (aclScalar::ToFloat); their dtypes are never checked and
     min > max is allowed
  6. the executor (561101: no device on this thread)
  7. gradOutput or self empty: workspace 0, success, nothing launched
  8. Contiguous(gradOutput), Contiguous(self); l0 HardtanhGrad(self, gradOutput) into a dense
     tensor of out's dtype and shape (an out whose dtype or shape is not self's is refused by
     the tiling: 561002); ViewCopy into out. No Cast anywhere.
Steps 2-4 run before the executor exists, as upstream's do; they need the SoC's dtype list, so
without a device only the null checks run before 561101."""
from __future__ import annotations

import functools

from opsnn import acl
from opsnn.acl import AclScalar
from opsnn.aclnn import checks, recent_error, two_phase
from opsnn.aclnn import status as s
from opsnn.aclnn.executor import Executor
from opsnn.aclnn.l0 import contiguous, view_copy
from opsnn.aclnn.l0_tensor import L0Tensor

from .hardtanh_grad import hardtanh_grad

API_NAME = "aclnnHardtanhBackward"

_DTYPES = ("float32", "float16")
_DTYPES_BF16 = ("float32", "float16", "bfloat16")


def supported_dtypes(family: str) -> tuple[str, ...]:
    """The one list for gradOutput, self and out: DAV_2201 (910B / 910_93) and the regbase
    Ascend950 have bfloat16; other SoCs (Atlas A1, 310P) do not."""
    return _DTYPES_BF16 if family in ("ascend910b", "ascend950") else _DTYPES


def _check_params(grad_output, self, min_, max_, out, family: str | None) -> None:
    checks.check_not_null(self, "self")
    checks.check_not_null(grad_output, "gradOutput")
    checks.check_not_null(out, "out")
    checks.check_not_null(min_, "min", AclScalar)
    checks.check_not_null(max_, "max", AclScalar)
    if family is None:  # no device: the SoC's list is unknown; the executor step reports it
        return
    supported = supported_dtypes(family)
    checks.check_dtype_supported(grad_output, "gradOutput", supported)
    checks.check_dtype_supported(self, "self", supported)
    checks.check_dtype_supported(out, "out", supported)
    checks.check_same_dtype(grad_output, "gradOutput", self, "self")
    checks.check_max_dim(grad_output, "gradOutput")
    checks.check_max_dim(self, "self")
    checks.check_shape(grad_output, "gradOutput", self.view_dims, "the shape of self")


def _plan(executor: Executor, grad_output, self, min_, max_, out) -> None:
    lo, hi = min_.to_float(), max_.to_float()
    if grad_output.numel == 0 or self.numel == 0:
        return  # nothing to launch, workspace 0
    grad = contiguous(executor, L0Tensor.from_acl(grad_output))
    x = contiguous(executor, L0Tensor.from_acl(self))
    target = L0Tensor.from_acl(out)
    y = hardtanh_grad(executor, x, grad, lo, hi, target.dtype_name, target.dtype, target.shape)
    view_copy(executor, y, target)


def hardtanh_backward_get_workspace_size(grad_output, self, min, max, out):  # noqa: A002 - upstream's names
    """Phase 1: (workspace_size, executor, status)."""
    recent_error.clear()
    runtime = acl.current_runtime()
    try:
        _check_params(grad_output, self, min, max, out, None if runtime is None else runtime.platform.family)
    except s.AclnnError as e:
        return 0, None, recent_error.record(e.status, e.kind, f"{API_NAME}: {e.message}")
    return two_phase.get_workspace_size(
        API_NAME, functools.partial(_plan, grad_output=grad_output, self=self, min_=min, max_=max, out=out))


def hardtanh_backward(workspace, workspace_size, executor, stream) -> int:
    """Phase 2: queue the planned work on `stream` (None: the device's default stream)."""
    return two_phase.run(API_NAME, workspace, workspace_size, executor, stream)
