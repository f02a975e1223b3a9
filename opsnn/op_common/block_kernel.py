"""The 910B elementwise kernel skeleton every block-split kernel shares, in AscendC's shape:
Init (this core's share of the tiling, GM windows, double-buffered queues), Process (full tiles,
then the tail), CopyIn (every input of the tile), Compute (the operator's), CopyOut.

A kernel subclasses it, names its GM arguments and queues (INPUTS, OUTPUT), allocates its own
temporaries in `init_buffers` and writes `compute`. Upstream writes this skeleton out in every
kernel; here it is written once."""
from __future__ import annotations

from typing import ClassVar

import numpy as np

from opsnn.ascendc import CoreContext, DataCopy, GlobalTensor, GmPtr, LocalTensor, QuePosition, TPipe, TQue

from .block_split import BUFFER_NUM, share_of


class BlockSplitKernel:
    INPUTS: ClassVar[tuple[tuple[str, str], ...]]  # (GM argument, its input queue's name), in kernel order
    OUTPUT: ClassVar[tuple[str, str]]  # (GM argument, the output queue's name)

    def __init__(self, ctx: CoreContext, dtype):
        self.ctx = ctx
        self.dtype = np.dtype(dtype)
        self.in_queues = [TQue(QuePosition.VECIN, BUFFER_NUM, name=queue) for _, queue in self.INPUTS]
        self.out_queue = TQue(QuePosition.VECOUT, BUFFER_NUM, name=self.OUTPUT[1])
        self.inputs_gm = [GlobalTensor(self.dtype) for _ in self.INPUTS]
        self.output_gm = GlobalTensor(self.dtype)

    def Init(self, inputs: list[GmPtr], output: GmPtr, tiling_data, pipe: TPipe) -> None:  # noqa: N802
        """This core's share (big cores first, each small core after the previous one), its GM
        windows, the queues at one tile each, then the kernel's own buffers."""
        share = share_of(tiling_data, self.ctx.GetBlockIdx())
        self.tile_data_num = tiling_data.tile_data_num
        self.core_data_num, self.tile_num, self.tail_data_num = share.data_num, share.tile_num, share.tail_num
        t = self.dtype
        for gm, ptr in zip(self.inputs_gm, inputs, strict=True):
            gm.SetGlobalBuffer(ptr.as_type(t) + share.start, self.core_data_num)
        self.output_gm.SetGlobalBuffer(output.as_type(t) + share.start, self.core_data_num)
        tile_bytes = self.tile_data_num * t.itemsize
        for queue in (*self.in_queues, self.out_queue):
            pipe.InitBuffer(queue, BUFFER_NUM, tile_bytes)
        self.init_buffers(pipe, tiling_data)

    def init_buffers(self, pipe: TPipe, tiling_data) -> None:
        """The kernel's temporaries (masks, casts); none by default."""

    def Process(self) -> None:  # noqa: N802
        self.process_data_num = self.tile_data_num
        for i in range(self.tile_num):
            if i == self.tile_num - 1:
                self.process_data_num = self.tail_data_num
            self.ctx.begin_tile(i)  # emulator annotation: findings name the tile
            self.CopyIn(i)
            self.Compute(i)
            self.CopyOut(i)
        self.ctx.end_tiles()

    def CopyIn(self, progress: int) -> None:  # noqa: N802
        offset = progress * self.tile_data_num
        for queue, gm in zip(self.in_queues, self.inputs_gm, strict=True):
            local = queue.AllocTensor(self.dtype)
            DataCopy(local, gm[offset], self.process_data_num)
            queue.EnQue(local)

    def Compute(self, progress: int) -> None:  # noqa: N802
        locals_in = [queue.DeQue(self.dtype) for queue in self.in_queues]
        out_local = self.out_queue.AllocTensor(self.dtype)
        self.compute(locals_in, out_local, self.process_data_num)
        self.out_queue.EnQue(out_local)
        for queue, local in zip(self.in_queues, locals_in, strict=True):
            queue.FreeTensor(local)

    def compute(self, inputs: list[LocalTensor], out: LocalTensor, n: int) -> None:
        raise NotImplementedError

    def CopyOut(self, progress: int) -> None:  # noqa: N802
        out_local = self.out_queue.DeQue(self.dtype)
        DataCopy(self.output_gm[progress * self.tile_data_num], out_local, self.process_data_num)
        self.out_queue.FreeTensor(out_local)
