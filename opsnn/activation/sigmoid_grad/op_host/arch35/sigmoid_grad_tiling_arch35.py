"""SigmoidGrad's arch35 tiling (upstream op_host/arch35/sigmoid_grad_tiling_arch35.cpp): y, dy
and z of one dtype in {float16, bfloat16, float32} (the opKey; anything else fails) and of one
shape (0-d counts as [1]), then atvoss's ElewiseBaseTiling of the dtype's DAG (upstream sizes
its UB from a buffer divisor, 96 for the halves and 192 for float32; here the DAG's buffer count
does it). Key: opKey * 10^14 + 100; workspace 16 MiB (the system workspace)."""
from __future__ import annotations

from typing import NamedTuple

from opsnn.atvoss import EleBaseTilingData, ElewiseBaseTiling, TilingError
from opsnn.platform import Platform, get_platform

from ...op_kernel.arch35 import TILING_KEYS, sigmoid_grad_dag

WORKSPACE_SIZE = 16 * 1024 * 1024


class SigmoidGradArch35Tiling(NamedTuple):
    block_dim: int
    tiling_key: int
    workspace_size: int
    tiling_data: EleBaseTilingData
    dtype: str


def sigmoid_grad_tiling_arch35(shapes, dtypes, platform: Platform | str | None = None) -> SigmoidGradArch35Tiling:
    """shapes, dtypes: (y, dy, z) each."""
    platform = platform if isinstance(platform, Platform) else get_platform(platform)
    if len(set(dtypes)) != 1 or dtypes[0] not in TILING_KEYS:
        raise TilingError(f"SigmoidGrad (arch35) takes y, dy, z of one dtype in {list(TILING_KEYS)}, got {dtypes}")
    dims = [tuple(int(d) for d in s) or (1,) for s in shapes]
    if len(set(dims)) != 1:
        raise TilingError(f"SigmoidGrad (arch35) takes y, dy, z of one shape, got {[list(s) for s in shapes]}")
    base = ElewiseBaseTiling(sigmoid_grad_dag(dtypes[0]), platform).do_tiling(shapes[2], list(shapes[:2]))
    return SigmoidGradArch35Tiling(base.block_num, TILING_KEYS[dtypes[0]], WORKSPACE_SIZE, base, dtypes[0])
