"""SigmoidGradTilingData (upstream experimental sigmoid_grad_tiling_data.h): the block split's
eight uint64 fields, nothing else (64 bytes, little-endian): op_common's block-split struct."""
from __future__ import annotations

from opsnn.op_common.block_tiling import BlockSplitTilingData


class SigmoidGradTilingData(BlockSplitTilingData):
    """smallCoreDataNum ... tailBlockNum, as upstream's struct names them (CAMEL)."""
