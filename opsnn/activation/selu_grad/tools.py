"""`opsnn tiling selu_grad` / `opsnn sanitize selu_grad` (see opsnn.registry): input shapes
(gradients, outputs), equal; the 910B scheme, or arch35 on an ascend950 platform. Sanitize runs
the kernel on exactly-sized random tensors (NaN, +-inf, +-0 mixed in) against
functional_models, bit for bit; both kernels copy exactly, so nothing is padded."""
from __future__ import annotations

import math

import numpy as np

from opsnn.dtypes import to_numpy
from opsnn.op_common import elementwise_report
from opsnn.op_common.elementwise_tools import TilingReport, one_shape, tiling_fields, with_specials
from opsnn.op_common.kernel_run import ExactRun
from opsnn.registry import ToolRequest

from . import functional_models as fm
from .op_host import selu_grad_tiling
from .op_host.arch35 import selu_grad_tiling_arch35

SPECIALS = (np.nan, np.inf, -np.inf, -0.0, 0.0)


def tiling_report(request: ToolRequest) -> TilingReport:
    shape = one_shape(request, "SeluGrad", "gradients and outputs")
    if request.platform.family == "ascend950":
        d = selu_grad_tiling_arch35(shape or (1,), (request.dtype,) * 2, request.platform)
        return TilingReport("SeluGrad tiling (arch35)", tiling_fields(d.block_num, 0, d),
                            elementwise_report.core_rows(d), plan=True)
    t = selu_grad_tiling(math.prod(shape), request.dtype, request.platform)
    d = t.tiling_data
    rows = [{"core": c, "start": c * d.block_factor, "end": min(d.total_num, (c + 1) * d.block_factor)}
            for c in range(t.block_dim)]
    return TilingReport("SeluGrad tiling (910B)", tiling_fields(t.block_dim, t.tiling_key, d, t.workspace_size), rows)


def prepare_run(request: ToolRequest, seed: int = 0) -> ExactRun:
    report = tiling_report(request)
    dtype, n = to_numpy(request.dtype), math.prod(request.input_shapes[0])
    rng = np.random.default_rng(seed)
    inputs = {name: with_specials(rng, dtype, n, SPECIALS) for name in ("gradients", "outputs")}
    if report.plan:  # arch35
        from .op_kernel.arch35 import run_kernel
        options, model = {"tiling_key": 0}, fm.selu_grad_arch35
    else:
        from .op_kernel.selu_grad import run_kernel
        options, model = {}, fm.selu_grad_910b
    return ExactRun(run_kernel, platform=request.platform, block_dim=report.fields["block_dim"],
                    tiling=bytes.fromhex(report.fields["tiling_data"]), inputs=inputs, outputs={"y": (dtype, n)},
                    padding={}, model=lambda ins: {"y": model(ins["gradients"], ins["outputs"])},
                    dtype=request.dtype, **options)
