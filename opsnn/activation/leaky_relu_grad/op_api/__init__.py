"""LeakyReluGrad's API layer: aclnnLeakyReluBackward (two phases) and the l0 op."""
from .aclnn_leaky_relu_backward import (
    can_cast,
    leaky_relu_backward,
    leaky_relu_backward_get_workspace_size,
    supported_dtypes,
    supported_scalar_dtypes,
)
from .leaky_relu_grad import aicore_dtypes, leaky_relu_grad

__all__ = ["aicore_dtypes", "can_cast", "leaky_relu_backward", "leaky_relu_backward_get_workspace_size",
           "leaky_relu_grad", "supported_dtypes", "supported_scalar_dtypes"]
