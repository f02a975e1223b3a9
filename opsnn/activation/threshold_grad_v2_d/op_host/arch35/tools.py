"""`opsnn tiling` / `opsnn sanitize` for ThresholdGradV2D on an ascend950 platform: the arch35
tiling (one-dim 201 or the multi-dim broadcast struct) and a sanitized run of the arch35 kernel
on exactly-sized tensors, the inputs un-broadcast as the kernel takes them."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from opsnn.ascendc import LaunchReport
from opsnn.atvoss import BroadcastOneDimTilingData
from opsnn.dtypes import to_numpy
from opsnn.op_common.kernel_run import random_values, run_exact
from opsnn.registry import ToolRequest

from ...op_kernel.arch35 import run_kernel
from .threshold_grad_v2_d_tiling_arch35 import DEFAULT_THRESHOLD, Arch35TilingResult, tiling_arch35


def _tiling(request: ToolRequest) -> Arch35TilingResult:
    if len(request.input_shapes) != 2:
        raise ValueError(f"ThresholdGradV2D takes 2 input shapes (gradOutput, self), got {len(request.input_shapes)}")
    try:
        np.broadcast_shapes(*request.input_shapes)
    except ValueError:
        raise ValueError(f"shapes {' and '.join(str(list(s)) for s in request.input_shapes)} do not broadcast") \
            from None
    return tiling_arch35(request.input_shapes, request.dtype, request.options.get("threshold", DEFAULT_THRESHOLD),
                         request.platform)


@dataclass(frozen=True)
class Arch35Report:
    result: Arch35TilingResult
    request: ToolRequest

    def json_dict(self) -> dict:
        r = self.result
        return {"block_dim": r.block_dim, "tiling_key": r.tiling_key, "schedule_mode": r.schedule_mode,
                "workspace_size": r.workspace_size, "threshold": r.threshold,
                **r.tiling_data.upstream_dict(), "tiling_data": r.tiling_data.to_bytes().hex()}

    def text_lines(self) -> list[str]:
        r, p = self.result, self.request.platform
        lines = [f"ThresholdGradV2D arch35 tiling  shapes={[list(s) for s in self.request.input_shapes]}  "
                 f"dtype={r.dtype}  out={list(r.output_shape)} (collapsed)",
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
        total = math.prod(r.output_shape)
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
            rows.append({"core": b, "first_tile": b * td.block_former, "tile_num": tiles, "start": start,
                         "end": end, "pad_bytes": 0})
        return rows


def _tile_start(f: int, td, per_tile: int, ub_outer: int) -> int:
    """First output element of fused tile f (tiles run in output order)."""
    rows_per_outer = td.output_dims[td.ub_split_axis]
    outer, u = divmod(f, ub_outer)
    return (outer * rows_per_outer + u * td.ub_former) * per_tile


def arch35_tiling_report(request: ToolRequest) -> Arch35Report:
    return Arch35Report(_tiling(request), request)


def arch35_sanitize_report(request: ToolRequest, seed: int = 0) -> LaunchReport:
    """The arch35 kernel under the sanitizer on exactly-sized random inputs (no padding declared)."""
    r = _tiling(request)
    dtype = to_numpy(r.dtype)
    rng = np.random.default_rng(seed)
    shapes = request.input_shapes
    inputs = {name: random_values(rng, dtype, math.prod(s)) for name, s in zip(("gradOutput", "self"), shapes,
                                                                              strict=True)}
    n_out = math.prod(np.broadcast_shapes(*shapes))
    run = run_exact(run_kernel, platform=request.platform, block_dim=r.block_dim, tiling=r.tiling_data.to_bytes(),
                    inputs=inputs, outputs={"out": (dtype, n_out)}, padding={}, sanitize=True, dtype=r.dtype,
                    schedule_mode=r.schedule_mode)
    return run.report
