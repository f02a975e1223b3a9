"""Host side of SeluGrad: the definition with its shape rule, the 910B tiling; arch35 in arch35/."""
from .selu_grad_def import KERNEL_DTYPES, SELU_GRAD, infer_shape
from .selu_grad_tiling import selu_grad_tiling

__all__ = ["KERNEL_DTYPES", "SELU_GRAD", "infer_shape", "selu_grad_tiling"]
