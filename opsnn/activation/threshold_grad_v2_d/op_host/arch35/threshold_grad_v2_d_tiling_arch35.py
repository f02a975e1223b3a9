"""ThresholdGradV2D tiling on Ascend950 (upstream threshold_grad_v2_d_tiling_arch35.cpp):
BroadcastBaseTiling of the dtype's DAG, then the float threshold into scalar_data, key =
index(schMode) | dtypeTpl << 16, block dim = the struct's block_num, 16 MiB workspace."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from opsnn.atvoss import BroadcastBaseTiling, KeyedBroadcastTiling, TilingError, brc_tiling_key
from opsnn.dtypes import dtype_name
from opsnn.platform import Platform, get_platform

from ...op_kernel.arch35 import DTYPE_TPL, threshold_grad_v2_d_dag
from .threshold_grad_v2_d_def import THRESHOLD_GRAD_V2D_ARCH35

DEFAULT_THRESHOLD = THRESHOLD_GRAD_V2D_ARCH35.attr("threshold").default


@dataclass(frozen=True)
class Arch35TilingResult(KeyedBroadcastTiling):
    threshold: float  # as stored: float32


def tiling_arch35(input_shapes: Sequence[Sequence[int]], dtypes, threshold: float | None = None,
                  platform: Platform | str | None = None) -> Arch35TilingResult:
    """Tile (gradOutput shape, self shape). `dtypes`: one dtype for every tensor, or a
    (gradOutput, self, out) triple, which must agree. threshold None: the attr default 1.0."""
    if not isinstance(platform, Platform):
        platform = get_platform(platform)
    names = [dtypes] * 3 if isinstance(dtypes, str | np.dtype | type) else list(dtypes)
    try:
        names = [dtype_name(d) for d in names]
    except TypeError as e:
        raise TilingError(str(e)) from None
    if len(set(names)) != 1:
        raise TilingError(f"gradOutput, self and out dtypes must be equal, got {', '.join(names)}")
    name = names[0]
    if name not in DTYPE_TPL:
        raise TilingError(f"ThresholdGradV2D (arch35) does not support {name}; supported: {', '.join(DTYPE_TPL)}")
    if len(input_shapes) != 2:
        raise TilingError(f"ThresholdGradV2D takes 2 inputs, got {len(input_shapes)} shapes")
    with np.errstate(over="ignore"):  # the attr is a float32: beyond its range it is +-inf
        t = np.float32(DEFAULT_THRESHOLD if threshold is None else threshold)
    result = BroadcastBaseTiling(threshold_grad_v2_d_dag(name), platform).do_tiling(input_shapes)
    result = result.set_scalar(float(t))  # written after DoTiling, into whichever struct it chose
    return Arch35TilingResult(result, brc_tiling_key(result.schedule_mode, DTYPE_TPL[name]), name, float(t))
