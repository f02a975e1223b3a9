"""ReluGrad host side: definition and tiling."""
from .relu_grad_def import RELU_GRAD
from .relu_grad_tiling import TilingError, TilingResult, tiling, ub_factor

__all__ = ["RELU_GRAD", "TilingError", "TilingResult", "tiling", "ub_factor"]
