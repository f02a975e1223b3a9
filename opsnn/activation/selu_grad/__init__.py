"""SeluGrad: the gradient of SELU from its output (CANN ops-nn activation/selu_grad), the op behind
aclnnSeluBackward: y = gradients * scale where outputs > 0, else gradients * (outputs + scale *
alpha) (nn.SELU's gradient; torch's elu_backward with SELU's constants and is_result). Layout
as upstream's: op_host/ (definition, both tilings), op_kernel/ (910B kernel, arch35 DAG), op_api/,
functional_models.py, numpy_api.py (opsnn.selu_backward), tools.py. docs/selu-grad.md."""
from opsnn.registry import Operator, register

from .op_host.selu_grad_def import SELU_GRAD

OPERATOR = register(Operator(
    name="selu_grad", op_def=SELU_GRAD, package=__name__, tools=f"{__name__}.tools",
    summary="y = g * scale where out > 0, else g * (out + scale * alpha) (aclnnSeluBackward)",
    aclnn_module=f"{__name__}.op_api.aclnn_selu_backward",
    aclnn_functions=("selu_backward_get_workspace_size", "selu_backward"),
    example="test_aclnn_selu_backward.py",
    python_api={"selu_backward": f"{__name__}.numpy_api:selu_backward"},
))
