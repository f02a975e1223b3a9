"""Tiling structs that carry a kernel's attribute: the 910B block split with fields of its own
(block_split_tiling builds it), and an arch35 base struct followed by the DAG's Vars
(op_common.tiling_struct.BaseWithVars) (issue 35 item 6)."""
from __future__ import annotations

import math
import struct

import numpy as np
import pytest

from opsnn.activation.hardtanh_grad.op_host.arch35.hardtanh_grad_tiling_arch35 import tiling_for
from opsnn.activation.threshold_grad_v2_d.op_host.threshold_grad_v2_d_tiling import tiling as threshold_tiling
from opsnn.activation.threshold_grad_v2_d.op_kernel.threshold_grad_v2_d_tiling_data import ThresholdGradV2DTilingData
from opsnn.op_common.block_tiling import block_split_tiling
from opsnn.op_common.tiling_struct import BaseWithVars


def test_block_split_tiling_builds_a_struct_with_an_attribute():
    """ThresholdGradV2D's struct (the block split, then its threshold): the house tiling gives
    the same split and the threshold where the operator passes it by name."""
    t = block_split_tiling("ThresholdGradV2D", 100_003, "float32", "Ascend910B2", {"float32": 7},
                           ThresholdGradV2DTilingData, threshold=0.25)
    own = threshold_tiling(100_003, "float32", 0.25, "Ascend910B2")
    assert t.tiling_data == own.tiling_data and t.block_dim == own.block_dim
    assert t.tiling_data.to_bytes()[64:68] == struct.pack("<f", 0.25) and len(t.tiling_data.to_bytes()) == 72
    with pytest.raises(TypeError):  # an attribute the struct does not have
        block_split_tiling("X", 10, "float32", "Ascend910B2", {"float32": 9}, ThresholdGradV2DTilingData, lambd=1)


class _Bounds(BaseWithVars):
    NAMES = ("min_val", "max_val")


def test_base_with_vars_is_hardtanhs_layout():
    """HardtanhGrad's 88 bytes (EleBaseTilingData, then min_val and max_val as float32) from the
    generic struct: the same bytes, round trip, names, float32 storage."""
    upstream = tiling_for((1000,), "float32", -0.5, 1e39, "Ascend950").tiling_data
    mine = _Bounds(upstream.base, (-0.5, 1e39))
    assert mine.to_bytes() == upstream.to_bytes() and len(mine.to_bytes()) == 88
    assert _Bounds.from_bytes(mine.to_bytes()) == mine and mine.values == (-0.5, math.inf)
    assert mine.scalar_data == np.float32([-0.5, np.inf]).tobytes()
    assert mine.upstream_dict()["max_val"] == math.inf and mine.upstream_dict()["dim0"] == upstream.base.dim0
    with pytest.raises(ValueError, match="holds 2 var"):
        _Bounds(upstream.base, (1.0,))
    with pytest.raises(ValueError, match="is 88 bytes, got 84"):
        _Bounds.from_bytes(mine.to_bytes()[:84])
