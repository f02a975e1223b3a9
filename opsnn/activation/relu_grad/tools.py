"""What `opsnn tiling relu_grad` and `opsnn sanitize relu_grad` ask of ReluGrad (see opsnn.registry)."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from opsnn.ascendc import LaunchReport
from opsnn.dtypes import to_numpy
from opsnn.op_common.kernel_run import random_values, run_exact
from opsnn.registry import ToolRequest

from .op_host import TilingResult, tiling


@dataclass(frozen=True)
class Report:
    result: TilingResult
    request: ToolRequest

    def json_dict(self) -> dict:
        return self.result.to_json_dict()

    def text_lines(self) -> list[str]:
        r, p = self.result, self.request.platform
        lines = [f"ReluGrad tiling  shape={list(self.request.input_shapes[0])}  dtype={r.dtype}  n={r.num_elements}",
                 f"platform {p.name}: ub_size={p.ub_size} aiv_cores={p.aiv_cores}"]
        lines += [f"  {k:<18} {v}" for k, v in self.json_dict().items()]
        lines.append(f"  {'core':>4} {'kind':>5} {'start':>12} {'end':>12} {'tiles':>6} {'tail':>7} {'pad_bytes':>9}")
        lines += [f"  {c['core']:>4} {'big' if c['big'] else 'small':>5} {c['start']:>12} {c['end']:>12} "
                  f"{c['tile_num']:>6} {c['tail_num']:>7} {c['pad_bytes']:>9}" for c in self.core_rows()]
        return lines

    def core_rows(self) -> list[dict]:
        r = self.result
        itemsize = to_numpy(r.dtype).itemsize
        return [{"core": p.core, "big": p.big, "start": p.start, "end": p.end, "tile_num": p.tile_num,
                 "tail_num": p.tail_num, "tile_data_num": r.tiling_data.tile_data_num,
                 "pad_bytes": max(0, p.end - max(p.start, r.num_elements)) * itemsize} for p in r.core_plan()]


def tiling_report(request: ToolRequest) -> Report:
    if request.platform.family == "ascend950":
        from .op_host.arch35.tools import arch35_tiling_report
        return arch35_tiling_report(request)
    if len(set(request.input_shapes)) != 1:
        raise ValueError("the Ascend910B ReluGrad kernel takes two inputs of one shape")
    return Report(tiling(math.prod(request.input_shapes[0]), request.dtype, request.platform), request)


def sanitize_report(request: ToolRequest, seed: int = 0) -> LaunchReport:
    if request.platform.family == "ascend950":
        from .op_host.arch35.tools import arch35_sanitize_report
        return arch35_sanitize_report(request)
    from .op_kernel import run_kernel

    r = tiling_report(request).result
    dtype, n = to_numpy(r.dtype), r.num_elements
    rng = np.random.default_rng(seed)
    pad = r.padding()
    return run_exact(run_kernel, platform=request.platform, block_dim=r.block_dim, tiling=r.tiling_data.to_bytes(),
                     inputs={"gradients": random_values(rng, dtype, n), "features": random_values(rng, dtype, n)},
                     outputs={"backprops": (dtype, n)},
                     padding=dict.fromkeys(("gradients", "features", "backprops"), pad), dtype=r.dtype).report
