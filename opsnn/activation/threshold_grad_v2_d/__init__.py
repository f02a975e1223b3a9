"""ThresholdGradV2D: out = grad where feature > threshold, else 0 (CANN ops-nn, experimental/activation).

An operator folder in upstream's layout: op_host/ (definition, shape inference, tiling),
op_kernel/ (the AscendC kernel and its tiling struct), op_api/ (aclnnThresholdBackward and the
l0 op), examples/ and tests/. Importing it registers the operator with opsnn.registry."""
from opsnn.registry import Operator, Option, register

from .op_host.threshold_grad_v2_d_def import THRESHOLD_GRAD_V2D

OPERATOR = register(Operator(
    name="threshold_grad_v2_d",
    op_def=THRESHOLD_GRAD_V2D,
    package=__name__,
    summary="out = grad where feature > threshold, else 0 (aclnnThresholdBackward)",
    tools=f"{__name__}.tools",
    options=(
        Option("threshold", float, 1.0, "the threshold attr (stored as float32)"),
        Option("upstream_int8_temp", bool, False,
               "size the int8/uint8 float32 temporary as upstream does (2 B/element)", ("sanitize",)),
    ),
    aclnn_module=f"{__name__}.op_api.aclnn_threshold_backward",
    aclnn_functions=("threshold_backward_get_workspace_size", "threshold_backward"),
    example="test_aclnn_threshold_backward.py",
))
