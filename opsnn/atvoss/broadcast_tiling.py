"""BroadcastBaseTiling: collapse the shapes, then either the one-dim tiling (schedule mode 201,
BroadcastOneDimTilingData) or the multi-dim broadcast tiling (modes 1/2 by NDDMA, 101-104/109
by UB broadcast; BroadcastBaseTilingData)."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from opsnn.dtypes import BY_NAME
from opsnn.platform import MiB, Platform

from .collapse import Collapsed, broadcast_output, dimension_collapse, ensure_not_scalar
from .dag import Dag
from .errors import TilingError
from .structs import BroadcastBaseTilingData, BroadcastOneDimTilingData

MAX_DIMS = 8
ONE_DIM_SCH_MODE = 201
DEFAULT_TILING_WORKSPACE_SIZE = 16 * MiB
NDDMA_DCACHE_SIZE = 8192  # bytes (GetNddmaDcacheSize)
ONE_DIM_ALIGN = 128  # bytes: one-dim ub tiles are whole 128-byte units
ONE_DIM_MIN_UB = 8192  # bytes: below this, the one-dim tiling does not shrink tiles for more cores
UB_BRC_DTYPES = frozenset(("int8", "uint8", "float16", "bfloat16", "int16", "uint16"))


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


@dataclass(frozen=True)
class BroadcastTilingResult:
    schedule_mode: int
    tiling_data: BroadcastOneDimTilingData | BroadcastBaseTilingData
    collapsed: Collapsed
    ub_broadcast: bool  # the multi-dim tiling chose broadcasting in UB over NDDMA
    buffer_num: int  # the DAG buffers the chosen schedule uses
    workspace_size: int = DEFAULT_TILING_WORKSPACE_SIZE

    @property
    def block_dim(self) -> int:
        return self.tiling_data.block_num

    def set_scalar(self, *values: float) -> BroadcastTilingResult:
        """SetScalar<float>: the values into scalar_data[0..], after DoTiling (float32 each)."""
        return replace(self, tiling_data=self.tiling_data.with_scalars(*values))


@dataclass(frozen=True)
class KeyedBroadcastTiling:
    """An operator's arch35 broadcast tiling: atvoss's result with the op's tiling key and dtype,
    and the fields the CLI, the plots and the launch read through it. Operators subclass it to
    add the scalar attr they wrote into scalar_data."""
    tiling: BroadcastTilingResult
    tiling_key: int
    dtype: str

    @property
    def block_dim(self) -> int:
        return self.tiling.block_dim

    @property
    def schedule_mode(self) -> int:
        return self.tiling.schedule_mode

    @property
    def workspace_size(self) -> int:
        return self.tiling.workspace_size

    @property
    def tiling_data(self):
        return self.tiling.tiling_data

    @property
    def output_shape(self) -> tuple[int, ...]:
        return self.tiling.collapsed.output_dims


class BroadcastBaseTiling:
    def __init__(self, dag: Dag, platform: Platform, extra_size: int = 0, extra_buffer_num: int = 0):
        self.dag = dag
        self.platform = platform
        self.extra_size = int(extra_size)
        self.extra_buffer_num = int(extra_buffer_num)

    def do_tiling(self, input_shapes: Sequence[Sequence[int]],
                  output_shape: Sequence[int] | None = None) -> BroadcastTilingResult:
        if self.platform.aiv_cores <= 0 or self.platform.ub_size <= 0:
            raise TilingError(f"platform {self.platform.name}: no cores or no UB")
        if len(input_shapes) != self.dag.input_size:
            raise TilingError(f"{self.dag.name} takes {self.dag.input_size} inputs, got {len(input_shapes)}")
        shapes = [ensure_not_scalar(s) for s in input_shapes]
        out = ensure_not_scalar(broadcast_output(shapes) if output_shape is None else output_shape)
        col = dimension_collapse(shapes, out)
        if col.rank > MAX_DIMS:
            raise TilingError(f"collapsed output rank {col.rank} > {MAX_DIMS}")
        if col.rank == 1:
            return self._one_dim(col)
        return self._multi_dim(col)

    # ---- one dim (schedule mode 201) ---------------------------------------------------------
    def _one_dim(self, col: Collapsed) -> BroadcastTilingResult:
        alive = self.dag.buffer_num(use_nddma=True, cache_brc=True) + self.extra_buffer_num
        size = self.dag.max_dtype_bytes
        ub, cores = self.platform.ub_size - self.extra_size, self.platform.aiv_cores
        n = col.output_dims[0]
        scalar_flag = sum((dims[0] == 1) << i for i, dims in enumerate(col.input_dims))
        ub_former = (ub // alive) // ONE_DIM_ALIGN * ONE_DIM_ALIGN // size
        if ub_former <= 0:
            raise TilingError(f"UB of {ub} bytes holds no one-dim tile for {self.dag.name}")

        def split(uf: int):
            ub_outer = _ceil(n, uf)
            ub_tail = n % uf or uf
            block_former = _ceil(ub_outer, cores)
            block_tail = ub_outer % block_former or block_former
            return uf, ub_tail, _ceil(ub_outer, block_former), block_former, block_tail

        uf, ub_tail, block_num, block_former, block_tail = split(ub_former)
        if block_num < cores // 2 and uf * size * alive > ONE_DIM_MIN_UB:
            # Few tiles: shrink them (never below an 8 KiB UB footprint) to use more cores.
            per_core = 2 * n // cores
            aligned = _ceil(per_core * size, ONE_DIM_ALIGN) * ONE_DIM_ALIGN // size
            lowest = (ONE_DIM_MIN_UB // alive) // ONE_DIM_ALIGN * ONE_DIM_ALIGN // size
            uf, ub_tail, block_num, block_former, block_tail = split(max(min(uf, aligned), lowest))
        data = BroadcastOneDimTilingData(scalar_flag=scalar_flag, ub_split_axis=0, ub_former=uf, ub_tail=ub_tail,
                                         block_num=block_num, block_former=block_former, block_tail=block_tail)
        return BroadcastTilingResult(ONE_DIM_SCH_MODE, data, col, False, alive)

    # ---- multi dim -----------------------------------------------------------------------------
    def _is_ub_broadcast(self, col: Collapsed) -> bool:
        dag = self.dag
        brc_idx = next((i for i, st in enumerate(col.input_strides)
                        if any(s == 0 and o != 0 for s, o in zip(st, col.output_strides, strict=True))), None)
        if brc_idx is None or dag.copy_brc_num == 0:
            return False
        for i in sorted(set(dag.copy_brc_inputs)):
            st, dims = col.input_strides[i], col.input_dims[i]
            inner_brc = any(s == 0 and o != 0 for s, o in zip(st[:-1], col.output_strides[:-1], strict=True))
            if st[-1] != 0 and inner_brc and dims[-1] * dag.dtype_of(i).itemsize >= NDDMA_DCACHE_SIZE // 2:
                return True  # a long contiguous last axis under a broadcast axis
        dtype = dag.inputs[brc_idx].dtype
        return col.output_dims[-1] % (32 // BY_NAME[dtype].itemsize) == 0 and dtype in UB_BRC_DTYPES

    def _multi_dim(self, col: Collapsed) -> BroadcastTilingResult:
        dag = self.dag
        ub_brc = self._is_ub_broadcast(col)
        buffers = dag.buffer_num(use_nddma=not ub_brc, cache_brc=True)
        ub = self.platform.ub_size - self.extra_size
        max_elem = ub * 8 // ((buffers + self.extra_buffer_num) * 8 * dag.max_dtype_bytes)
        align = 256 // dag.min_dtype_bytes
        max_elem = max_elem // align * align
        if max_elem <= 0:
            raise TilingError(f"UB of {ub} bytes holds no broadcast tile for {dag.name}")
        dims, rank = col.output_dims, col.rank
        split_axis, inner = 0, math.prod(dims) // dims[0]
        p = 1
        for i in range(rank - 1, -1, -1):
            p *= dims[i]
            if p > max_elem:
                split_axis, inner = i, p // dims[i]
                break
        ub_former = max_elem // inner
        ub_outer = _ceil(dims[split_axis], ub_former)
        ub_tail = dims[split_axis] - (ub_outer - 1) * ub_former
        fused = ub_outer * math.prod(dims[:split_axis])
        cores = self.platform.aiv_cores
        block_former = _ceil(fused, cores)
        block_num = _ceil(fused, block_former)
        block_tail = fused - (block_num - 1) * block_former
        r = rank - split_axis
        mode = (109 if r > 4 else 100 + r) if ub_brc else (2 if r > 5 else 1)
        brc = dag.copy_brc_inputs
        others = [i for i in range(dag.input_size) if i not in brc]
        data = BroadcastBaseTilingData(
            dag.input_size, dag.copy_brc_num, 0, sche_mode=0, shape_len=rank, ub_split_axis=split_axis,
            ub_former=ub_former, ub_tail=ub_tail, ub_outer=ub_outer, block_former=block_former,
            block_tail=block_tail, dim_product_before_ub_inner=fused, elem_num=max_elem, block_num=block_num,
            output_dims=dims, output_strides=col.output_strides,
            # A non-CopyInBrc input carries (ub_former, ub_tail) and its strides (one upstream anchor:
            # kl_div_loss_grad's UT string); CopyInBrc inputs leave these rows zero.
            input_dims=tuple((ub_former, ub_tail) if i in others else () for i in range(dag.input_size)),
            input_strides=tuple(col.input_strides[i] if i in others else () for i in range(dag.input_size)),
            input_brc_dims=tuple(col.input_dims[i] for i in brc),
            input_brc_strides=tuple(col.input_strides[i] for i in brc))
        return BroadcastTilingResult(mode, data, col, ub_brc, buffers)
