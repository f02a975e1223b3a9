"""What `opsnn tiling sigmoid_grad` and `opsnn sanitize sigmoid_grad` ask of SigmoidGrad (see
opsnn.registry): input shapes (y, dy), one of them; the 910B block-split scheme or, on an
ascend950 platform, the arch35 one. Sanitize runs the kernel on exactly-sized random tensors
(special values mixed in) against functional_models, bit for bit."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from opsnn.dtypes import to_numpy
from opsnn.op_common import block_padding, elementwise_report, plan_of
from opsnn.op_common.block_report import BlockSplitReport
from opsnn.op_common.kernel_run import ExactRun, random_values
from opsnn.registry import ToolRequest

from . import functional_models as fm
from .op_host import SIGMOID_GRAD, sigmoid_grad_tiling
from .op_host.arch35 import sigmoid_grad_tiling_arch35


def _tiling(request: ToolRequest):
    shapes = request.input_shapes
    if len(shapes) != 2 or shapes[0] != shapes[1]:
        raise ValueError(f"SigmoidGrad takes y and dy of one shape, got {[list(s) for s in shapes]}")
    if request.platform.family == "ascend950":
        return sigmoid_grad_tiling_arch35((shapes[0],) * 3, (request.dtype,) * 3, request.platform)
    return sigmoid_grad_tiling(math.prod(shapes[0]), request.dtype, request.platform)


@dataclass(frozen=True)
class Arch35Report:
    result: object
    request: ToolRequest

    def json_dict(self) -> dict:
        r = self.result
        return {"block_dim": r.block_dim, "tiling_key": r.tiling_key, "workspace_size": r.workspace_size,
                **r.tiling_data.upstream_dict(), "tiling_data": r.tiling_data.to_bytes().hex()}

    def text_lines(self) -> list[str]:
        lines = [f"SigmoidGrad arch35 tiling  shape={list(self.request.input_shapes[0])}  dtype={self.result.dtype}"]
        lines += [f"  {key:<24} {value}" for key, value in self.json_dict().items()]
        return lines + elementwise_report.plan_lines(self.core_rows())

    def core_rows(self) -> list[dict]:
        return elementwise_report.core_rows(self.result.tiling_data)


def tiling_report(request: ToolRequest):
    result = _tiling(request)
    if request.platform.family == "ascend950":
        return Arch35Report(result, request)
    return BlockSplitReport(SIGMOID_GRAD.op_type, result, request)


def _values(rng, dtype, n: int) -> np.ndarray:
    values = random_values(rng, dtype, n)
    pick = rng.random(n) < 0.1
    specials = np.array([np.nan, np.inf, -np.inf, -0.0, 1.0], np.float32).astype(dtype)
    values[pick] = specials[rng.integers(0, specials.size, int(pick.sum()))]
    return values


def prepare_run(request: ToolRequest, seed: int = 0) -> ExactRun:
    result = _tiling(request)
    dtype, n = to_numpy(request.dtype), math.prod(request.input_shapes[0])
    rng = np.random.default_rng(seed)
    y, dy = _values(rng, dtype, n), _values(rng, dtype, n)
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
