"""Host side: definition, shape inference, tiling."""
from .threshold_grad_v2_d_def import THRESHOLD_GRAD_V2D
from .threshold_grad_v2_d_infershape import infer_shape
from .threshold_grad_v2_d_tiling import (
    BLOCK_SIZE,
    UB_FACTOR,
    CorePlan,
    ThresholdGradV2DTilingData,
    TilingError,
    TilingResult,
    core_plan,
    tiling,
)

__all__ = [
    "BLOCK_SIZE", "UB_FACTOR", "CorePlan", "THRESHOLD_GRAD_V2D", "ThresholdGradV2DTilingData",
    "TilingError", "TilingResult", "core_plan", "infer_shape", "tiling",
]
