"""SeluGrad's arch35 tiling (upstream op_host/arch35/selu_grad_tiling_arch35.cpp, its one-dim
path): gradients and outputs of one dtype (else GRAPH_FAILED), shapes equal (0-d as [1]; the
broadcast path upstream also has is never reached through aclnn, which refuses unequal shapes,
and is not built here), then atvoss's ElewiseBaseTiling of the dtype's DAG. Key: schMode 0."""
from __future__ import annotations

from opsnn.atvoss import EleBaseTilingData, ElewiseBaseTiling, TilingError
from opsnn.platform import Platform, get_platform

from ...op_kernel.arch35 import DAG_DTYPES, selu_grad_dag


def selu_grad_tiling_arch35(shape, dtypes, platform: Platform | str | None = None) -> EleBaseTilingData:
    """shape: the one shape of gradients, outputs, y; dtypes: theirs. block_dim is block_num."""
    platform = platform if isinstance(platform, Platform) else get_platform(platform)
    if len(set(dtypes)) != 1:
        raise TilingError(f"gradients and outputs must have the same dtype, got {', '.join(dtypes)}")
    if dtypes[0] not in DAG_DTYPES:
        raise TilingError(f"SeluGrad (arch35) has no kernel for {dtypes[0]}; built: {', '.join(DAG_DTYPES)}")
    return ElewiseBaseTiling(selu_grad_dag(dtypes[0]), platform).do_tiling(tuple(shape), [tuple(shape)] * 2)
