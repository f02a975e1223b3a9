"""arch35 (Ascend950) host side: the tiling."""
from .sigmoid_grad_tiling_arch35 import sigmoid_grad_tiling_arch35

__all__ = ["sigmoid_grad_tiling_arch35"]
