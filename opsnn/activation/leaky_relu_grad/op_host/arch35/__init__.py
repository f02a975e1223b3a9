"""LeakyReluGrad's Ascend950 (arch35) host side: the tiling on atvoss BroadcastBaseTiling."""
from .leaky_relu_grad_tiling import LeakyReluGradTilingResult, TilingError, as_attr_float, leaky_relu_grad_tiling

__all__ = ["LeakyReluGradTilingResult", "TilingError", "as_attr_float", "leaky_relu_grad_tiling"]
