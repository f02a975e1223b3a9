"""opsnn: the CANN ops-nn ThresholdGradV2D operator stack, emulated in Python."""
from opsnn.api import threshold, threshold_backward

__version__ = "0.1.0"
__all__ = ["threshold", "threshold_backward"]
