"""`opsnn tiling relu_grad` / `opsnn sanitize relu_grad` on an ascend950 platform: the arch35
broadcast tiling of ReluGrad's DAG and its kernel on exactly-sized, un-broadcast inputs."""
from __future__ import annotations

import math

import numpy as np

from opsnn.atvoss.report import BroadcastReport
from opsnn.dtypes import to_numpy
from opsnn.op_common.kernel_run import ExactRun, random_values
from opsnn.registry import ToolRequest

from ... import functional_models
from ...op_kernel.arch35 import run_kernel
from .relu_grad_tiling_arch35 import ReluGradArch35Tiling, tiling_arch35


def _tiling(request: ToolRequest) -> ReluGradArch35Tiling:
    try:
        np.broadcast_shapes(*request.input_shapes)
    except ValueError:
        raise ValueError(f"shapes {' and '.join(str(list(s)) for s in request.input_shapes)} do not broadcast") \
            from None
    return tiling_arch35(request.input_shapes, request.dtype, request.platform)


def arch35_tiling_report(request: ToolRequest) -> BroadcastReport:
    return BroadcastReport("ReluGrad", _tiling(request), request)


def arch35_prepare_run(request: ToolRequest, seed: int = 0) -> ExactRun:
    r = _tiling(request)
    dtype = to_numpy(r.dtype)
    rng = np.random.default_rng(seed)
    inputs = {name: random_values(rng, dtype, math.prod(s))
              for name, s in zip(("gradients", "features"), request.input_shapes, strict=True)}
    shapes = request.input_shapes
    n_out = math.prod(np.broadcast_shapes(*shapes))

    def model(given):
        g, f = np.broadcast_arrays(given["gradients"].reshape(shapes[0]), given["features"].reshape(shapes[1]))
        return {"backprops": functional_models.relu_grad(np.ascontiguousarray(g), f)}

    return ExactRun(run_kernel, platform=request.platform, block_dim=r.block_dim, tiling=r.tiling_data.to_bytes(),
                    inputs=inputs, outputs={"backprops": (dtype, n_out)}, padding={}, model=model, dtype=r.dtype,
                    schedule_mode=r.schedule_mode)
