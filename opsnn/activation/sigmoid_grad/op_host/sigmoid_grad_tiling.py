"""SigmoidGrad's 910B tiling (upstream experimental op_host/sigmoid_grad_tiling.cpp): the UB holds
10 tile-sized slices for float32 (UB_NUM_FLOAT) and 16 for the others (UB_NUM_OTHER); the
tensor is shared out in blocks over the cores, big cores first (opsnn.op_common.block_split,
whose block is 256 bytes where upstream's is the 32-byte UB block: tiles and shares here are
whole 256-byte blocks); tiling key 0, no user workspace."""
from __future__ import annotations

from opsnn.op_common.block_tiling import TilingResult, block_split_tiling
from opsnn.platform import Platform

from ..op_kernel.sigmoid_grad_tiling_data import SigmoidGradTilingData

UB_FACTOR = {"float32": 10, "float16": 16, "bfloat16": 16}


def sigmoid_grad_tiling(num_elements: int, dtype, platform: Platform | str | None = None) -> TilingResult:
    return block_split_tiling("SigmoidGrad (910B)", num_elements, dtype, platform, UB_FACTOR, SigmoidGradTilingData)
