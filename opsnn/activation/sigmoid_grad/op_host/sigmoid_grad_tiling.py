"""SigmoidGrad's 910B tiling (upstream experimental op_host/sigmoid_grad_tiling.cpp): the UB holds
10 tile-sized slices for float32 (UB_NUM_FLOAT) and 16 for the others (UB_NUM_OTHER); the
tensor is shared out in blocks over the cores, big cores first (opsnn.op_common.block_split,
whose block is 256 bytes where upstream's is the 32-byte UB block: tiles and shares here are
whole 256-byte blocks); tiling key 0, no user workspace."""
from __future__ import annotations

from typing import NamedTuple

from opsnn.dtypes import dtype_name, to_numpy
from opsnn.op_common import SplitError, split_blocks
from opsnn.platform import Platform, get_platform

from ..op_kernel.sigmoid_grad_tiling_data import SigmoidGradTilingData

UB_FACTOR = {"float32": 10, "float16": 16, "bfloat16": 16}


class SigmoidGradTiling(NamedTuple):
    """What BlockSplitReport and the l0 op read."""
    block_dim: int
    tiling_key: int
    workspace_size: int
    tiling_data: SigmoidGradTilingData
    dtype: str
    num_elements: int


class TilingError(ValueError):
    """What upstream answers GRAPH_FAILED for (aclnn: 561002)."""


def sigmoid_grad_tiling(num_elements: int, dtype, platform: Platform | str | None = None) -> SigmoidGradTiling:
    if not isinstance(platform, Platform):
        platform = get_platform(platform)
    name = dtype_name(dtype) if dtype is not None else "none"
    if name not in UB_FACTOR:
        raise TilingError(f"SigmoidGrad (910B) does not support {name}; supported: {', '.join(UB_FACTOR)}")
    try:
        split = split_blocks(num_elements, to_numpy(name).itemsize, platform.ub_size, UB_FACTOR[name],
                             platform.aiv_cores)
    except SplitError as e:
        raise TilingError(f"{name} on {platform.name}: {e}") from None
    data = SigmoidGradTilingData(split.small.data_num, split.big.data_num, split.big.tile_num, split.small.tile_num,
                                 split.tile_data_num, split.small.tail_num, split.big.tail_num, split.tail_block_num)
    return SigmoidGradTiling(split.block_dim, 0, platform.system_workspace, data, name, int(num_elements))
