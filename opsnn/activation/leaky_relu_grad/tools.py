"""What `opsnn tiling leaky_relu_grad` and `opsnn sanitize leaky_relu_grad` ask of LeakyReluGrad
(see opsnn.registry). Input shapes are (gradients, features), which may broadcast; the option
--negative-slope is the attr. The arch35 (Ascend950) scheme only: on Ascend910B LeakyReluGrad is
a built-in TBE kernel with no tiling of ours."""
from __future__ import annotations

import math

import numpy as np

from opsnn.atvoss.report import BroadcastReport
from opsnn.dtypes import to_numpy
from opsnn.op_common.kernel_run import ExactRun, random_values
from opsnn.registry import ToolRequest

from . import functional_models
from .op_host import DEFAULT_NEGATIVE_SLOPE
from .op_host.arch35 import LeakyReluGradTilingResult, leaky_relu_grad_tiling

INPUT_NAMES = ("gradients", "features")


def _tiling(request: ToolRequest) -> LeakyReluGradTilingResult:
    if request.platform.family != "ascend950":
        raise ValueError("LeakyReluGrad on the Ascend910B scheme is a built-in TBE kernel (no AscendC tiling); "
                         "use --soc Ascend950 or --family ascend950")
    if len(request.input_shapes) != 2:
        raise ValueError(f"LeakyReluGrad takes 2 input shapes (gradients, features), got {len(request.input_shapes)}")
    try:
        np.broadcast_shapes(*request.input_shapes)
    except ValueError:
        raise ValueError(f"shapes {' and '.join(str(list(s)) for s in request.input_shapes)} do not broadcast") \
            from None
    return leaky_relu_grad_tiling(request.input_shapes, request.dtype,
                                  request.options.get("negative_slope", DEFAULT_NEGATIVE_SLOPE), request.platform)


def tiling_report(request: ToolRequest) -> BroadcastReport:
    r = _tiling(request)
    return BroadcastReport("LeakyReluGrad", r, request, {"negative_slope": r.negative_slope})


def prepare_run(request: ToolRequest, seed: int = 0) -> ExactRun:
    """The arch35 kernel on exactly-sized random inputs (un-broadcast, as the kernel takes them),
    compared with the Ascend950 functional model; the copies are exact, so no padding."""
    r = _tiling(request)
    dtype = to_numpy(r.dtype)
    rng = np.random.default_rng(seed)
    shapes = request.input_shapes
    inputs = {name: random_values(rng, dtype, math.prod(s)) for name, s in zip(INPUT_NAMES, shapes, strict=True)}
    n_out = math.prod(np.broadcast_shapes(*shapes))

    def model(given):
        g, f = (given[name].reshape(s) for name, s in zip(INPUT_NAMES, shapes, strict=True))
        return {"backprops": functional_models.leaky_relu_grad_arch35(g, f, r.negative_slope).reshape(-1)}

    return ExactRun(_run_kernel(), platform=request.platform, block_dim=r.block_dim,
                    tiling=r.tiling_data.to_bytes(), inputs=inputs, outputs={"backprops": (dtype, n_out)},
                    padding={}, model=model, dtype=r.dtype, schedule_mode=r.schedule_mode)


def _run_kernel():
    from .op_kernel.arch35 import run_kernel
    return run_kernel
