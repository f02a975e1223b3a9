"""arch35 (Ascend950) host side: the tiling."""
from .hardtanh_grad_tiling_arch35 import (
    WORKSPACE_SIZE,
    HardtanhGradTilingResult,
    TensorDesc,
    hardtanh_grad_tiling,
    tiling_for,
)

__all__ = ["WORKSPACE_SIZE", "HardtanhGradTilingResult", "TensorDesc", "hardtanh_grad_tiling", "tiling_for"]
