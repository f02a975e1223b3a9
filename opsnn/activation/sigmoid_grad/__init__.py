"""SigmoidGrad: z = dy * y * (1 - y), the gradient of sigmoid from its output y (CANN ops-nn
activation/sigmoid_grad), the op behind aclnnSigmoidBackward (torch.ops.aten.sigmoid_backward;
nn.Sigmoid's gradient). docs/sigmoid-grad.md.

An operator folder in upstream's layout: op_host/ (definition, shape inference, the 910B and
arch35 tilings), op_kernel/ (the 910B block-split kernel, op_kernel/arch35 the atvoss DAG),
op_api/ (the two-phase API, the l0 op, the C signature), functional_models.py, numpy_api.py
(opsnn.sigmoid_backward), tools.py (opsnn tiling / sanitize). Importing it registers it."""
from opsnn.registry import Operator, register

from .op_host.sigmoid_grad_def import SIGMOID_GRAD

OPERATOR = register(Operator(
    name="sigmoid_grad",
    op_def=SIGMOID_GRAD,
    package=__name__,
    summary="z = dy * y * (1 - y) (aclnnSigmoidBackward)",
    tools=f"{__name__}.tools",
    aclnn_module=f"{__name__}.op_api.aclnn_sigmoid_backward",
    aclnn_functions=("sigmoid_backward_get_workspace_size", "sigmoid_backward"),
    example="test_aclnn_sigmoid_backward.py",
    python_api={"sigmoid_backward": f"{__name__}.numpy_api:sigmoid_backward"},
))
