"""The tiling report (`opsnn tiling OP`) of any 910B block-split operator: its tiling result as
JSON, as a table with the per-core plan, and as per-core rows for the plot."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from opsnn.dtypes import to_numpy
from opsnn.registry import ToolRequest

from .block_split import plan_of


@dataclass(frozen=True)
class BlockSplitReport:
    op_type: str
    result: Any  # a tiling result: block_dim, tiling_key, workspace_size, tiling_data, dtype, num_elements
    request: ToolRequest

    def json_dict(self) -> dict:
        """block_dim, tiling_key, workspace_size, the struct's fields in snake_case (upstream's
        camelCase names are in the struct's CAMEL) and its bytes as hex."""
        r = self.result
        return {"block_dim": r.block_dim, "tiling_key": r.tiling_key, "workspace_size": r.workspace_size,
                **r.tiling_data.snake_dict(), "tiling_data": r.tiling_data.to_bytes().hex()}

    def text_lines(self) -> list[str]:
        r, p = self.result, self.request.platform
        lines = [f"{self.op_type} tiling  shapes={[list(s) for s in self.request.input_shapes]}  "
                 f"dtype={r.dtype}  n={r.num_elements}",
                 f"platform {p.name}: ub_size={p.ub_size} aiv_cores={p.aiv_cores}"]
        lines += [f"  {key:<20} {value}" for key, value in self.json_dict().items()]
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
                 "pad_bytes": max(0, p.end - max(p.start, r.num_elements)) * itemsize, "itemsize": itemsize}
                for p in plan_of(r.tiling_data, r.block_dim)]
