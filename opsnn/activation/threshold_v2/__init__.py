"""ThresholdV2: y = x where x > threshold, else value (CANN ops-nn activation/threshold_v2), the op
behind aclnnThreshold / aclnnInplaceThreshold (torch.nn.functional.threshold).

An operator folder in upstream's layout: op_host/ (definition, shape inference, arch35 tiling),
op_kernel/arch35/ (the DAG kernels on atvoss), op_api/ (the two-phase APIs, the l0 op, scalar
conversion), functional_models.py (both SoCs' kernels as numpy), examples/ and tests/.
Importing it registers the operator with opsnn.registry."""
from opsnn.registry import Operator, Option, register

from .op_host.threshold_v2_def import THRESHOLD_V2

OPERATOR = register(Operator(
    name="threshold_v2",
    op_def=THRESHOLD_V2,
    package=__name__,
    summary="y = x where x > threshold, else value (aclnnThreshold, aclnnInplaceThreshold)",
    tools=f"{__name__}.tools",
    options=(Option("no_value", bool, False, "tile the variant without a value input (tiling key 1)"),),
    aclnn_module=f"{__name__}.op_api.aclnn_threshold",
    aclnn_functions=("threshold_get_workspace_size", "threshold", "inplace_threshold_get_workspace_size",
                     "inplace_threshold"),
    example="test_aclnn_threshold.py",
))
