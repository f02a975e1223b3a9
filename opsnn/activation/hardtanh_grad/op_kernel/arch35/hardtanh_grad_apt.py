"""The HardtanhGrad arch35 kernel entry (upstream op_kernel/hardtanh_grad_apt.cpp): the tiling
key's dType must be HardtanhGrad_TPL; the element type picks the DAG; min_val / max_val become
the DAG's Vars 0 and 1 (SetVar: the bytes after the base struct); atvoss's ElementwiseSch runs it: core b from element
b * blockFormer, its block's loop count of ubFormer tiles (the last one its tail), ping / pong by
tile parity, every copy exact (DataCopyPad), so nothing past a tensor is touched."""
from __future__ import annotations

from opsnn.ascendc import EmulatorError, GlobalMemory, KernelArg, LaunchReport
from opsnn.atvoss import TilingError, elementwise_kernel
from opsnn.atvoss.sch_common import run_launch
from opsnn.platform import Platform, get_platform

from .hardtanh_grad_dag import hardtanh_grad_dag
from .hardtanh_grad_struct import decode_tiling_key
from .hardtanh_grad_tilingdata import HardtanhGradTilingData

ARG_NAMES = ("result", "grad", "y", "workspace")


def run_kernel(*, gm: GlobalMemory, platform: Platform | str, dtype: str, tiling_key: int, block_dim: int,
               tiling: bytes | HardtanhGradTilingData, result: KernelArg, grad: KernelArg, y: KernelArg,
               sanitize: bool = False) -> LaunchReport:
    """Launch HardtanhGrad on `block_dim` cores: result, grad and y of the tiled size and of
    `dtype`. Thread-safe: each launch has its own cores."""
    if isinstance(platform, str):
        platform = get_platform(platform)
    raw = tiling.to_bytes() if isinstance(tiling, HardtanhGradTilingData) else bytes(tiling)
    data = HardtanhGradTilingData.from_bytes(raw)
    if block_dim != data.base.block_num:
        raise EmulatorError(f"block_dim {block_dim} differs from the tiling's block_num {data.base.block_num}")
    try:
        decode_tiling_key(tiling_key)
        dag = hardtanh_grad_dag(dtype)
    except (TilingError, KeyError) as e:
        raise EmulatorError(f"no HardtanhGrad kernel for key {tiling_key}, dtype {dtype}: {e}") from None
    return run_launch(elementwise_kernel(dag), dag, gm=gm, platform=platform, block_dim=block_dim, tiling=raw,
                      inputs=[result, grad], outputs=[y], sanitize=sanitize)



