"""SeluGrad on Ascend950 (arch35): the DAG per dtype and the kernel entry."""
from .selu_grad_dag import DAG_DTYPES, run_kernel, selu_grad_dag

__all__ = ["DAG_DTYPES", "run_kernel", "selu_grad_dag"]
