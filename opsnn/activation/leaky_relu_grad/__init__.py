"""LeakyReluGrad: out = grad where features > 0, else grad * negative_slope (CANN ops-nn
activation/leaky_relu_grad), the op behind aclnnLeakyReluBackward (torch's leaky_relu_backward).

An operator folder in upstream's layout: op_host/ (definition, shape inference, arch35 tiling),
op_kernel/arch35/ (the DAG kernel on atvoss), op_api/ (aclnnLeakyReluBackward's two phases and
the l0 op), functional_models.py (each SoC's kernel as numpy), ascend_semantics.py and
numpy_api.py (opsnn.leaky_relu_backward), examples/ and tests/. Importing it registers the
operator with opsnn.registry; nothing heavy is imported here."""
from opsnn.registry import Operator, Option, register

from .op_host.leaky_relu_grad_def import DEFAULT_NEGATIVE_SLOPE, LEAKY_RELU_GRAD

OPERATOR = register(Operator(
    name="leaky_relu_grad",
    op_def=LEAKY_RELU_GRAD,
    package=__name__,
    summary="out = grad where features > 0, else grad * negative_slope (aclnnLeakyReluBackward)",
    tools=f"{__name__}.tools",
    options=(Option("negative_slope", float, DEFAULT_NEGATIVE_SLOPE, "the negative_slope attr (stored as float32)"),),
    aclnn_module=f"{__name__}.op_api.aclnn_leaky_relu_backward",
    aclnn_functions=("leaky_relu_backward_get_workspace_size", "leaky_relu_backward"),
    example="test_aclnn_leaky_relu_backward.py",
    python_api={"leaky_relu_backward": f"{__name__}.numpy_api:leaky_relu_backward"},
))
