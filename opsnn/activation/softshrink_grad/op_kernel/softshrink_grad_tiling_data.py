"""SoftShrinkGradTilingData (upstream op_kernel/arch35/soft_shrink_grad_tiling_data.h), 48 bytes
little-endian in C's layout: int64 dim0, int32 coreNum (4 pad bytes), int64 blockFormer,
blockNum, ubFormer, float lambd (4 pad bytes)."""
from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import ClassVar

from opsnn.op_common.tiling_struct import TilingStruct


@dataclass(frozen=True)
class SoftShrinkGradTilingData(TilingStruct):
    dim0: int  # elements in all
    core_num: int  # cores used (= block_num)
    block_former: int  # elements per core but the last, a multiple of 512
    block_num: int
    ub_former: int  # elements per UB loop, 256-byte aligned
    lambd: float

    LAYOUT: ClassVar[struct.Struct] = struct.Struct("<qi4xqqqf4x")
    CAMEL: ClassVar[tuple[str, ...]] = ("dim0", "coreNum", "blockFormer", "blockNum", "ubFormer", "lambd")
