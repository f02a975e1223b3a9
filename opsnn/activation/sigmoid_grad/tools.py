"""What `opsnn tiling sigmoid_grad` and `opsnn sanitize sigmoid_grad` ask of SigmoidGrad (see
opsnn.registry): input shapes (y, dy), one of them; the 910B block-split scheme or, on an
ascend950 platform, the arch35 one. Sanitize runs the kernel on exactly-sized random tensors
(special values mixed in) against functional_models, bit for bit."""
from __future__ import annotations

import math

import numpy as np

from opsnn.dtypes import to_numpy
from opsnn.op_common import block_padding, elementwise_report, plan_of
from opsnn.op_common.block_report import BlockSplitReport
from opsnn.op_common.elementwise_tools import TilingReport, one_shape, tiling_fields, with_specials
from opsnn.op_common.kernel_run import ExactRun
from opsnn.registry import ToolRequest

from . import functional_models as fm
from .op_host import SIGMOID_GRAD, sigmoid_grad_tiling
from .op_host.arch35 import sigmoid_grad_tiling_arch35

SPECIALS = (np.nan, np.inf, -np.inf, -0.0, 1.0)


def _tiling(request: ToolRequest):
    shape = one_shape(request, "SigmoidGrad", "y and dy")
    if request.platform.family == "ascend950":
        return sigmoid_grad_tiling_arch35((shape,) * 3, (request.dtype,) * 3, request.platform)
    return sigmoid_grad_tiling(math.prod(shape), request.dtype, request.platform)


def tiling_report(request: ToolRequest):
    r = _tiling(request)
    if request.platform.family != "ascend950":
        return BlockSplitReport(SIGMOID_GRAD.op_type, r, request)
    return TilingReport(f"SigmoidGrad arch35 tiling  shape={list(request.input_shapes[0])}  dtype={r.dtype}",
                        tiling_fields(r.block_dim, r.tiling_key, r.tiling_data, r.workspace_size),
                        elementwise_report.core_rows(r.tiling_data), plan=True)


def prepare_run(request: ToolRequest, seed: int = 0) -> ExactRun:
    result = _tiling(request)
    dtype, n = to_numpy(request.dtype), math.prod(request.input_shapes[0])
    rng = np.random.default_rng(seed)
    y, dy = with_specials(rng, dtype, n, SPECIALS), with_specials(rng, dtype, n, SPECIALS)
    if request.platform.family == "ascend950":
        from .op_kernel.arch35 import run_kernel
        names, options, padding = ("y", "dy", "z"), {"tiling_key": result.tiling_key}, {}
        model = fm.sigmoid_grad_arch35
    else:
        from .op_kernel.sigmoid_grad import run_kernel
        names, options, model = ("x", "y", "z"), {}, fm.sigmoid_grad_910b
        padding = dict.fromkeys(names, block_padding(plan_of(result.tiling_data, result.block_dim), n, dtype.itemsize))
    return ExactRun(run_kernel, platform=request.platform, block_dim=result.block_dim,
                    tiling=result.tiling_data.to_bytes(), inputs={names[0]: y, names[1]: dy},
                    outputs={names[2]: (dtype, n)}, padding=padding,
                    model=lambda ins: {names[2]: model(ins[names[0]], ins[names[1]])}, dtype=request.dtype, **options)
