"""ReluGradTilingData: the block split the kernel reads, ThresholdGradV2DTilingData's fields
without the threshold (eight uint64, 64 bytes, little-endian): op_common's block-split struct."""
from __future__ import annotations

from opsnn.op_common.block_tiling import BlockSplitTilingData


class ReluGradTilingData(BlockSplitTilingData):
    """smallCoreDataNum ... tailBlockNum, as upstream's struct names them (CAMEL)."""
