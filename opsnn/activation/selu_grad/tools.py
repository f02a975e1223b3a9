"""`opsnn tiling selu_grad` / `opsnn sanitize selu_grad` (see opsnn.registry): input shapes
(gradients, outputs), equal; the 910B scheme, or arch35 on an ascend950 platform. Sanitize runs
the kernel on exactly-sized random tensors (NaN, +-inf, +-0 mixed in) against
functional_models, bit for bit; both kernels copy exactly, so nothing is padded."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from opsnn.dtypes import to_numpy
from opsnn.op_common import elementwise_report
from opsnn.op_common.kernel_run import ExactRun, random_values
from opsnn.registry import ToolRequest

from . import functional_models as fm
from .op_host import selu_grad_tiling
from .op_host.arch35 import selu_grad_tiling_arch35


def _check(request: ToolRequest) -> tuple[int, ...]:
    shapes = request.input_shapes
    if len(shapes) != 2 or shapes[0] != shapes[1]:
        raise ValueError(f"SeluGrad takes gradients and outputs of one shape, got {[list(s) for s in shapes]}")
    return tuple(shapes[0])


@dataclass(frozen=True)
class Report:
    arch35: bool
    fields: dict
    core_rows_: list

    def json_dict(self) -> dict:
        return self.fields

    def text_lines(self) -> list[str]:
        lines = [f"SeluGrad tiling ({'arch35' if self.arch35 else '910B'})"]
        lines += [f"  {key:<24} {value}" for key, value in self.fields.items()]
        return lines + (elementwise_report.plan_lines(self.core_rows_) if self.arch35 else [])

    def core_rows(self) -> list[dict]:
        return self.core_rows_


def tiling_report(request: ToolRequest) -> Report:
    shape = _check(request)
    if request.platform.family == "ascend950":
        d = selu_grad_tiling_arch35(shape or (1,), (request.dtype,) * 2, request.platform)
        return Report(True, {"block_dim": d.block_num, "tiling_key": 0, **d.upstream_dict(),
                             "tiling_data": d.to_bytes().hex()}, elementwise_report.core_rows(d))
    t = selu_grad_tiling(math.prod(shape), request.dtype, request.platform)
    d = t.tiling_data
    rows = [{"core": c, "start": c * d.block_factor, "end": min(d.total_num, (c + 1) * d.block_factor)}
            for c in range(t.block_dim)]
    return Report(False, {"block_dim": t.block_dim, "tiling_key": t.tiling_key, "workspace_size": t.workspace_size,
                          **d.upstream_dict(), "tiling_data": d.to_bytes().hex()}, rows)


def prepare_run(request: ToolRequest, seed: int = 0) -> ExactRun:
    report = tiling_report(request)
    dtype, n = to_numpy(request.dtype), math.prod(_check(request))
    rng = np.random.default_rng(seed)
    specials = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0], np.float32).astype(dtype)
    inputs = {}
    for name in ("gradients", "outputs"):
        values = random_values(rng, dtype, n)
        pick = rng.random(n) < 0.1
        values[pick] = specials[rng.integers(0, specials.size, int(pick.sum()))]
        inputs[name] = values
    if report.arch35:
        from .op_kernel.arch35 import run_kernel
        options, model = {"tiling_key": 0}, fm.selu_grad_arch35
    else:
        from .op_kernel.selu_grad import run_kernel
        options, model = {}, fm.selu_grad_910b
    return ExactRun(run_kernel, platform=request.platform, block_dim=report.fields["block_dim"],
                    tiling=bytes.fromhex(report.fields["tiling_data"]), inputs=inputs, outputs={"y": (dtype, n)},
                    padding={}, model=lambda ins: {"y": model(ins["gradients"], ins["outputs"])},
                    dtype=request.dtype, **options)
