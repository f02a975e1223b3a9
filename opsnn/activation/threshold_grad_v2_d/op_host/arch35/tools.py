"""`opsnn tiling` / `opsnn sanitize` for ThresholdGradV2D on an ascend950 platform: the arch35
tiling (one-dim 201 or the multi-dim broadcast struct) and the arch35 kernel on exactly-sized
tensors, the inputs un-broadcast as the kernel takes them."""
from __future__ import annotations

import math

import numpy as np

from opsnn.atvoss.report import BroadcastReport
from opsnn.dtypes import to_numpy
from opsnn.op_common.kernel_run import ExactRun, random_values
from opsnn.registry import ToolRequest

from ... import functional_models
from ...op_kernel.arch35 import run_kernel
from .threshold_grad_v2_d_tiling_arch35 import DEFAULT_THRESHOLD, Arch35TilingResult, tiling_arch35


def _tiling(request: ToolRequest) -> Arch35TilingResult:
    if len(request.input_shapes) != 2:
        raise ValueError(f"ThresholdGradV2D takes 2 input shapes (gradOutput, self), got {len(request.input_shapes)}")
    try:
        np.broadcast_shapes(*request.input_shapes)
    except ValueError:
        raise ValueError(f"shapes {' and '.join(str(list(s)) for s in request.input_shapes)} do not broadcast") \
            from None
    return tiling_arch35(request.input_shapes, request.dtype, request.options.get("threshold", DEFAULT_THRESHOLD),
                         request.platform)


def arch35_tiling_report(request: ToolRequest) -> BroadcastReport:
    r = _tiling(request)
    return BroadcastReport("ThresholdGradV2D", r, request, {"threshold": r.threshold})


def arch35_prepare_run(request: ToolRequest, seed: int = 0) -> ExactRun:
    """The arch35 kernel on exactly-sized random inputs; its copies are exact, so no padding."""
    r = _tiling(request)
    dtype = to_numpy(r.dtype)
    rng = np.random.default_rng(seed)
    shapes = request.input_shapes
    inputs = {name: random_values(rng, dtype, math.prod(s)) for name, s in zip(("gradOutput", "self"), shapes,
                                                                              strict=True)}
    n_out = math.prod(np.broadcast_shapes(*shapes))

    def model(given):
        g, f = np.broadcast_arrays(given["gradOutput"].reshape(shapes[0]), given["self"].reshape(shapes[1]))
        return {"out": functional_models.arch35_threshold_grad(g, f, r.threshold)}

    return ExactRun(run_kernel, platform=request.platform, block_dim=r.block_dim, tiling=r.tiling_data.to_bytes(),
                    inputs=inputs, outputs={"out": (dtype, n_out)}, padding={}, model=model, dtype=r.dtype,
                    schedule_mode=r.schedule_mode)
