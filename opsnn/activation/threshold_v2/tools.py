"""What `opsnn tiling threshold_v2` and `opsnn sanitize threshold_v2` ask of ThresholdV2 (see
opsnn.registry). Input shapes are (x, threshold); value, when present, has threshold's shape.
The arch35 (Ascend950) scheme only: on Ascend910B ThresholdV2 is a built-in TBE kernel with no
tiling of ours."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from opsnn.dtypes import to_numpy
from opsnn.op_common import elementwise_report
from opsnn.op_common.kernel_run import ExactRun, random_values
from opsnn.registry import ToolRequest

from . import functional_models
from .op_host.arch35 import TensorDesc, ThresholdV2TilingResult, threshold_v2_tiling


def _tiling(request: ToolRequest) -> ThresholdV2TilingResult:
    if request.platform.family != "ascend950":
        raise ValueError("ThresholdV2 on the Ascend910B scheme is a built-in TBE kernel (no AscendC tiling); "
                         "use --soc Ascend950 or --family ascend950")
    if len(request.input_shapes) != 2:
        raise ValueError(f"ThresholdV2 takes the shapes of x and threshold, got {len(request.input_shapes)}")
    x_shape, t_shape = request.input_shapes
    value = None if request.options.get("no_value", False) else TensorDesc(t_shape, request.dtype)
    return threshold_v2_tiling(TensorDesc(x_shape, request.dtype), TensorDesc(t_shape, request.dtype), value,
                               TensorDesc(x_shape, request.dtype), request.platform)


@dataclass(frozen=True)
class Report:
    result: ThresholdV2TilingResult
    request: ToolRequest

    def json_dict(self) -> dict:
        r = self.result
        return {"block_dim": r.block_dim, "tiling_key": r.tiling_key, "schedule_mode": r.tiling_data.sche_mode,
                "workspace_size": r.workspace_size, **r.tiling_data.upstream_dict(),
                "tiling_data": r.tiling_data.to_bytes().hex()}

    def text_lines(self) -> list[str]:
        r, p = self.result, self.request.platform
        lines = [f"ThresholdV2 tiling  shapes={[list(s) for s in self.request.input_shapes]}  dtype={r.dtype}  "
                 f"value={'yes' if r.has_value else 'no'}",
                 f"platform {p.name}: ub_size={p.ub_size} aiv_cores={p.aiv_cores}"]
        lines += [f"  {key:<24} {value}" for key, value in self.json_dict().items()]
        return lines + elementwise_report.plan_lines(self.core_rows())

    def core_rows(self) -> list[dict]:
        return elementwise_report.core_rows(self.result.tiling_data)


def tiling_report(request: ToolRequest) -> Report:
    return Report(_tiling(request), request)


def prepare_run(request: ToolRequest, seed: int = 0) -> ExactRun:
    """The kernel on exactly-sized random tensors. The schedule copies with DataCopyPad and
    touches nothing past a tensor, so no padding is declared."""
    result = _tiling(request)
    dtype = to_numpy(request.dtype)
    rng = np.random.default_rng(seed)
    x_shape, t_shape = request.input_shapes
    n, nt = result.tiling_data.dim0, int(np.prod(t_shape, dtype=np.int64))
    inputs = {"x": random_values(rng, dtype, n), "threshold": random_values(rng, dtype, nt)}
    if result.has_value:
        inputs["value"] = random_values(rng, dtype, nt)
    return ExactRun(_kernel(), platform=request.platform, block_dim=result.block_dim,
                    tiling=result.tiling_data.to_bytes(), inputs=inputs, outputs={"y": (dtype, n)}, padding={},
                    model=_model, dtype=request.dtype, tiling_key=result.tiling_key)


def _model(inputs):
    return {"y": functional_models.threshold_v2_arch35(inputs["x"], inputs["threshold"], inputs.get("value"))}


def _kernel():
    from .op_kernel.arch35 import run_kernel
    return run_kernel
