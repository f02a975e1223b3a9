"""BroadcastSch: the DAG run core by core, broadcasting the CopyInBrc inputs in the kernel.

One-dim (201): core b covers elements from b * block_former * ub_former, block_former tiles
(block_tail on the last core) of ub_former elements, the very last one ub_tail. An input whose
scalar_flag bit is set is one element: read once and Duplicated over the ping and pong tiles.

Multi-dim: the tiles are the fused index space (axes before ub_split_axis x ub_outer); core b
takes tiles [b * block_former, ...), block_tail on the last core. A tile is ub_former (ub_tail
for the last split index) rows of the split axis times every axis after it; its output is
contiguous. NDDMA modes (1, 2) gather each CopyInBrc input straight into its tile with the
input's strides (0 on broadcast axes); UB-broadcast modes (101-104, 109) copy the input's
un-broadcast block into a cache buffer and Broadcast it in UB."""
from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache

from opsnn.ascendc import (
    Broadcast,
    CoreContext,
    DataCopyNd,
    DataCopyPad,
    EmulatorError,
    GetValue,
    GlobalMemory,
    KernelArg,
    LaunchReport,
)
from opsnn.platform import Platform

from .broadcast_tiling import ONE_DIM_SCH_MODE
from .buffers import Slot
from .compute import duplicate_scalar
from .dag import Dag
from .sch_common import CoreSetup, run_launch
from .structs import BroadcastBaseTilingData, BroadcastOneDimTilingData

NDDMA_MODES = (1, 2)
UB_BRC_MODES = (101, 102, 103, 104, 109)


def _one_dim_kernel(dag: Dag):
    buffer_num = dag.buffer_num(use_nddma=True, cache_brc=True)

    def kernel(ctx: CoreContext, *args) -> None:
        *ptrs, tiling = args
        td = BroadcastOneDimTilingData.from_bytes(tiling)
        core = CoreSetup(ctx, dag, ptrs, td.ub_former, buffer_num, td.scalar_data)
        b = ctx.GetBlockIdx()
        last = b == td.block_num - 1
        tiles = td.block_tail if last else td.block_former
        base = b * td.block_former * td.ub_former
        for t in range(tiles):
            ctx.begin_tile(t)
            n = td.ub_tail if last and t == tiles - 1 else td.ub_former
            parity, offset = t & 1, base + t * td.ub_former
            core.read_scalars()
            for f in core.copy_ins:
                dst = core.runner.tensor(f, parity)
                if td.scalar_flag >> f.index & 1:
                    if t < 2:  # the ping and pong buffers keep the duplicated value afterwards
                        duplicate_scalar(dst, GetValue(core.inputs[f.index], 0), td.ub_former)
                else:
                    DataCopyPad(dst, core.inputs[f.index][offset], n)
            core.runner.run(parity, n)
            core.copy_out(parity, offset, n)
        ctx.end_tiles()

    return kernel


def _tile_origin(f: int, dims: Sequence[int], split: int, ub_outer: int) -> tuple[list[int], int]:
    """Fused tile index -> (indices of the axes before the split axis, split-axis outer index)."""
    u, rest = f % ub_outer, f // ub_outer
    idx = [0] * split
    for j in range(split - 1, -1, -1):
        idx[j], rest = rest % dims[j], rest // dims[j]
    return idx, u


