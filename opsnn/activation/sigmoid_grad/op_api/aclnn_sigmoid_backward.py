"""aclnnSigmoidBackward, the two phases (docs/sigmoid-grad.md).

    workspace_size, executor, ret = sigmoid_backward_get_workspace_size(grad_output, output, grad_input)
    ret = sigmoid_backward(workspace, workspace_size, executor, stream)

gradInput = gradOutput * output * (1 - output). Phase 1 in upstream's order
(aclnn_sigmoid_backward.cpp): the executor first (561101: no device on this thread); null
gradOutput, output, gradInput -> 161001; each dtype in the list (float32, float16, float64,
complex64, complex128, bfloat16), bfloat16 gradOutput only on 910B-class SoCs -> 161002; ranks
<= 8 -> 161002; the promotion of gradOutput and output in the list and castable to gradInput's
dtype -> 161002; the two shapes broadcast, to gradInput's shape -> 161002; an empty input:
workspace 0, nothing launched. Then Contiguous both, BroadcastTo the result shape where they
differ, Cast to the promoted dtype, l0 SigmoidGrad(output, gradOutput), Cast to gradInput's dtype,
ViewCopy."""
from __future__ import annotations

from opsnn.aclnn import checks
from opsnn.aclnn import status as s
from opsnn.aclnn.executor import Executor
from opsnn.aclnn.l0 import broadcast_to, cast, contiguous, view_copy
from opsnn.aclnn.l0_tensor import L0Tensor
from opsnn.op_common.aclnn_phases import phases

from .sigmoid_grad import sigmoid_grad

API_NAME = "aclnnSigmoidBackward"
MAX_DIM = 8
_LIST = ("float32", "float16", "float64", "complex64", "complex128")
_RANK = {"float16": 0, "bfloat16": 0, "float32": 1, "float64": 2, "complex64": 3, "complex128": 4}


def supported_dtypes(family: str) -> tuple[str, ...]:
    """The dtype list; bfloat16 where the SoC has it (910B-class, and Ascend950's arch35 kernel)."""
    return (*_LIST, "bfloat16") if family in ("ascend910b", "ascend950") else _LIST


def promote(a: str, b: str) -> str:
    """op::PromoteType on the list's dtypes (float16 with bfloat16: float32; float64 with
    complex64: complex128)."""
    if a == b:
        return a
    hi, lo = sorted((a, b), key=lambda n: -_RANK[n])
    if hi == "complex64" and lo == "float64":
        return "complex128"
    return "float32" if {a, b} == {"float16", "bfloat16"} else hi


def _plan(executor: Executor, grad_output, output, grad_input) -> None:
    checks.check_not_null(grad_output, "gradOutput")
    checks.check_not_null(output, "output")
    checks.check_not_null(grad_input, "gradInput")
    supported = supported_dtypes(executor.platform.family)
    for t, name in ((grad_output, "gradOutput"), (output, "output"), (grad_input, "gradInput")):
        checks.check_dtype_supported(t, name, supported)
    checks.check_max_dim(grad_output, "gradOutput")
    checks.check_max_dim(output, "output")
    dtype = promote(grad_output.dtype_name, output.dtype_name)
    if not checks.can_cast(dtype, grad_input.dtype_name):
        raise s.AclnnError(s.ACLNN_ERR_PARAM_INVALID, s.KIND_DTYPE,
                           f"promoted dtype {dtype} cannot be cast to gradInput's {grad_input.dtype_name}")
    shape = checks.broadcast_shape(grad_output, "gradOutput", output, "output")
    checks.check_shape(grad_input, "gradInput", shape, "the broadcast shape")
    if grad_output.numel == 0 or output.numel == 0:
        return
    g, o = (contiguous(executor, L0Tensor.from_acl(t)) for t in (grad_output, output))
    if g.shape != o.shape:
        g, o = broadcast_to(executor, g, shape), broadcast_to(executor, o, shape)
    z = sigmoid_grad(executor, cast(executor, o, dtype), cast(executor, g, dtype))
    target = L0Tensor.from_acl(grad_input)
    view_copy(executor, cast(executor, z, target.dtype_name), target)


sigmoid_backward_get_workspace_size, sigmoid_backward = phases(API_NAME, _plan, "sigmoid_backward")
