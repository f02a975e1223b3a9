"""Host side of LeakyReluGrad: the definition, shape inference and (op_host/arch35) the tiling.

Only the definition is imported eagerly (registering the operator needs nothing more); the
tiling pulls in atvoss and is imported from op_host.arch35 when a tool or the l0 op needs it."""
from .leaky_relu_grad_def import DEFAULT_NEGATIVE_SLOPE, DTYPES, LEAKY_RELU_GRAD
from .leaky_relu_grad_infershape import infer_shape

__all__ = ["DEFAULT_NEGATIVE_SLOPE", "DTYPES", "LEAKY_RELU_GRAD", "infer_shape"]
