"""Host side: definition, shape inference, the 910B tiling (arch35's in op_host/arch35)."""
from .sigmoid_grad_def import DTYPES, SIGMOID_GRAD, infer_shape
from .sigmoid_grad_tiling import UB_FACTOR, sigmoid_grad_tiling

__all__ = ["DTYPES", "SIGMOID_GRAD", "UB_FACTOR", "infer_shape", "sigmoid_grad_tiling"]
