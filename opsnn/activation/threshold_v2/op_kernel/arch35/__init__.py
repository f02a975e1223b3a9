"""arch35 kernel side: the DAGs, the tiling-key declaration, the kernel entry."""
from .threshold_dag import DAGS, DTYPES, threshold_dag
from .threshold_tiling_struct import TPL_HAS_VALUE, TPL_NO_VALUE, decode_tiling_key, threshold_tiling_key
from .threshold_v2 import ARG_NAMES, run_kernel

__all__ = ["ARG_NAMES", "DAGS", "DTYPES", "TPL_HAS_VALUE", "TPL_NO_VALUE", "decode_tiling_key", "run_kernel",
           "threshold_dag", "threshold_tiling_key"]
