"""What every schedule does on a core: carve one TBuf into the DAG's buffers, bind the GM
arguments, copy tiles in and out exactly (DataCopyPad: no byte past a tensor)."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from opsnn.ascendc import (
    CoreContext,
    DataCopyPad,
    EmulatorError,
    GetValue,
    GlobalTensor,
    GmPtr,
    KernelArg,
    LaunchReport,
    QuePosition,
    TBuf,
    TPipe,
    launch,
)

from .buffers import plan_buffers
from .compute import TileRunner
from .dag import Dag


def split_args(dag: Dag, args: Sequence) -> tuple[list, list]:
    n_in, n_out = dag.input_size, dag.output_size
    if len(args) != n_in + n_out:
        raise EmulatorError(f"{dag.name} takes {n_in} inputs and {n_out} outputs, got {len(args)} GM arguments")
    return list(args[:n_in]), list(args[n_in:])


class CoreSetup:
    """One core's UB buffers, GM tensors and tile runner."""

    def __init__(self, ctx: CoreContext, dag: Dag, ptrs: Sequence[GmPtr], slot_elems: int, buffer_num: int,
                 scalar_data: bytes = b"", caches: int = 0):
        self.ctx = ctx
        self.dag = dag
        plan = plan_buffers(dag, caches)
        if plan.total > buffer_num:
            raise EmulatorError(f"{dag.name}: the buffer plan needs {plan.total} buffers, the tiling sized "
                                f"UB for {buffer_num}")
        self.slot_bytes = slot_elems * dag.max_dtype_bytes
        pipe = TPipe(ctx)
        self.buf = TBuf(QuePosition.VECCALC, name="atvoss_buf")
        pipe.InitBuffer(self.buf, self.slot_bytes * buffer_num)
        self.runner = TileRunner(dag, plan, self.buf.Get(np.uint8), self.slot_bytes, scalar_data)
        ins, outs = split_args(dag, ptrs)
        self.inputs = {}
        for i in dag.inputs:
            gt = GlobalTensor(dag.dtype_of(i))
            gt.SetGlobalBuffer(ins[i].as_type(gt.dtype))
            self.inputs[i] = gt
        self.outputs = []
        for k, o in enumerate(dag.outputs):
            gt = GlobalTensor(dag.output_dtype(k))
            gt.SetGlobalBuffer(outs[k].as_type(gt.dtype))
            self.outputs.append((o, gt))
        self.copy_ins = [f for f in dag.fun_list if f.is_copy_in]
        self.scalar_ins = [i for i, info in dag.inputs.items() if info.scalar]

    def read_scalars(self) -> None:
        """ScalarIn holders: element 0 of their input, read again every tile (as upstream does)."""
        for i in self.scalar_ins:
            self.runner.scalar_inputs[i] = GetValue(self.inputs[i], 0)

    def copy_out(self, parity: int, offset: int, count: int) -> None:
        for o, gt in self.outputs:
            src = self.dag.args(o)[0]
            DataCopyPad(gt[offset], self.runner.tensor(src, parity), count)


def run_launch(kernel, dag: Dag, *, gm, platform, block_dim: int, tiling: bytes, inputs: Sequence[KernelArg],
               outputs: Sequence[KernelArg], sanitize: bool) -> LaunchReport:
    args = list(inputs) + list(outputs)
    split_args(dag, args)
    return launch(kernel, gm=gm, platform=platform, block_dim=block_dim, args=args, tiling=bytes(tiling),
                  sanitize=sanitize)
