"""ThresholdGradV2D on Ascend950 (arch35): the DAGs per dtype and the kernel entry, run by the
atvoss broadcast schedules."""
from .threshold_grad_v2_d import ARG_NAMES, run_kernel, threshold_grad_v2_d
from .threshold_grad_v2_d_dag import DAG_DTYPES, threshold_grad_v2_d_dag
from .threshold_grad_v2_d_struct import DTYPE_TPL

__all__ = ["ARG_NAMES", "DAG_DTYPES", "DTYPE_TPL", "run_kernel", "threshold_grad_v2_d", "threshold_grad_v2_d_dag"]
