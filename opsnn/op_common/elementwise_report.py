"""The per-core plan of an atvoss ElementwiseSch tiling (`opsnn tiling OP` of an arch35
elementwise operator): each core's share as rows for the plot, and as the report's table."""
from __future__ import annotations

from opsnn.atvoss import EleBaseTilingData


def core_rows(d: EleBaseTilingData) -> list[dict]:
    """Each core's share as ElementwiseSch derives it: core b from b * block_former."""
    rows = []
    for b in range(d.block_num):
        last = b == d.block_num - 1
        start = b * d.block_former
        rows.append({"core": b, "big": not last, "role": "tail" if last else "former", "start": start,
                     "end": start + (d.dim0 - start if last else d.block_former),
                     "tile_num": d.ub_loop_of_tail_block if last else d.ub_loop_of_former_block,
                     "tail_num": d.ub_tail_of_tail_block if last else d.ub_tail_of_former_block,
                     "tile_data_num": d.ub_former, "pad_bytes": 0})
    return rows


def plan_lines(rows: list[dict]) -> list[str]:
    """The report's per-core table of core_rows."""
    lines = ["per-core plan (elements):",
             f"  {'core':>4} {'block':>6} {'start':>12} {'end':>12} {'tiles':>6} {'tile':>7} {'tail':>7}"]
    for row in rows:
        lines.append(f"  {row['core']:>4} {row['role']:>6} {row['start']:>12} "
                     f"{row['end']:>12} {row['tile_num']:>6} {row['tile_data_num']:>7} {row['tail_num']:>7}")
    return lines
