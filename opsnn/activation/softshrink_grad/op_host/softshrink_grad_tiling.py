"""SoftShrinkGrad's arch35 tiling (upstream op_host/arch35/soft_shrink_grad_tiling_arch35.cpp).

Refused (TilingError, GRAPH_FAILED), in upstream's order: a rank above 8; input_grad and input_x
of other ranks or dims (0-d reads as [1]); a dtype outside float16/float32/bfloat16, or two;
lambd < 0. An empty tensor: dim0 0 on one core, key 0. Else: double buffering (key 1) above
1024 elements; the UB less 8 KiB shared at bits per element (the queued tiles, the float32
temporaries, two mask bits), 256-byte aligned (ubFormer); cores by 4 KiB of data each, at most
the AIV cores, blockFormer a multiple of 512 elements. No workspace."""
from __future__ import annotations

from typing import NamedTuple

from opsnn.dtypes import to_numpy
from opsnn.op_common.block_tiling import TilingError
from opsnn.platform import Platform, get_platform

from ..op_kernel.softshrink_grad_tiling_data import SoftShrinkGradTilingData
from .softshrink_grad_def import DTYPES

SELECT_RESERVE, MIN_CORE_BITS, CORE_ALIGN, UB_ALIGN, DOUBLE_ABOVE = 8192, 32768, 512, 256, 1024


class SoftShrinkGradTiling(NamedTuple):
    block_dim: int
    tiling_key: int  # the buffer mode: 0 single, 1 double
    workspace_size: int
    tiling_data: SoftShrinkGradTilingData
    dtype: str


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


def softshrink_grad_tiling(shapes, dtypes, lambd: float = 0.5, platform: Platform | str | None = None,
                           ) -> SoftShrinkGradTiling:
    """shapes, dtypes: (input_grad, input_x)."""
    platform = platform if isinstance(platform, Platform) else get_platform(platform)
    if max(len(s) for s in shapes) > 8:
        raise TilingError(f"SoftShrinkGrad: rank {max(len(s) for s in shapes)} exceeds 8")
    grad, x = (tuple(s) or (1,) for s in shapes)
    if grad != x:
        raise TilingError(f"SoftShrinkGrad: input_grad {list(grad)} and input_x {list(x)} differ")
    if dtypes[0] not in DTYPES or dtypes[1] not in DTYPES or dtypes[0] != dtypes[1]:
        raise TilingError(f"SoftShrinkGrad: dtypes {list(dtypes)}: one of {', '.join(DTYPES)} for both")
    if lambd < 0:
        raise TilingError(f"SoftShrinkGrad: lambd must be >= 0, got {lambd}")
    total, size = 1, to_numpy(dtypes[0]).itemsize
    for d in grad:
        total *= d
    if total == 0:
        return SoftShrinkGradTiling(1, 0, 0, SoftShrinkGradTilingData(0, 0, 0, 0, 0, 0.0), dtypes[0])
    mode = int(total > DOUBLE_ABOVE)
    queued = 3 * (2 if mode else 1)
    bits = queued * 32 + 32 + 2 if size == 4 else queued * 16 + 4 * 32 + 2
    align = UB_ALIGN // size
    ub_former = (platform.ub_size - SELECT_RESERVE) * 8 // bits // align * align
    cores = max(1, min(_cdiv(total * size * 8, MIN_CORE_BITS), platform.aiv_cores))
    block_former = _cdiv(_cdiv(total, cores), CORE_ALIGN) * CORE_ALIGN
    block_num = _cdiv(total, block_former)
    data = SoftShrinkGradTilingData(total, block_num, block_former, block_num, ub_former, lambd)
    return SoftShrinkGradTiling(block_num, mode, 0, data, dtypes[0])
