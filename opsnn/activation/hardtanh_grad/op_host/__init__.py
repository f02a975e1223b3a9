"""Host side: definition, shape inference, the arch35 tiling."""
from .hardtanh_grad_def import DTYPES, HARDTANH_GRAD, MAX_VAL_DEFAULT, MIN_VAL_DEFAULT
from .hardtanh_grad_infershape import infer_shape

__all__ = ["DTYPES", "HARDTANH_GRAD", "MAX_VAL_DEFAULT", "MIN_VAL_DEFAULT", "infer_shape"]
