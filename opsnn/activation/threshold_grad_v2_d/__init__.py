"""ThresholdGradV2D: out = grad where feature > threshold, else 0 (CANN ops-nn, experimental/activation)."""
