"""The tiling report (`opsnn tiling OP --soc Ascend950`) of any operator on the atvoss broadcast
tiling: the upstream struct's fields as JSON, a table, and per-core rows for the plot."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from opsnn.registry import ToolRequest

from .structs import BroadcastOneDimTilingData


@dataclass(frozen=True)
class BroadcastReport:
    op_type: str
    result: Any  # block_dim, tiling_key, schedule_mode, workspace_size, tiling (BroadcastTilingResult), dtype
    request: ToolRequest
    extra: dict = field(default_factory=dict)  # operator fields for the JSON (a threshold, say)

    def json_dict(self) -> dict:
        r = self.result
        return {"block_dim": r.block_dim, "tiling_key": r.tiling_key, "schedule_mode": r.schedule_mode,
                "workspace_size": r.workspace_size, **self.extra,
                **r.tiling_data.upstream_dict(), "tiling_data": r.tiling_data.to_bytes().hex()}

    def text_lines(self) -> list[str]:
        r, p = self.result, self.request.platform
        lines = [f"{self.op_type} arch35 tiling  shapes={[list(s) for s in self.request.input_shapes]}  "
                 f"dtype={r.dtype}  out={list(r.tiling.collapsed.output_dims)} (collapsed)",
                 f"platform {p.name}: ub_size={p.ub_size} aiv_cores={p.aiv_cores}  "
                 f"{'ub broadcast' if r.tiling.ub_broadcast else 'nddma'}  buffers={r.tiling.buffer_num}"]
        lines += [f"  {k:<28} {v}" for k, v in self.json_dict().items()]
        lines.append("per-core plan:")
        lines.append(f"  {'core':>4} {'first_tile':>10} {'tiles':>6} {'start':>12} {'end':>12} {'pad_bytes':>9}")
        lines += [f"  {c['core']:>4} {c['first_tile']:>10} {c['tile_num']:>6} {c['start']:>12} {c['end']:>12} "
                  f"{c['pad_bytes']:>9}" for c in self.core_rows()]
        return lines

    def core_rows(self) -> list[dict]:
        """Per core: its tiles (ub tiles for 201, fused tiles otherwise) and the output elements
        it writes, [start, end); the copies are exact, so no padding."""
        r, td = self.result, self.result.tiling_data
        total = math.prod(r.tiling.collapsed.output_dims)
        rows = []
        for b in range(r.block_dim):
            last = b == td.block_num - 1
            tiles = td.block_tail if last else td.block_former
            if isinstance(td, BroadcastOneDimTilingData):
                start = b * td.block_former * td.ub_former
                end = min(total, start + tiles * td.ub_former)
            else:
                per_tile = math.prod(td.output_dims[td.ub_split_axis + 1:td.shape_len])
                outer_rows = td.ub_outer
                first = b * td.block_former
                start = _tile_start(first, td, per_tile, outer_rows)
                end = _tile_start(first + tiles, td, per_tile, outer_rows) if not last else total
            rows.append({"core": b, "role": "tail" if last else "former", "first_tile": b * td.block_former,
                         "tile_num": tiles, "start": start,
                         "end": end, "pad_bytes": 0})
        return rows


def _tile_start(f: int, td, per_tile: int, ub_outer: int) -> int:
    """First output element of fused tile f (tiles run in output order)."""
    rows_per_outer = td.output_dims[td.ub_split_axis]
    outer, u = divmod(f, ub_outer)
    return (outer * rows_per_outer + u * td.ub_former) * per_tile
