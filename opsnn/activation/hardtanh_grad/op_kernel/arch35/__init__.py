"""arch35 kernel side: the DAG, the tiling-key declaration, the tiling data, the kernel entry."""
from .hardtanh_grad_apt import ARG_NAMES, run_kernel
from .hardtanh_grad_dag import DAGS, DTYPES, hardtanh_grad_dag
from .hardtanh_grad_struct import HARDTANH_GRAD_TPL, decode_tiling_key, hardtanh_grad_tiling_key
from .hardtanh_grad_tilingdata import HardtanhGradTilingData

__all__ = ["ARG_NAMES", "DAGS", "DTYPES", "HARDTANH_GRAD_TPL", "HardtanhGradTilingData", "decode_tiling_key",
           "hardtanh_grad_dag", "hardtanh_grad_tiling_key", "run_kernel"]
