"""SigmoidGrad on Ascend950 (arch35): the DAG per dtype and the kernel entry."""
from .sigmoid_grad_apt import ARG_NAMES, DTYPES, TILING_KEYS, run_kernel, sigmoid_grad_dag

__all__ = ["ARG_NAMES", "DTYPES", "TILING_KEYS", "run_kernel", "sigmoid_grad_dag"]
