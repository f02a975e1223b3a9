"""Host side of SoftShrinkGrad: the definition and the arch35 tiling."""
from .softshrink_grad_def import SOFT_SHRINK_GRAD
from .softshrink_grad_tiling import softshrink_grad_tiling

__all__ = ["SOFT_SHRINK_GRAD", "softshrink_grad_tiling"]
