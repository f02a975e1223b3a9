"""Host side: definition, shape inference, tiling."""
from opsnn.op_common import BLOCK_SIZE

from ..op_kernel.threshold_grad_v2_d_tiling_data import ThresholdGradV2DTilingData
from .threshold_grad_v2_d_def import THRESHOLD_GRAD_V2D
from .threshold_grad_v2_d_infershape import infer_shape
from .threshold_grad_v2_d_tiling import (
    UB_FACTOR,
    CorePlan,
    TilingError,
    TilingResult,
    core_plan,
    padding,
    tiling,
)

__all__ = [
    "BLOCK_SIZE", "UB_FACTOR", "CorePlan", "THRESHOLD_GRAD_V2D", "ThresholdGradV2DTilingData",
    "TilingError", "TilingResult", "core_plan", "infer_shape", "padding", "tiling",
]
