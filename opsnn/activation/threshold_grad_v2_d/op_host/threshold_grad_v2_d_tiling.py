"""ThresholdGradV2D tiling (docs/threshold-grad-v2d.md §5): UB-sized tiles and big/small core load balancing.

All arithmetic is on Python ints, exactly as the upstream host code does it in uint64."""
from __future__ import annotations

from dataclasses import dataclass

from opsnn.ascendc import Padding
from opsnn.dtypes import dtype_name, to_numpy
from opsnn.op_common import CorePlan, SplitError, block_padding, plan_of, split_blocks
from opsnn.platform import Platform, get_platform

from ..op_kernel.threshold_grad_v2_d_tiling_data import ThresholdGradV2DTilingData

# How many tile-sized slices of UB each dtype's kernel needs (queues, mask, temporaries).
UB_FACTOR = {"float32": 7, "float16": 7, "bfloat16": 10, "int32": 8, "int8": 14, "uint8": 14}
TILING_KEY = 0
USER_WORKSPACE = 0


class TilingError(ValueError):
    """The shape/dtype/platform cannot be tiled (aclnn maps this to 561002)."""


class UnsupportedDtypeError(TilingError, TypeError):
    pass


@dataclass(frozen=True)
class TilingResult:
    block_dim: int
    tiling_key: int
    workspace_size: int  # user workspace + the platform's system workspace
    tiling_data: ThresholdGradV2DTilingData
    dtype: str
    num_elements: int

    def to_json_dict(self) -> dict:
        return {
            "block_dim": self.block_dim,
            "tiling_key": self.tiling_key,
            "workspace_size": self.workspace_size,
            **self.tiling_data.upstream_dict(),
            "tiling_data": self.tiling_data.to_bytes().hex(),
        }


def tiling(num_elements: int, dtype, threshold: float = 1.0, platform: Platform | str | None = None,
           ) -> TilingResult:
    """Tile `num_elements` of `dtype` for `platform` (a Platform, a SoC name, or None = default)."""
    if not isinstance(platform, Platform):
        platform = get_platform(platform)
    try:
        name = dtype_name(dtype)
    except TypeError as e:
        raise UnsupportedDtypeError(str(e)) from None
    if name not in UB_FACTOR:
        raise UnsupportedDtypeError(f"ThresholdGradV2D does not support {name}; supported: {', '.join(UB_FACTOR)}")
    try:
        split = split_blocks(num_elements, to_numpy(name).itemsize, platform.ub_size, UB_FACTOR[name],
                             platform.aiv_cores)
    except SplitError as e:
        raise TilingError(f"{name} on {platform.name}: {e}") from None
    small, big = split.small, split.big
    data = ThresholdGradV2DTilingData(
        small_core_data_num=small.data_num,
        big_core_data_num=big.data_num,
        final_big_tile_num=big.tile_num,
        final_small_tile_num=small.tile_num,
        tile_data_num=split.tile_data_num,
        small_tail_data_num=small.tail_num,
        big_tail_data_num=big.tail_num,
        tail_block_num=split.tail_block_num,
        threshold=float(threshold),
    )
    return TilingResult(split.block_dim, TILING_KEY, USER_WORKSPACE + platform.system_workspace, data, name,
                        int(num_elements))


def core_plan(data: ThresholdGradV2DTilingData, block_dim: int) -> list[CorePlan]:
    """Each core's share as the kernel derives it from the tiling data (docs/threshold-grad-v2d.md §6)."""
    return plan_of(data, block_dim)


def padding(result: TilingResult) -> tuple[Padding, ...]:
    """The block padding this tiling makes the kernel touch past each tensor (the last core's)."""
    plans = core_plan(result.tiling_data, result.block_dim)
    return block_padding(plans, result.num_elements, to_numpy(result.dtype).itemsize)
