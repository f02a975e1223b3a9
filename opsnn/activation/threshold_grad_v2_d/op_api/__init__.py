"""ThresholdGradV2D's API layer: aclnnThresholdBackward (two phases) and the l0 op."""
from .aclnn_threshold_backward import supported_dtypes, threshold_backward, threshold_backward_get_workspace_size
from .threshold_grad_v2_d import threshold_grad_v2d

__all__ = ["supported_dtypes", "threshold_backward", "threshold_backward_get_workspace_size",
           "threshold_grad_v2d"]
