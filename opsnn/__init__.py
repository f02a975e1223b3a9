"""opsnn: the CANN ops-nn ThresholdGradV2D operator stack, emulated in Python."""
__version__ = "0.1.0"
