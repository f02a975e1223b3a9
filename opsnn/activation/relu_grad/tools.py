"""What `opsnn tiling relu_grad` and `opsnn sanitize relu_grad` ask of ReluGrad (see opsnn.registry)."""
from __future__ import annotations

import math

import numpy as np

from opsnn.dtypes import to_numpy
from opsnn.op_common.block_report import BlockSplitReport
from opsnn.op_common.kernel_run import ExactRun, random_values
from opsnn.registry import ToolRequest

from . import functional_models
from .op_host import RELU_GRAD, tiling


def tiling_report(request: ToolRequest):
    if request.platform.family == "ascend950":
        from .op_host.arch35.tools import arch35_tiling_report
        return arch35_tiling_report(request)
    if len(set(request.input_shapes)) != 1:
        raise ValueError("the Ascend910B ReluGrad kernel takes two inputs of one shape")
    result = tiling(math.prod(request.input_shapes[0]), request.dtype, request.platform)
    return BlockSplitReport(RELU_GRAD.op_type, result, request)


def prepare_run(request: ToolRequest, seed: int = 0) -> ExactRun:
    """The kernel on exactly-sized random tensors, the tiling's padding declared."""
    if request.platform.family == "ascend950":
        from .op_host.arch35.tools import arch35_prepare_run
        return arch35_prepare_run(request, seed)
    from .op_kernel import run_kernel

    r = tiling_report(request).result
    dtype, n = to_numpy(r.dtype), r.num_elements
    rng = np.random.default_rng(seed)
    return ExactRun(run_kernel, platform=request.platform, block_dim=r.block_dim, tiling=r.tiling_data.to_bytes(),
                    inputs={"gradients": random_values(rng, dtype, n), "features": random_values(rng, dtype, n)},
                    outputs={"backprops": (dtype, n)},
                    padding=dict.fromkeys(("gradients", "features", "backprops"), r.padding()), model=model,
                    dtype=r.dtype)


def model(inputs):
    """ReluGrad's functional model on a 910B run's inputs."""
    return {"backprops": functional_models.relu_grad(inputs["gradients"], inputs["features"])}
