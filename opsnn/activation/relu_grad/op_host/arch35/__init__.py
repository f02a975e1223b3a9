"""ReluGrad's Ascend950 (arch35) tiling."""
from .relu_grad_tiling_arch35 import DTYPE_TPL, ReluGradArch35Tiling, tiling_arch35

__all__ = ["DTYPE_TPL", "ReluGradArch35Tiling", "tiling_arch35"]
