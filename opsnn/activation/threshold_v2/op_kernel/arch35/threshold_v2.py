"""The ThresholdV2 arch35 kernel entry (upstream threshold_v2.cpp): the tiling key selects the
DAG variant (value or not), the element type selects the DAG, and atvoss's ElementwiseSch runs
it core by core over the EleBaseTilingData tiles."""
from __future__ import annotations

from opsnn.ascendc import EmulatorError, GlobalMemory, KernelArg, LaunchReport
from opsnn.atvoss import EleBaseTilingData, launch_elementwise
from opsnn.platform import Platform, get_platform

from .threshold_dag import threshold_dag
from .threshold_tiling_struct import decode_tiling_key

ARG_NAMES = ("x", "threshold", "value", "y", "workspace")


def run_kernel(*, gm: GlobalMemory, platform: Platform | str, dtype: str, tiling_key: int, block_dim: int,
               tiling: bytes | EleBaseTilingData, x: KernelArg, threshold: KernelArg, y: KernelArg,
               value: KernelArg | None = None, sanitize: bool = False) -> LaunchReport:
    """Launch ThresholdV2 on `block_dim` cores: x and y of the tiled size, threshold and value
    (element 0 is read) of x's dtype. Thread-safe: each launch has its own cores."""
    if isinstance(platform, str):
        platform = get_platform(platform)
    data = tiling if isinstance(tiling, EleBaseTilingData) else EleBaseTilingData.from_bytes(tiling)
    if block_dim != data.block_num:
        raise EmulatorError(f"block_dim {block_dim} differs from the tiling's block_num {data.block_num}")
    _, has_value = decode_tiling_key(tiling_key)
    if has_value and value is None:
        raise EmulatorError("the has-value variant needs a value input (nullptr given)")
    inputs = [x, threshold] + ([value] if has_value else [])
    return launch_elementwise(threshold_dag(dtype, has_value), gm=gm, platform=platform, tiling=data,
                              inputs=inputs, outputs=[y], sanitize=sanitize)
