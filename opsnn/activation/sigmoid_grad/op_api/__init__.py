"""SigmoidGrad's API layer: aclnnSigmoidBackward (two phases) and the l0 op."""
from .aclnn_sigmoid_backward import sigmoid_backward, sigmoid_backward_get_workspace_size, supported_dtypes
from .sigmoid_grad import sigmoid_grad

__all__ = ["sigmoid_backward", "sigmoid_backward_get_workspace_size", "sigmoid_grad", "supported_dtypes"]
