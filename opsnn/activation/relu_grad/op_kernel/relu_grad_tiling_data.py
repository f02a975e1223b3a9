"""ReluGradTilingData: the block split the kernel reads, ThresholdGradV2DTilingData's fields
without the threshold (eight uint64, 64 bytes, little-endian): op_common's block-split struct."""
from __future__ import annotations

import numpy as np

from opsnn.dtypes import bfloat16
from opsnn.op_common.block_split import BUFFER_NUM
from opsnn.op_common.block_tiling import BlockSplitTilingData


class ReluGradTilingData(BlockSplitTilingData):
    """smallCoreDataNum ... tailBlockNum, as upstream's struct names them (CAMEL)."""


F16, F32, I32 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.int32)
# the kernel's compute type per dtype; here, beside the struct, because the tiling's UB budget
# reads it too (importing the kernel would import the emulator)
COMPUTE_TYPE = {F32: F32, F16: F16, bfloat16: F32, I32: F32, np.dtype(np.int8): F16, np.dtype(np.uint8): F16}


def ub_bytes_per_element(dtype: np.dtype) -> int:
    """UB bytes the kernel's buffers take per element of a tile (the tiling's budget)."""
    b, c = dtype.itemsize, COMPUTE_TYPE[dtype].itemsize
    total = 3 * BUFFER_NUM * b + 1 + 2 * c  # queues, mask (a byte per element), ones, factor
    if dtype != COMPUTE_TYPE[dtype]:
        total += c  # the feature in the compute type
        total += 4 if dtype == I32 else c  # int32: the factor as int32; else the gradient in the compute type
    return total
