"""aclnnThresholdBackward, the two phases (docs/threshold-grad-v2d.md §8).

    workspace_size, executor, ret = threshold_backward_get_workspace_size(grad_output, self, threshold, out)
    ret = threshold_backward(workspace, workspace_size, executor, stream)

Phase 1 checks, in this order: executor (561101), threshold, out, grad_output/self present
(161001); dtypes supported, grad_output and out of self's dtype (161002); rank <= 8 (161002);
broadcastable and out of the broadcast shape (161002). Empty inputs succeed with workspace 0.
Then: grad_output and self are made contiguous; on ascend910b they are expanded to the broadcast
shape (upstream hands un-broadcast inputs to a kernel that cannot broadcast; we do not), on
ascend950 they go un-broadcast to the arch35 kernels, which broadcast in the kernel; |t| <= FLT_EPSILON
runs ReluGrad, else ThresholdGradV2D, and the result is view-copied into out. (The C API's
"workspaceSize/executor output is null" check has no Python counterpart: they are returned.)

The threshold is read from the aclScalar once, as float32, and travels inside this call's
executor (upstream keeps it in a process-global; here concurrent calls cannot see each other's).

Workspace = each intermediate (contiguous/broadcast copies, the kernel output) 512-aligned, plus
the kernel's workspace: the tiling's workspace_size, which is the platform's 16 MiB system
workspace (user workspace 0). Upstream counts the system workspace into workspaceSize; so do we,
and the region is really reserved, though the emulated kernel does not touch it."""
from __future__ import annotations

import functools

from opsnn.acl import AclScalar
from opsnn.aclnn import checks, two_phase
from opsnn.aclnn import status as s
from opsnn.aclnn.executor import Executor
from opsnn.aclnn.l0 import broadcast_to, contiguous, view_copy
from opsnn.aclnn.l0_tensor import L0Tensor
from opsnn.activation.relu_grad.op_api import relu_grad

from ..functional_models import is_relu_threshold
from ..op_host import THRESHOLD_GRAD_V2D
from .threshold_grad_v2_d import threshold_grad_v2d

API_NAME = "aclnnThresholdBackward"
_KERNEL_DTYPES = THRESHOLD_GRAD_V2D.input("input_gradient").dtypes  # the op definition's list


def supported_dtypes(family: str, threshold: float) -> tuple[str, ...]:
    """The dtype list of the SoC family (docs/threshold-grad-v2d.md §8 step 5)."""
    if family == "ascend910b":
        return _KERNEL_DTYPES
    if family == "ascend910":  # Atlas A1: no bfloat16
        return tuple(d for d in _KERNEL_DTYPES if d != "bfloat16")
    if family == "ascend950":  # int64 only through ReluGrad
        return _KERNEL_DTYPES + (("int64",) if is_relu_threshold(threshold) else ())
    raise s.AclnnError(s.ACLNN_ERR_PARAM_INVALID, s.KIND_DTYPE, f"SoC family {family} is not supported")


def _plan(executor: Executor, grad_output, self, threshold, out) -> None:
    checks.check_not_null(threshold, "threshold", AclScalar)
    t = threshold.to_float()
    checks.check_not_null(out, "out")
    checks.check_not_null(grad_output, "gradOutput")
    checks.check_not_null(self, "self")

    supported = supported_dtypes(executor.platform.family, t)
    checks.check_dtype_supported(grad_output, "gradOutput", supported)
    checks.check_dtype_supported(self, "self", supported)
    checks.check_same_dtype(grad_output, "gradOutput", self, "self")
    checks.check_same_dtype(out, "out", self, "self")

    checks.check_max_dim(grad_output, "gradOutput")
    checks.check_max_dim(self, "self")
    shape = checks.broadcast_shape(grad_output, "gradOutput", self, "self")
    checks.check_shape(out, "out", shape, "the broadcast shape of gradOutput and self")

    if grad_output.numel == 0 or self.numel == 0:
        return  # nothing to launch, workspace 0

    grad = contiguous(executor, L0Tensor.from_acl(grad_output))
    feature = contiguous(executor, L0Tensor.from_acl(self))
    if executor.platform.family != "ascend950":  # the arch35 kernels broadcast in the kernel
        grad, feature = broadcast_to(executor, grad, shape), broadcast_to(executor, feature, shape)
    if is_relu_threshold(t):
        result = relu_grad(executor, grad, feature)
    else:
        result = threshold_grad_v2d(executor, grad, feature, t)
    view_copy(executor, result, L0Tensor.from_acl(out))


def threshold_backward_get_workspace_size(grad_output, self, threshold, out):
    """Phase 1: (workspace_size, executor, status)."""
    return two_phase.get_workspace_size(
        API_NAME, functools.partial(_plan, grad_output=grad_output, self=self, threshold=threshold, out=out))


def threshold_backward(workspace, workspace_size, executor, stream) -> int:
    """Phase 2: queue the planned work on `stream` (None: the device's default stream)."""
    return two_phase.run(API_NAME, workspace, workspace_size, executor, stream)
