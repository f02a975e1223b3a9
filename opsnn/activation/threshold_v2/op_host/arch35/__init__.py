"""arch35 (Ascend950) host side: the tiling."""
from .threshold_v2_tiling_arch35 import (
    WORKSPACE_SIZE,
    TensorDesc,
    ThresholdV2TilingResult,
    threshold_v2_tiling,
    tiling_for,
)

__all__ = ["WORKSPACE_SIZE", "TensorDesc", "ThresholdV2TilingResult", "threshold_v2_tiling", "tiling_for"]
