"""aclnnSoftshrinkBackward, the two phases (upstream op_api/aclnn_softshrink_backward.cpp).

    workspace_size, executor, ret = softshrink_backward_get_workspace_size(grad_output, self, lambd, grad_input)
    ret = softshrink_backward(workspace, workspace_size, executor, stream)

In upstream's order: null gradOutput, self, lambd, gradInput -> 161001; gradOutput's, self's and
gradInput's dtypes in the SoC's list -> 161002; gradOutput and self of rank <= 8, broadcastable,
gradInput of their broadcast shape -> 161002; lambd < 0 (as float) -> 161002. Empty: workspace 0.
Then Contiguous both, BroadcastTo where their shapes differ, both Cast to float32 where their
dtypes differ, l0 SoftShrinkGrad, ViewCopy into gradInput."""
from __future__ import annotations

from opsnn.acl import AclScalar
from opsnn.aclnn import checks
from opsnn.aclnn import status as s
from opsnn.aclnn.executor import Executor
from opsnn.aclnn.l0 import broadcast_to, cast, contiguous, view_copy
from opsnn.aclnn.l0_tensor import L0Tensor
from opsnn.op_common.aclnn_phases import phases

from .softshrink_grad import softshrink_grad

API_NAME = "aclnnSoftshrinkBackward"


def supported_dtypes(family: str) -> tuple[str, ...]:
    return ("float32", "float16") if family not in ("ascend910b", "ascend950") else ("float32", "float16", "bfloat16")


def lambd_refusal(lambd: float) -> str | None:
    """Upstream's one check of the value (what the numpy API's ascend semantics refuse too)."""
    return f"lambd should be greater or equal to 0, but found to be [{lambd:f}]." if lambd < 0 else None


def _plan(executor: Executor, grad_output, self, lambd, grad_input) -> None:
    checks.check_not_null(grad_output, "gradOutput")
    checks.check_not_null(self, "self")
    checks.check_not_null(lambd, "lambd", AclScalar)
    checks.check_not_null(grad_input, "gradInput")
    for t, name in ((grad_output, "gradOutput"), (self, "self"), (grad_input, "gradInput")):
        checks.check_dtype_supported(t, name, supported_dtypes(executor.platform.family))
    checks.check_max_dim(grad_output, "gradOutput")
    checks.check_max_dim(self, "self")
    shape = checks.broadcast_shape(grad_output, "gradOutput", self, "self")
    checks.check_shape(grad_input, "gradInput", shape, "the broadcast shape")
    if (refusal := lambd_refusal(lambd.to_float())) is not None:
        raise s.AclnnError(s.ACLNN_ERR_PARAM_INVALID, s.KIND_ATTR, refusal)
    if grad_output.numel == 0 or grad_input.numel == 0:
        return
    g, x = (contiguous(executor, L0Tensor.from_acl(t)) for t in (grad_output, self))
    if g.shape != x.shape:
        g, x = broadcast_to(executor, g, shape), broadcast_to(executor, x, shape)
    if g.dtype != x.dtype:
        g, x = (t if t.dtype_name == "float32" else cast(executor, t, "float32") for t in (g, x))
    view_copy(executor, softshrink_grad(executor, g, x, float(lambd.to_float())), L0Tensor.from_acl(grad_input))


softshrink_backward_get_workspace_size, softshrink_backward = phases(API_NAME, _plan, "softshrink_backward")
