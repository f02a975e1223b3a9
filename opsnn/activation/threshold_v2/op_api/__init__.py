"""ThresholdV2's API layer: aclnnThreshold / aclnnInplaceThreshold (two phases) and the l0 op."""
from ..scalar_to_tensor import convert_scalar
from .aclnn_threshold import (
    can_cast,
    inplace_threshold,
    inplace_threshold_get_workspace_size,
    supported_dtypes,
    threshold,
    threshold_get_workspace_size,
)
from .threshold import threshold_v2

__all__ = ["can_cast", "convert_scalar", "inplace_threshold", "inplace_threshold_get_workspace_size",
           "supported_dtypes", "threshold", "threshold_get_workspace_size", "threshold_v2"]
