"""ThresholdGradV2DTilingData, the C struct the host tiling fills and the kernel reads
(docs/threshold-grad-v2d.md §5.9): eight uint64, the float32 threshold, 4 pad bytes (72 bytes, little-endian).

It lives beside the kernel, as upstream keeps its tiling-data header in op_kernel: the kernel
defines what it reads, the host includes it."""
from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import ClassVar

from opsnn.op_common.block_tiling import BlockSplitTilingData


@dataclass(frozen=True)
class ThresholdGradV2DTilingData(BlockSplitTilingData):
    """The block split's eight uint64 fields (op_common's struct), then the threshold."""
    threshold: float  # float32 on device

    LAYOUT: ClassVar[struct.Struct] = struct.Struct("<8Qf4x")
    CAMEL: ClassVar[tuple[str, ...]] = (*BlockSplitTilingData.CAMEL, "threshold")
    SIZE: ClassVar[int] = 72
