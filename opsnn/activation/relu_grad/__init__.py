"""ReluGrad: backprops = gradients * (features > 0 ? 1 : 0), a multiply (TensorFlow's rule), the
|threshold| <= FLT_EPSILON path of aclnnThresholdBackward.

Upstream's layout: op_host/ (definition, tiling), op_kernel/ (the Ascend910B kernel on the
emulator and its tiling struct), op_api/ (the l0 op), tests/. functional_models.py states the
NPU rules as plain numpy: the oracle the kernels are tested against."""
from opsnn.registry import Operator, register

from .op_host.relu_grad_def import RELU_GRAD

OPERATOR = register(Operator(
    name="relu_grad",
    op_def=RELU_GRAD,
    package=__name__,
    summary="backprops = gradients * (features > 0) (the ReluGrad kernel behind aclnnThresholdBackward at t~0)",
    tools=f"{__name__}.tools",
    scheme_dtypes=("int64",),  # the arch35 DAG's (op_kernel/arch35); the 910B kernel takes op_def's
))
