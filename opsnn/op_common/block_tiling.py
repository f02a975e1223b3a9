"""What a 910B elementwise tiling returns, and the house block split as a whole tiling: the struct
of its eight uint64 fields (upstream's experimental block-split kernels read that layout:
SigmoidGrad's, ReluGrad's), the split over the cores (block_split.split_blocks) and the result."""
from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from opsnn.dtypes import dtype_name, to_numpy
from opsnn.op_common.block_split import SplitError, split_blocks
from opsnn.op_common.tiling_struct import TilingStruct
from opsnn.platform import Platform, get_platform


class TilingResult(NamedTuple):
    """What the l0 op, `opsnn tiling` (BlockSplitReport, a TilingReport) and the benchmarks read."""
    block_dim: int
    tiling_key: int
    workspace_size: int
    tiling_data: Any  # a TilingStruct
    dtype: str
    num_elements: int = 0


class TilingError(ValueError):
    """What upstream answers GRAPH_FAILED for (aclnn: 561002)."""


@dataclass(frozen=True)
class BlockSplitTilingData(TilingStruct):
    """The block split's eight uint64 fields (64 bytes, little-endian)."""
    small_core_data_num: int
    big_core_data_num: int
    final_big_tile_num: int
    final_small_tile_num: int
    tile_data_num: int
    small_tail_data_num: int
    big_tail_data_num: int
    tail_block_num: int

    LAYOUT: ClassVar[struct.Struct] = struct.Struct("<8Q")
    CAMEL: ClassVar[tuple[str, ...]] = tuple(
        "smallCoreDataNum bigCoreDataNum finalBigTileNum finalSmallTileNum tileDataNum smallTailDataNum "
        "bigTailDataNum tailBlockNum".split())


def block_split_tiling(op: str, num_elements: int, dtype, platform: Platform | str | None, ub_factor: dict,
                       data_type=BlockSplitTilingData, **attrs) -> TilingResult:
    """num_elements of dtype (a name in ub_factor: tile-sized UB slices it needs) shared out in
    256-byte blocks over the AIV cores, big cores first; key 0, the system workspace. TilingError
    for a dtype not in ub_factor or a split that does not fit. A data_type that extends
    BlockSplitTilingData with the kernel's attributes (ThresholdGradV2DTilingData's threshold)
    gets them from `attrs`, by field name."""
    platform = platform if isinstance(platform, Platform) else get_platform(platform)
    name = dtype_name(dtype) if dtype is not None else "none"
    if name not in ub_factor:
        raise TilingError(f"{op} does not support {name}; supported: {', '.join(ub_factor)}")
    try:
        split = split_blocks(num_elements, to_numpy(name).itemsize, platform.ub_size, ub_factor[name],
                             platform.aiv_cores)
    except SplitError as e:
        raise TilingError(f"{name} on {platform.name}: {e}") from None
    data = data_type(split.small.data_num, split.big.data_num, split.big.tile_num, split.small.tile_num,
                     split.tile_data_num, split.small.tail_num, split.big.tail_num, split.tail_block_num, **attrs)
    return TilingResult(split.block_dim, 0, platform.system_workspace, data, name, int(num_elements))
