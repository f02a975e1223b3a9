"""What `opsnn tiling` and `opsnn sanitize` ask of ThresholdGradV2D (see opsnn.registry)."""
from __future__ import annotations

import math
from dataclasses import dataclass

from opsnn.ascendc import LaunchReport
from opsnn.dtypes import to_numpy
from opsnn.registry import ToolRequest

from .op_host import TilingResult, core_plan, tiling


def _same_shape(request: ToolRequest) -> int:
    """The element count; the 910B kernel never broadcasts, so both inputs must agree."""
    shapes = set(request.input_shapes)
    if len(shapes) != 1:
        raise ValueError(f"the Ascend910B ThresholdGradV2D kernel takes two inputs of one shape, got "
                         f"{' and '.join(str(list(s)) for s in request.input_shapes)} (the API layer "
                         "broadcasts before it)")
    return math.prod(request.input_shapes[0])


@dataclass(frozen=True)
class Report:
    result: TilingResult
    request: ToolRequest

    def json_dict(self) -> dict:
        return self.result.to_json_dict()

    def text_lines(self) -> list[str]:
        r, p = self.result, self.request.platform
        lines = [f"ThresholdGradV2D tiling  shapes={[list(s) for s in self.request.input_shapes]}  "
                 f"dtype={r.dtype}  n={r.num_elements}",
                 f"platform {p.name}: ub_size={p.ub_size} aiv_cores={p.aiv_cores}"]
        rows = [("block_dim", r.block_dim), ("tiling_key", r.tiling_key), ("workspace_size", r.workspace_size),
                *r.tiling_data.upstream_dict().items(), ("tiling_data", r.tiling_data.to_bytes().hex())]
        lines += [f"  {key:<18} {value}" for key, value in rows]
        lines.append("per-core plan (elements):")
        lines.append(f"  {'core':>4} {'kind':>5} {'start':>12} {'end':>12} {'tiles':>6} {'tile':>7} {'tail':>7} "
                     f"{'pad_bytes':>9}")
        for row in self.core_rows():
            lines.append(f"  {row['core']:>4} {'big' if row['big'] else 'small':>5} {row['start']:>12} "
                         f"{row['end']:>12} {row['tile_num']:>6} {row['tile_data_num']:>7} {row['tail_num']:>7} "
                         f"{row['pad_bytes']:>9}")
        return lines

    def core_rows(self) -> list[dict]:
        r = self.result
        itemsize = to_numpy(r.dtype).itemsize
        return [{"core": p.core, "big": p.big, "start": p.start, "end": p.end, "tile_num": p.tile_num,
                 "tail_num": p.tail_num, "tile_data_num": r.tiling_data.tile_data_num,
                 "pad_bytes": max(0, p.end - max(p.start, r.num_elements)) * itemsize}
                for p in core_plan(r.tiling_data, r.block_dim)]


def tiling_report(request: ToolRequest):
    if request.platform.family == "ascend950":
        from .op_host.arch35.tools import arch35_tiling_report
        return arch35_tiling_report(request)
    n = _same_shape(request)
    return Report(tiling(n, request.dtype, request.options.get("threshold", 1.0), request.platform), request)


def sanitize_report(request: ToolRequest) -> LaunchReport:
    if request.platform.family == "ascend950":
        from .op_host.arch35.tools import arch35_sanitize_report
        return arch35_sanitize_report(request)
    from .op_kernel.sanitize import sanitize_tiling

    result = tiling_report(request).result
    return sanitize_tiling(result, request.platform,
                           upstream_int8_temp=bool(request.options.get("upstream_int8_temp", False)))
