"""aclnnSeluBackward, the two phases (docs/selu-grad.md).

    workspace_size, executor, ret = selu_backward_get_workspace_size(grad_output, result, grad_input)
    ret = selu_backward(workspace, workspace_size, executor, stream)

In upstream's order (aclnn_selu_backward.cpp): the executor (561101 without a device); null
gradOutput, result, gradInput -> 161001; gradOutput's dtype equal to result's, then to
gradInput's, then each in the SoC's list (910B-class: float32, float16, int32, int8, bfloat16;
others without bfloat16) -> 161002; result's and gradInput's shapes equal to gradOutput's ->
161002; an empty input: workspace 0. Then Contiguous both, l0 SeluGrad, Cast to gradInput's
dtype, ViewCopy (upstream reshapes a rank above 8 to 1-d around the kernel: the same elements)."""
from __future__ import annotations

from opsnn.aclnn import checks
from opsnn.aclnn.executor import Executor
from opsnn.aclnn.l0 import cast, contiguous, view_copy
from opsnn.aclnn.l0_tensor import L0Tensor
from opsnn.op_common.aclnn_phases import phases

from .selugrad import selu_grad

API_NAME = "aclnnSeluBackward"


def supported_dtypes(family: str) -> tuple[str, ...]:
    base = ("float32", "float16", "int32", "int8")
    return (*base, "bfloat16") if family in ("ascend910b", "ascend950") else base


def _plan(executor: Executor, grad_output, result, grad_input) -> None:
    for t, name in ((grad_output, "gradOutput"), (result, "result"), (grad_input, "gradInput")):
        checks.check_not_null(t, name)
    checks.check_same_dtype(grad_output, "gradOutput", result, "result")
    checks.check_same_dtype(grad_output, "gradOutput", grad_input, "gradInput")
    for t, name in ((grad_output, "gradOutput"), (result, "result"), (grad_input, "gradInput")):
        checks.check_dtype_supported(t, name, supported_dtypes(executor.platform.family))
    checks.check_shape(result, "result", grad_output.view_dims, "gradOutput's shape")
    checks.check_shape(grad_input, "gradInput", grad_output.view_dims, "gradOutput's shape")
    if grad_output.numel == 0 or result.numel == 0:
        return
    y = selu_grad(executor, contiguous(executor, L0Tensor.from_acl(grad_output)),
                  contiguous(executor, L0Tensor.from_acl(result)))
    target = L0Tensor.from_acl(grad_input)
    view_copy(executor, cast(executor, y, target.dtype_name), target)


selu_backward_get_workspace_size, selu_backward = phases(API_NAME, _plan, "selu_backward")
