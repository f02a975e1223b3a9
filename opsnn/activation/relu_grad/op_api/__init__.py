"""ReluGrad's API layer: the l0 op."""
from .relu_grad import relu_grad

__all__ = ["relu_grad"]
