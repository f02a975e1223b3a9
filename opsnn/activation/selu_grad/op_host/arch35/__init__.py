"""arch35 (Ascend950) host side of SeluGrad."""
from .selu_grad_tiling_arch35 import selu_grad_tiling_arch35

__all__ = ["selu_grad_tiling_arch35"]
