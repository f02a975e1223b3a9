"""`opsnn tiling softshrink_grad` / `opsnn sanitize softshrink_grad` (opsnn.registry): input shapes
(grad, x), one of them, on an ascend950 platform (the one kernel); --lambd. Sanitize runs the
kernel on exactly-sized random tensors (NaN, +-inf, +-0 and +-lambd mixed in) against
functional_models, bit for bit; the kernel copies exactly, so nothing is padded."""
from __future__ import annotations

import math

import numpy as np

from opsnn.dtypes import to_numpy
from opsnn.op_common.elementwise_tools import TilingReport, one_shape, tiling_fields, with_specials
from opsnn.op_common.kernel_run import ExactRun
from opsnn.registry import ToolRequest

from . import functional_models as fm
from .op_host import softshrink_grad_tiling


def tiling_report(request: ToolRequest) -> TilingReport:
    shape = one_shape(request, "SoftShrinkGrad", "grad and x")
    if request.platform.family != "ascend950":
        raise ValueError(f"SoftShrinkGrad has a kernel for ascend950 only, not {request.platform.name}")
    t = softshrink_grad_tiling((shape, shape), (request.dtype,) * 2, request.options.get("lambd", 0.5),
                               request.platform)
    d = t.tiling_data
    rows = [{"core": c, "start": c * d.block_former, "end": min(d.dim0, (c + 1) * d.block_former),
             "tile_data_num": d.ub_former} for c in range(t.block_dim)]
    return TilingReport(f"SoftShrinkGrad tiling (arch35)  shape={list(shape)}  dtype={t.dtype}",
                        tiling_fields(t.block_dim, t.tiling_key, d, t.workspace_size), rows)


def prepare_run(request: ToolRequest, seed: int = 0) -> ExactRun:
    fields, lambd = tiling_report(request).fields, request.options.get("lambd", 0.5)
    dtype, n = to_numpy(request.dtype), math.prod(request.input_shapes[0])
    rng = np.random.default_rng(seed)
    specials = (np.nan, np.inf, -np.inf, -0.0, 0.0, lambd, -lambd)
    inputs = {name: with_specials(rng, dtype, n, specials) for name in ("input_grad", "input_x")}
    from .op_kernel.softshrink_grad import run_kernel
    return ExactRun(run_kernel, platform=request.platform, block_dim=fields["block_dim"],
                    tiling=bytes.fromhex(fields["tiling_data"]), inputs=inputs, outputs={"output_y": (dtype, n)},
                    padding={}, dtype=request.dtype, tiling_key=fields["tiling_key"],
                    model=lambda ins: {"output_y": fm.softshrink_grad_arch35(ins["input_grad"], ins["input_x"], lambd)})
