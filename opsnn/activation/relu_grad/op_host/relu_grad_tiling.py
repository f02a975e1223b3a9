"""ReluGrad tiling: the shared 910B block split (opsnn.op_common) with ReluGrad's UB budget."""
from __future__ import annotations

from dataclasses import dataclass

from opsnn.ascendc import Padding
from opsnn.dtypes import dtype_name, to_numpy
from opsnn.op_common import CorePlan, SplitError, block_padding, plan_of, split_blocks
from opsnn.platform import Platform, get_platform

from ..op_kernel.relu_grad_tiling_data import ReluGradTilingData, ub_bytes_per_element

TILING_KEY = 0


class TilingError(ValueError):
    """The shape/dtype/platform cannot be tiled (aclnn maps this to 561002)."""


class UnsupportedDtypeError(TilingError, TypeError):
    pass


def ub_factor(dtype: str) -> int:
    """Tile-sized UB slices the tiling reserves: the kernel's buffers' bytes per element over the
    itemsize, rounded up, plus one slice so that the buffers stay clear of the top 8 KiB of a
    910B UB, which Select uses as scratch (the tiling sees the whole UB)."""
    itemsize = to_numpy(dtype).itemsize
    return -(-ub_bytes_per_element(to_numpy(dtype)) // itemsize) + 1


@dataclass(frozen=True)
class TilingResult:
    block_dim: int
    tiling_key: int
    workspace_size: int
    tiling_data: ReluGradTilingData
    dtype: str
    num_elements: int

    def to_json_dict(self) -> dict:
        return {"block_dim": self.block_dim, "tiling_key": self.tiling_key, "workspace_size": self.workspace_size,
                **self.tiling_data.upstream_dict(), "tiling_data": self.tiling_data.to_bytes().hex()}

    def core_plan(self) -> list[CorePlan]:
        return plan_of(self.tiling_data, self.block_dim)

    def padding(self) -> tuple[Padding, ...]:
        return block_padding(self.core_plan(), self.num_elements, to_numpy(self.dtype).itemsize)


def tiling(num_elements: int, dtype, platform: Platform | str | None = None) -> TilingResult:
    from .relu_grad_def import DTYPES

    if not isinstance(platform, Platform):
        platform = get_platform(platform)
    try:
        name = dtype_name(dtype)
    except TypeError as e:
        raise UnsupportedDtypeError(str(e)) from None
    if name not in DTYPES:
        raise UnsupportedDtypeError(f"ReluGrad does not support {name}; supported: {', '.join(DTYPES)}")
    try:
        split = split_blocks(num_elements, to_numpy(name).itemsize, platform.ub_size, ub_factor(name),
                             platform.aiv_cores)
    except SplitError as e:
        raise TilingError(f"{name} on {platform.name}: {e}") from None
    data = ReluGradTilingData(split.small.data_num, split.big.data_num, split.big.tile_num, split.small.tile_num,
                              split.tile_data_num, split.small.tail_num, split.big.tail_num, split.tail_block_num)
    return TilingResult(split.block_dim, TILING_KEY, platform.system_workspace, data, name, int(num_elements))
