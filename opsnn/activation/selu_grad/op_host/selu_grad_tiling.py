"""SeluGrad's 910B tiling (upstream experimental op_host/selu_grad_tiling.cpp): cores by bytes
(8 KiB a core up to 8 cores, past that 32 KiB a core, at most the AIV cores), each core's share
blockFactor a multiple of 512 bytes' elements, the UB tile ubFactor as many elements as UB less
8 KiB holds at the dtype's bytes per element (three double-buffered GM queues, the float32
temporaries, a mask byte), at least one 512-byte unit. Key: the dtype's schedule mode
(upstream's SELUGRAD_TPL_SCH_MODE_*: fp16 0, fp32 1, bf16 2); no workspace."""
from __future__ import annotations

from opsnn.dtypes import dtype_name, to_numpy
from opsnn.op_common.block_tiling import TilingResult
from opsnn.platform import Platform, get_platform

from ..op_kernel.selu_grad_tiling_data import SeluGradTilingData
from .selu_grad_def import KERNEL_DTYPES

RESERVED_UB = 8 * 1024
SMALL_BYTES, LARGE_BYTES, SMALL_CORES, ALIGN_BYTES = 8 * 1024, 32 * 1024, 8, 512
_FLOAT_TEMPS = 4  # float32 buffers a tile needs beyond the queues: grad, outputs, y (halves), factor


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


def selu_grad_tiling(num_elements: int, dtype, platform: Platform | str | None = None) -> TilingResult:
    platform = platform if isinstance(platform, Platform) else get_platform(platform)
    name = dtype_name(dtype)
    if name not in KERNEL_DTYPES:
        raise ValueError(f"SeluGrad (910B) has no kernel for {name}; built: {', '.join(KERNEL_DTYPES)}")
    size, key = to_numpy(name).itemsize, KERNEL_DTYPES.index(name)
    n = int(num_elements)
    if n <= 0:
        return TilingResult(1, key, 0, SeluGradTilingData(0, 0, 0), name)
    align = ALIGN_BYTES // size
    # 8 KiB a core while that needs at most 8 cores, else 32 KiB a core
    cores = _cdiv(n * size, SMALL_BYTES if n * size <= SMALL_BYTES * SMALL_CORES else LARGE_BYTES)
    block = _cdiv(_cdiv(n, max(1, min(cores, platform.aiv_cores))), align) * align
    per_element = 6 * size + (1 if name == "float32" else _FLOAT_TEMPS) * 4 + 1
    ub = max(align, (platform.ub_size - RESERVED_UB) // per_element // align * align)
    return TilingResult(_cdiv(n, block), key, 0, SeluGradTilingData(n, block, max(align, min(block, ub))), name)
