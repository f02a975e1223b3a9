"""What `opsnn tiling hardtanh_grad` and `opsnn sanitize hardtanh_grad` ask of HardtanhGrad (see
opsnn.registry). Input shapes are (result, grad); the options --min-val / --max-val are the attrs.
The arch35 (Ascend950) scheme only: on Ascend910B HardtanhGrad is a built-in TBE kernel with no
tiling of ours."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from opsnn.dtypes import to_numpy
from opsnn.op_common import elementwise_report
from opsnn.op_common.kernel_run import ExactRun, random_values
from opsnn.registry import ToolRequest

from . import functional_models
from .op_host import MAX_VAL_DEFAULT, MIN_VAL_DEFAULT
from .op_host.arch35 import HardtanhGradTilingResult, TensorDesc, hardtanh_grad_tiling


def _bounds(request: ToolRequest) -> tuple[float, float]:
    return (float(request.options.get("min_val", MIN_VAL_DEFAULT)),
            float(request.options.get("max_val", MAX_VAL_DEFAULT)))


def _tiling(request: ToolRequest) -> HardtanhGradTilingResult:
    if request.platform.family != "ascend950":
        raise ValueError("HardtanhGrad on the Ascend910B scheme is a built-in TBE kernel (no AscendC tiling); "
                         "use --soc Ascend950 or --family ascend950")
    if len(request.input_shapes) != 2:
        raise ValueError(f"HardtanhGrad takes the shapes of result and grad, got {len(request.input_shapes)}")
    result_shape, grad_shape = request.input_shapes
    lo, hi = _bounds(request)
    return hardtanh_grad_tiling(TensorDesc(result_shape, request.dtype), TensorDesc(grad_shape, request.dtype),
                                TensorDesc(result_shape, request.dtype), lo, hi, request.platform)


@dataclass(frozen=True)
class Report:
    result: HardtanhGradTilingResult
    request: ToolRequest

    def json_dict(self) -> dict:
        r = self.result
        return {"block_dim": r.block_dim, "tiling_key": r.tiling_key, "schedule_mode": r.tiling_data.base.sche_mode,
                "workspace_size": r.workspace_size, **r.tiling_data.upstream_dict(),
                "tiling_data": r.tiling_data.to_bytes().hex()}

    def text_lines(self) -> list[str]:
        r, p = self.result, self.request.platform
        lines = [f"HardtanhGrad tiling  shapes={[list(s) for s in self.request.input_shapes]}  dtype={r.dtype}  "
                 f"min_val={r.tiling_data.min_val!r}  max_val={r.tiling_data.max_val!r}",
                 f"platform {p.name}: ub_size={p.ub_size} aiv_cores={p.aiv_cores}"]
        lines += [f"  {key:<24} {value}" for key, value in self.json_dict().items()]
        lines.append(f"  {'upstream_words':<24} {r.tiling_data.words().strip()}")
        return lines + elementwise_report.plan_lines(self.core_rows())

    def core_rows(self) -> list[dict]:
        return elementwise_report.core_rows(self.result.tiling_data.base)


def tiling_report(request: ToolRequest) -> Report:
    return Report(_tiling(request), request)


def _special_values(rng: np.random.Generator, dtype: np.dtype, n: int, lo: float, hi: float) -> np.ndarray:
    """Random values with the cases that matter mixed in: the bounds themselves, NaN, +-inf, -0.0."""
    values = random_values(rng, dtype, n)
    specials = np.array([lo, hi, np.nan, np.inf, -np.inf, -0.0, 0.0], dtype=np.float64)
    with np.errstate(over="ignore"):
        specials = specials.astype(np.float32).astype(dtype)
    pick = rng.random(n) < 0.2
    values[pick] = specials[rng.integers(0, specials.size, int(pick.sum()))]
    return values


def prepare_run(request: ToolRequest, seed: int = 0) -> ExactRun:
    """The kernel on exactly-sized random tensors (bounds, NaN, inf and -0.0 mixed in); the
    schedule copies with DataCopyPad, so no padding is declared."""
    result = _tiling(request)
    dtype = to_numpy(request.dtype)
    rng = np.random.default_rng(seed)
    n = result.tiling_data.base.dim0
    lo, hi = result.tiling_data.min_val, result.tiling_data.max_val
    inputs = {"result": _special_values(rng, dtype, n, lo, hi), "grad": _special_values(rng, dtype, n, lo, hi)}

    def model(ins):
        return {"y": functional_models.hardtanh_grad_arch35(ins["result"], ins["grad"], lo, hi)}

    return ExactRun(_kernel(), platform=request.platform, block_dim=result.block_dim,
                    tiling=result.tiling_data.to_bytes(), inputs=inputs, outputs={"y": (dtype, n)}, padding={},
                    model=model, dtype=request.dtype, tiling_key=result.tiling_key)


def _kernel():
    from .op_kernel.arch35 import run_kernel
    return run_kernel
