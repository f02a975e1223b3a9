"""aclnnLeakyReluBackward, the two phases (docs/leaky-relu-grad.md §5).

    workspace_size, executor, ret = leaky_relu_backward_get_workspace_size(grad_output, self, negative_slope,
                                                                           self_is_result, out)
    ret = leaky_relu_backward(workspace, workspace_size, executor, stream)

out = gradOutput where self > 0, else gradOutput * negativeSlope (broadcast). Phase 1 in
upstream's order:
  1. the executor (561101: no device); it is made before any parameter is looked at
  2. gradOutput, self, negativeSlope, out present (161001, in that order)
  3. gradOutput's dtype, then self's, in the tensor list; negativeSlope's dtype in the scalar list
     (161002). out's dtype is not list-checked.
  4. rank of gradOutput, then self, at most 8; the two broadcast; out's view shape is the broadcast
     shape (161002)
  5. selfIsResult with negativeSlope (as double) < 0 (161002; a NaN slope passes)
  6. the promoted dtype of (gradOutput, self) castable to out's (161002: an integral or bool out)
  7. self empty: success, workspace 0, nothing launched (only self is tested). gradOutput empty
     with self not: on Ascend950 (fp16/bf16/fp32) the arch35 tiling refuses the 0 dim, 561103;
     elsewhere nothing to compute, success (docs/leaky-relu-grad.md §9.5: neither is verifiable)
  8. Contiguous(gradOutput) -> Cast(promoted) -> Contiguous(self) -> Cast(promoted) -> l0
     LeakyReluGrad(slope as float32) -> Cast(out's dtype) -> ViewCopy(out); an l0 failure is
     561103 (upstream's null result)
The tensor lists: SoCs of the 910B class (910B, 910_93) and Ascend950 take FLOAT, FLOAT16,
DOUBLE, BF16; others lack BF16. (The C API's null workspaceSize/executor check has no Python
counterpart: they are returned.) Phase 2 is the framework's (opsnn.aclnn.two_phase)."""
from __future__ import annotations

import functools

import numpy as np

from opsnn.acl import AclScalar
from opsnn.acl.constants import DATA_TYPES
from opsnn.aclnn import checks, two_phase
from opsnn.aclnn import status as s
from opsnn.aclnn.checks import can_cast
from opsnn.aclnn.executor import Executor
from opsnn.aclnn.l0 import cast, contiguous, view_copy
from opsnn.aclnn.l0_tensor import L0Tensor

from ..functional_models import promote_type
from .leaky_relu_grad import check_empty_output, leaky_relu_grad

API_NAME = "aclnnLeakyReluBackward"

_TENSOR_910 = ("float32", "float16", "float64")
_TENSOR_910B = _TENSOR_910 + ("bfloat16",)
_SCALAR_910 = ("float32", "float16", "float64", "int32", "int64", "int8", "uint8", "bool", "int16")
_SCALAR_910B = _SCALAR_910 + ("bfloat16",)


def _bf16_lists(family: str) -> bool:
    """NpuArch DAV_2201 (910B / 910_93) or a regbase arch (Ascend950): the lists with bfloat16."""
    return family in ("ascend910b", "ascend950")


def supported_dtypes(family: str) -> tuple[str, ...]:
    """gradOutput's and self's dtype list for a SoC family."""
    return _TENSOR_910B if _bf16_lists(family) else _TENSOR_910


def supported_scalar_dtypes(family: str) -> tuple[str, ...]:
    """negativeSlope's dtype list for a SoC family."""
    return _SCALAR_910B if _bf16_lists(family) else _SCALAR_910


def scalar_dtype_name(scalar: AclScalar) -> str:
    return DATA_TYPES[scalar.data_type][0]


def scalar_to_double(scalar: AclScalar) -> float:
    """aclScalar::ToDouble (a complex one's real part)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return float(np.real(np.asarray(scalar.value)).astype(np.float64))


def _plan(executor: Executor, grad_output, self, negative_slope, self_is_result, out) -> None:
    checks.check_not_null(grad_output, "gradOutput")
    checks.check_not_null(self, "self")
    checks.check_not_null(negative_slope, "negativeSlope", AclScalar)
    checks.check_not_null(out, "out")

    family = executor.platform.family
    tensors = supported_dtypes(family)
    checks.check_dtype_supported(grad_output, "gradOutput", tensors)
    checks.check_dtype_supported(self, "self", tensors)
    scalars = supported_scalar_dtypes(family)
    if scalar_dtype_name(negative_slope) not in scalars:
        raise s.AclnnError(s.ACLNN_ERR_PARAM_INVALID, s.KIND_DTYPE,
                           f"negativeSlope dtype {scalar_dtype_name(negative_slope)} should be in the dtype support "
                           f"list [{', '.join(scalars)}]")

    checks.check_max_dim(grad_output, "gradOutput")
    checks.check_max_dim(self, "self")
    shape = checks.broadcast_shape(grad_output, "gradOutput", self, "self")
    checks.check_shape(out, "out", shape, "the broadcast shape of gradOutput and self")

    if self_is_result and scalar_to_double(negative_slope) < 0:
        raise s.AclnnError(s.ACLNN_ERR_PARAM_INVALID, s.KIND_ATTR,  # a refused attribute value
                           f"negativeSlope {scalar_to_double(negative_slope)} should not be negative when "
                           "selfIsResult is true")

    promoted = promote_type(grad_output.numpy_dtype, self.numpy_dtype)
    promoted_name = next(name for name, dt in DATA_TYPES.values() if dt == promoted)
    if not can_cast(promoted_name, out.dtype_name):
        raise s.AclnnError(s.ACLNN_ERR_PARAM_INVALID, s.KIND_DTYPE,
                           f"promoted dtype {promoted_name} of gradOutput and self can not cast to out dtype "
                           f"{out.dtype_name}")

    if self.numel == 0:
        return  # nothing to launch, workspace 0
    if 0 in shape:  # gradOutput empty, self not: upstream goes on (docs/leaky-relu-grad.md §9.5)
        check_empty_output(executor.platform, grad_output.view_dims, self.view_dims, promoted_name,
                           negative_slope.to_float())
        return

    grad = cast(executor, contiguous(executor, L0Tensor.from_acl(grad_output)), promoted_name)
    feature = cast(executor, contiguous(executor, L0Tensor.from_acl(self)), promoted_name)
    result = leaky_relu_grad(executor, grad, feature, negative_slope.to_float())
    view_copy(executor, cast(executor, result, out.numpy_dtype), L0Tensor.from_acl(out))


def leaky_relu_backward_get_workspace_size(grad_output, self, negative_slope, self_is_result, out):
    """Phase 1: (workspace_size, executor, status)."""
    return two_phase.get_workspace_size(
        API_NAME, functools.partial(_plan, grad_output=grad_output, self=self, negative_slope=negative_slope,
                                    self_is_result=bool(self_is_result), out=out))


def leaky_relu_backward(workspace, workspace_size, executor, stream) -> int:
    """Phase 2: queue the planned work on `stream` (None: the device's default stream)."""
    return two_phase.run(API_NAME, workspace, workspace_size, executor, stream)
