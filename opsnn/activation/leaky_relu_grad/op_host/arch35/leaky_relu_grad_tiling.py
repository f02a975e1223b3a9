"""LeakyReluGrad tiling on Ascend950 (upstream op_host/arch35/leaky_relu_grad_tiling.cpp,
docs/leaky-relu-grad.md §4).

DoOpTiling, in upstream's order, every failure a TilingError (GRAPH_FAILED): the three dtypes
must be equal; the slope is attr 0 as float32 (0.0 when absent); the dtype picks the DAG
(fp16 / bf16 / fp32, anything else fails). Then atvoss BroadcastBaseTiling of that DAG, the key
GET_TPL_TILING_KEY(schMode, dtypeTpl), and SetScalar(slope) into scalar_data of whichever struct
the tiling chose (one-dim 56 bytes, slope at byte 40; multi-dim 632 bytes, slope at byte 616).
Block dim = the struct's block_num; workspace 16 MiB (BroadcastBaseTiling's own)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from opsnn.atvoss import BroadcastBaseTiling, KeyedBroadcastTiling, TilingError
from opsnn.dtypes import dtype_name
from opsnn.platform import Platform, get_platform

from ...op_kernel.arch35 import DTYPE_TPL, leaky_relu_grad_dag, leaky_relu_grad_tiling_key
from ..leaky_relu_grad_def import DEFAULT_NEGATIVE_SLOPE


@dataclass(frozen=True)
class LeakyReluGradTilingResult(KeyedBroadcastTiling):
    negative_slope: float  # as stored in scalar_data: a float32 value


def as_attr_float(value) -> np.float32:
    """The Float attr as the tiling reads it (float32; beyond its range: +-inf; a signalling NaN
    silently)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return np.float32(value)


def leaky_relu_grad_tiling(input_shapes: Sequence[Sequence[int]], dtypes, negative_slope: float | None = None,
                           platform: Platform | str | None = None) -> LeakyReluGradTilingResult:
    """Tile (gradients shape, features shape). `dtypes`: one dtype for all three tensors, or a
    (gradients, features, backprops) triple. negative_slope None: the attr is absent (0.0)."""
    if not isinstance(platform, Platform):
        platform = get_platform(platform)
    if len(input_shapes) != 2:
        raise TilingError(f"LeakyReluGrad takes 2 inputs (gradients, features), got {len(input_shapes)} shapes")
    names = [dtypes] * 3 if isinstance(dtypes, str | np.dtype | type) else list(dtypes)
    if len(names) != 3:
        raise TilingError(f"give one dtype or three (gradients, features, backprops), got {len(names)}")
    try:
        names = [dtype_name(d) for d in names]
    except TypeError as e:
        raise TilingError(str(e)) from None
    if len(set(names)) != 1:
        raise TilingError(f"gradients, features and backprops dtypes must be equal, got {', '.join(names)}")
    slope = as_attr_float(DEFAULT_NEGATIVE_SLOPE if negative_slope is None else negative_slope)
    name = names[0]
    if name not in DTYPE_TPL:
        raise TilingError(f"LeakyReluGrad (arch35) does not support {name}; supported: {', '.join(DTYPE_TPL)}")
    result = BroadcastBaseTiling(leaky_relu_grad_dag(name), platform).do_tiling(input_shapes)
    key = leaky_relu_grad_tiling_key(result.schedule_mode, name)
    result = result.set_scalar(float(slope))  # after DoTiling, into whichever struct it chose
    return LeakyReluGradTilingResult(result, key, name, float(slope))
