"""LeakyReluGrad on Ascend950 (arch35): the DAG per dtype, the tiling-key declaration and the
kernel entry, run by the atvoss broadcast schedules."""
from .leaky_relu_grad_apt import ARG_NAMES, leaky_relu_grad, run_kernel
from .leaky_relu_grad_dag import DAG_DTYPES, leaky_relu_grad_dag
from .leaky_relu_grad_struct import DTYPE_TPL, decode_tiling_key, leaky_relu_grad_tiling_key

__all__ = ["ARG_NAMES", "DAG_DTYPES", "DTYPE_TPL", "decode_tiling_key", "leaky_relu_grad", "leaky_relu_grad_dag",
           "leaky_relu_grad_tiling_key", "run_kernel"]
