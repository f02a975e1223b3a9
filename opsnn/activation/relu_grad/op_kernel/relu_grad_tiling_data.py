"""ReluGradTilingData: the block split the kernel reads, ThresholdGradV2DTilingData's fields
without the threshold (eight uint64, 64 bytes, little-endian)."""
from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import ClassVar

from opsnn.op_common.tiling_struct import TilingStruct


@dataclass(frozen=True)
class ReluGradTilingData(TilingStruct):
    small_core_data_num: int
    big_core_data_num: int
    final_big_tile_num: int
    final_small_tile_num: int
    tile_data_num: int
    small_tail_data_num: int
    big_tail_data_num: int
    tail_block_num: int

    LAYOUT: ClassVar[struct.Struct] = struct.Struct("<8Q")
    CAMEL: ClassVar[tuple[str, ...]] = (
        "smallCoreDataNum", "bigCoreDataNum", "finalBigTileNum", "finalSmallTileNum", "tileDataNum",
        "smallTailDataNum", "bigTailDataNum", "tailBlockNum")
    SIZE: ClassVar[int] = 64
