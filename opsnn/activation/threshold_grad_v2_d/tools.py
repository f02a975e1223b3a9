"""What `opsnn tiling` and `opsnn sanitize` ask of ThresholdGradV2D (see opsnn.registry)."""
from __future__ import annotations

import math

from opsnn.op_common.block_report import BlockSplitReport
from opsnn.op_common.kernel_run import ExactRun
from opsnn.registry import ToolRequest

from .op_host import THRESHOLD_GRAD_V2D, tiling


def _same_shape(request: ToolRequest) -> int:
    """The element count; the 910B kernel never broadcasts, so both inputs must agree."""
    if len(set(request.input_shapes)) != 1:
        raise ValueError(f"the Ascend910B ThresholdGradV2D kernel takes two inputs of one shape, got "
                         f"{' and '.join(str(list(s)) for s in request.input_shapes)} (the API layer "
                         "broadcasts before it)")
    return math.prod(request.input_shapes[0])


def tiling_report(request: ToolRequest):
    if request.platform.family == "ascend950":
        from .op_host.arch35.tools import arch35_tiling_report
        return arch35_tiling_report(request)
    result = tiling(_same_shape(request), request.dtype, request.options.get("threshold", 1.0), request.platform)
    return BlockSplitReport(THRESHOLD_GRAD_V2D.op_type, result, request)


def prepare_run(request: ToolRequest, seed: int = 0) -> ExactRun:
    """The kernel on exactly-sized random tensors, with the tiling's padding declared."""
    if request.platform.family == "ascend950":
        from .op_host.arch35.tools import arch35_prepare_run
        return arch35_prepare_run(request, seed)
    from .op_kernel.sanitize import prepare_tiling

    return prepare_tiling(tiling_report(request).result, request.platform, seed=seed,
                          upstream_int8_temp=bool(request.options.get("upstream_int8_temp", False)))
