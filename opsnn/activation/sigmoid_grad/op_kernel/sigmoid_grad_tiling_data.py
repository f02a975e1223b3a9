"""SigmoidGradTilingData (upstream experimental sigmoid_grad_tiling_data.h): the block split's
eight uint64 fields, nothing else (64 bytes, little-endian)."""
from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import ClassVar

from opsnn.op_common.tiling_struct import TilingStruct


@dataclass(frozen=True)
class SigmoidGradTilingData(TilingStruct):
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
