"""SeluGradTilingData (upstream experimental selu_grad_tiling_data.h): uint64 totalNum, uint32
blockFactor, uint32 ubFactor (16 bytes, little-endian)."""
from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import ClassVar

from opsnn.op_common.tiling_struct import TilingStruct


@dataclass(frozen=True)
class SeluGradTilingData(TilingStruct):
    total_num: int
    block_factor: int
    ub_factor: int

    LAYOUT: ClassVar[struct.Struct] = struct.Struct("<QII")
    CAMEL: ClassVar[tuple[str, ...]] = ("totalNum", "blockFactor", "ubFactor")
