"""SeluGrad's API layer: aclnnSeluBackward (two phases) and the l0 op."""
from .aclnn_selu_backward import selu_backward, selu_backward_get_workspace_size, supported_dtypes
from .selugrad import selu_grad

__all__ = ["selu_backward", "selu_backward_get_workspace_size", "selu_grad", "supported_dtypes"]
