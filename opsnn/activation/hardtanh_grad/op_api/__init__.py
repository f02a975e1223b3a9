"""HardtanhGrad's API layer: aclnnHardtanhBackward (two phases) and the l0 op."""
from .aclnn_hardtanh_backward import hardtanh_backward, hardtanh_backward_get_workspace_size, supported_dtypes
from .hardtanh_grad import hardtanh_grad

__all__ = ["hardtanh_backward", "hardtanh_backward_get_workspace_size", "hardtanh_grad", "supported_dtypes"]
