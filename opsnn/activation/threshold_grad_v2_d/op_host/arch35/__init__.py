"""ThresholdGradV2D's Ascend950 (arch35) host side: its definition record and tiling."""
from .threshold_grad_v2_d_def import THRESHOLD_GRAD_V2D_ARCH35
from .threshold_grad_v2_d_infershape import infer_shape_arch35
from .threshold_grad_v2_d_tiling_arch35 import Arch35TilingResult, TilingError, tiling_arch35

__all__ = ["THRESHOLD_GRAD_V2D_ARCH35", "Arch35TilingResult", "TilingError", "infer_shape_arch35", "tiling_arch35"]
