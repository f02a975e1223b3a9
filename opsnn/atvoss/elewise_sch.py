"""ElementwiseSch: the DAG run core by core over EleBaseTilingData tiles.

Core b starts at element b * block_former and runs ub_loop_of_former_block tiles of ub_former
elements (ub_loop_of_tail_block on the last core), the last one ub_tail_of_*_block elements;
tiles alternate between the ping and pong buffers. Scalar inputs start at element 0. Bytes an
operator appends to the tiling after the base struct are the DAG's Vars (its scalar data: the
SetVar of the op's kernel entry, e.g. HardtanhGrad's min_val / max_val)."""
from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from opsnn.ascendc import CoreContext, DataCopyPad, GlobalMemory, KernelArg, LaunchReport
from opsnn.platform import Platform

from .dag import Dag
from .sch_common import CoreSetup, run_launch
from .structs import EleBaseTilingData


@cache  # one kernel object per DAG
def elementwise_kernel(dag: Dag):
    """kernel(ctx, *gm_ptrs (inputs, then outputs), tiling_bytes) for opsnn.ascendc.launch."""
    buffer_num = dag.buffer_num()

    def kernel(ctx: CoreContext, *args) -> None:
        *ptrs, tiling = args
        td = EleBaseTilingData.from_bytes(tiling)
        core = CoreSetup(ctx, dag, ptrs, td.ub_former, buffer_num, bytes(tiling[EleBaseTilingData.SIZE:]))
        b = ctx.GetBlockIdx()
        last = b == td.block_num - 1
        loops = td.ub_loop_of_tail_block if last else td.ub_loop_of_former_block
        tail = td.ub_tail_of_tail_block if last else td.ub_tail_of_former_block
        base = b * td.block_former
        for t in range(loops):
            ctx.begin_tile(t)
            n = tail if t == loops - 1 else td.ub_former
            parity, offset = t & 1, base + t * td.ub_former
            core.read_scalars()
            for f in core.copy_ins:
                DataCopyPad(core.runner.tensor(f, parity), core.inputs[f.index][offset], n)
            core.runner.run(parity, n)
            core.copy_out(parity, offset, n)
        ctx.end_tiles()

    return kernel


def launch_elementwise(dag: Dag, *, gm: GlobalMemory, platform: Platform, tiling: EleBaseTilingData | bytes,
                       inputs: Sequence[KernelArg], outputs: Sequence[KernelArg],
                       sanitize: bool = False) -> LaunchReport:
    raw = tiling.to_bytes() if isinstance(tiling, EleBaseTilingData) else bytes(tiling)
    block_dim = EleBaseTilingData.from_bytes(raw).block_num
    return run_launch(elementwise_kernel(dag), dag, gm=gm, platform=platform, block_dim=block_dim, tiling=raw,
                      inputs=inputs, outputs=outputs, sanitize=sanitize)
