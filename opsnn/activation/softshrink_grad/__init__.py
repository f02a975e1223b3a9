"""SoftShrinkGrad: softshrink's gradient (CANN ops-nn activation/soft_shrink_grad, the op behind
aclnnSoftshrinkBackward): grad_input = grad_output where self < -lambd or self > lambd, else 0.
Upstream builds its kernel for Ascend950 only (an arch35 kernel written as a plain AscendC
class, not an atvoss DAG). docs/softshrink-grad.md."""
from opsnn.registry import Operator, Option, register

from .op_host.softshrink_grad_def import SOFT_SHRINK_GRAD

OPERATOR = register(Operator(
    name="softshrink_grad", op_def=SOFT_SHRINK_GRAD, package=__name__, tools=f"{__name__}.tools",
    summary="grad_input = grad_output where |self| > lambd, else 0 (aclnnSoftshrinkBackward)",
    options=(Option("lambd", float, 0.5, "the lambd attr (>= 0)"),),
    aclnn_module=f"{__name__}.op_api.aclnn_softshrink_backward",
    aclnn_functions=("softshrink_backward_get_workspace_size", "softshrink_backward"),
    example="test_aclnn_softshrink_backward.py",
    python_api={"softshrink_backward": f"{__name__}.numpy_api:softshrink_backward"},
))
