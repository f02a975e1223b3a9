"""ReluGrad tiling on Ascend950: BroadcastBaseTiling of the dtype's DAG.

Two things here are ours, not upstream's (whose arch35 ReluGrad tiling the facts do not cover):
the dtype template values below, and the one-dim path. Upstream's BroadcastBaseTiling sends a
DAG with no Var and at most 4 GM tensors (ReluGrad: 3) to the "advance" one-dim schedule 202,
which is not modelled; the one-dim tiling (201) is used instead. Data movement only: the values
are the same."""
from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

from opsnn.atvoss import BroadcastBaseTiling, KeyedBroadcastTiling, TilingError, brc_tiling_key
from opsnn.dtypes import dtype_name
from opsnn.platform import Platform, get_platform

from ...op_kernel.arch35 import relu_grad_dag

DTYPE_TPL = MappingProxyType({"float16": 1, "bfloat16": 2, "float32": 3, "int32": 4, "int8": 5, "uint8": 6,
                              "int64": 7})


ReluGradArch35Tiling = KeyedBroadcastTiling  # the result, key and dtype; no scalar attr


def tiling_arch35(input_shapes: Sequence[Sequence[int]], dtype, platform: Platform | str | None = None,
                  ) -> ReluGradArch35Tiling:
    """Tile (gradients shape, features shape) of one dtype."""
    if not isinstance(platform, Platform):
        platform = get_platform(platform)
    try:
        name = dtype_name(dtype)
    except TypeError as e:
        raise TilingError(str(e)) from None
    if name not in DTYPE_TPL:
        raise TilingError(f"ReluGrad (arch35) does not support {name}; supported: {', '.join(DTYPE_TPL)}")
    result = BroadcastBaseTiling(relu_grad_dag(name), platform).do_tiling(input_shapes)
    return ReluGradArch35Tiling(result, brc_tiling_key(result.schedule_mode, DTYPE_TPL[name]), name)
