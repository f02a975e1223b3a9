"""Host side: definition, shape inference, the arch35 tiling."""
from .threshold_v2_def import DTYPES, THRESHOLD_V2
from .threshold_v2_infershape import infer_shape

__all__ = ["DTYPES", "THRESHOLD_V2", "infer_shape"]
