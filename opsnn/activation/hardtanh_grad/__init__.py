"""HardtanhGrad: y = grad where min_val < result < max_val (or result is NaN), else 0 (CANN
ops-nn activation/hardtanh_grad), the op behind aclnnHardtanhBackward
(torch.ops.aten.hardtanh_backward; nn.Hardtanh and nn.ReLU6's gradient).

An operator folder in upstream's layout: op_host/ (definition, shape inference, arch35 tiling),
op_kernel/arch35/ (the DAG kernel on atvoss), op_api/ (the two-phase API and the l0 op),
functional_models.py (both SoCs' kernels and torch's as numpy), numpy_api.py
(opsnn.hardtanh_backward), examples/ and tests/. Importing it registers the operator with
opsnn.registry."""
from opsnn.registry import Operator, Option, register

from .op_host.hardtanh_grad_def import HARDTANH_GRAD, MAX_VAL_DEFAULT, MIN_VAL_DEFAULT

OPERATOR = register(Operator(
    name="hardtanh_grad",
    op_def=HARDTANH_GRAD,
    package=__name__,
    summary="y = grad where min_val < result < max_val or result is NaN, else 0 (aclnnHardtanhBackward)",
    tools=f"{__name__}.tools",
    options=(Option("min_val", float, MIN_VAL_DEFAULT, "the attr min_val (lower bound, exclusive)"),
             Option("max_val", float, MAX_VAL_DEFAULT, "the attr max_val (upper bound, exclusive)")),
    aclnn_module=f"{__name__}.op_api.aclnn_hardtanh_backward",
    aclnn_functions=("hardtanh_backward_get_workspace_size", "hardtanh_backward"),
    example="test_aclnn_hardtanh_backward.py",
    python_api={"hardtanh_backward": f"{__name__}.numpy_api:hardtanh_backward"},
))
