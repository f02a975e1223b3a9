"""ReluGrad on Ascend950 (arch35): the DAG per dtype and the kernel entry (atvoss broadcast
schedules). aclnnThresholdBackward runs it at |threshold| <= FLT_EPSILON, int64 included."""
from .relu_grad import ARG_NAMES, run_kernel
from .relu_grad_dag import DAG_DTYPES, relu_grad_dag

__all__ = ["ARG_NAMES", "DAG_DTYPES", "relu_grad_dag", "run_kernel"]