def _multi_dim_kernel(dag: Dag, schedule_mode: int):
    ub_brc = schedule_mode in UB_BRC_MODES
    buffer_num = dag.buffer_num(use_nddma=not ub_brc, cache_brc=True)
    brc = dag.copy_brc_inputs

    def kernel(ctx: CoreContext, *args) -> None:
        *ptrs, tiling = args
        td = BroadcastBaseTilingData.from_bytes(tiling, dag.input_size, dag.copy_brc_num)
        core = CoreSetup(ctx, dag, ptrs, td.elem_num, buffer_num, td.scalar_data,
                         caches=dag.copy_brc_num if ub_brc else 0)
        rank, split = td.shape_len, td.ub_split_axis
        dims, ostr = td.output_dims[:rank], td.output_strides[:rank]
        inner_dims = tuple(dims[split + 1:])
        inner = math.prod(inner_dims)
        brc_strides = {i: td.input_brc_strides[k][:rank] for k, i in enumerate(brc)}
        brc_nodes = [(f, brc.index(f.index)) for f in core.copy_ins if f.op == "CopyInBrc"]
        plain = [f for f in core.copy_ins if f.op == "CopyIn"]
        b = ctx.GetBlockIdx()
        first = b * td.block_former
        count = td.block_tail if b == td.block_num - 1 else td.block_former
        for t in range(count):
            ctx.begin_tile(t)
            idx, u = _tile_origin(first + t, dims, split, td.ub_outer)
            rows = td.ub_tail if u == td.ub_outer - 1 else td.ub_former
            tile_dims, n, parity = (rows,) + inner_dims, rows * inner, t & 1
            out_off = sum(i * s for i, s in zip(idx, ostr, strict=False)) + u * td.ub_former * ostr[split]
            core.read_scalars()
            for f, k in brc_nodes:
                st = brc_strides[f.index]
                off = sum(i * s for i, s in zip(idx, st, strict=False)) + u * td.ub_former * st[split]
                tile_st = tuple(st[split:])
                dst = core.runner.tensor(f, parity)
                if ub_brc:
                    compact = tuple(1 if s == 0 else d for d, s in zip(tile_dims, tile_st, strict=True))
                    cache = core.runner.ub[core.runner.plan.buffer(Slot("cache", k), 0) * core.slot_bytes] \
                        .ReinterpretCast(dst.dtype)
                    DataCopyNd(cache, core.inputs[f.index][off], compact, tile_st)
                    Broadcast(dst, cache, tile_dims, compact)
                else:
                    DataCopyNd(dst, core.inputs[f.index][off], tile_dims, tile_st)
            for f in plain:  # a plain CopyIn input has the output's shape
                DataCopyPad(core.runner.tensor(f, parity), core.inputs[f.index][out_off], n)
            core.runner.run(parity, n)
            core.copy_out(parity, out_off, n)
        ctx.end_tiles()

    return kernel


@cache  # one kernel object per (DAG, mode): an entry point may ask for it on every core
def broadcast_kernel(dag: Dag, schedule_mode: int):
    """kernel(ctx, *gm_ptrs (inputs, then outputs), tiling_bytes) for opsnn.ascendc.launch."""
    if schedule_mode == ONE_DIM_SCH_MODE:
        return _one_dim_kernel(dag)
    if schedule_mode in NDDMA_MODES + UB_BRC_MODES:
        return _multi_dim_kernel(dag, schedule_mode)
    raise EmulatorError(f"broadcast schedule mode {schedule_mode} is not modelled")


def launch_broadcast(dag: Dag, *, gm: GlobalMemory, platform: Platform, schedule_mode: int,
                     tiling: BroadcastOneDimTilingData | BroadcastBaseTilingData | bytes,
                     inputs: Sequence[KernelArg], outputs: Sequence[KernelArg],
                     sanitize: bool = False) -> LaunchReport:
    if isinstance(tiling, bytes | bytearray | memoryview):
        raw = bytes(tiling)
        td = BroadcastOneDimTilingData.from_bytes(raw) if schedule_mode == ONE_DIM_SCH_MODE else \
            BroadcastBaseTilingData.from_bytes(raw, dag.input_size, dag.copy_brc_num)
    else:
        td, raw = tiling, tiling.to_bytes()
    return run_launch(broadcast_kernel(dag, schedule_mode), dag, gm=gm, platform=platform,
                      block_dim=td.block_num, tiling=raw, inputs=inputs, outputs=outputs, sanitize=sanitize)
