"""ElewiseBaseTiling: same-shape inputs (or one-element ones) split into 512-element-aligned
blocks per core and UB-sized tiles per block; fills the 80-byte EleBaseTilingData."""
from __future__ import annotations

import math
from collections.abc import Sequence

from opsnn.platform import Platform

from .collapse import ensure_not_scalar
from .dag import Dag
from .errors import TilingError
from .structs import EleBaseTilingData

BLOCK_ALIGN = 512  # elements: a block holds a multiple of this
MIN_CORE_BITS = 32768  # each core takes at least 4 KiB of the smallest dtype
DEFAULT_SCHEMODE = 1


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


class ElewiseBaseTiling:
    def __init__(self, dag: Dag, platform: Platform, extra_size: int = 0, extra_buffer_num: int = 0):
        self.dag = dag
        self.platform = platform
        self.extra_size = int(extra_size)
        self.extra_buffer_num = int(extra_buffer_num)

    def do_tiling(self, output_shape: Sequence[int],
                  input_shapes: Sequence[Sequence[int]] = ()) -> EleBaseTilingData:
        core_num, ub_size = self.platform.aiv_cores, self.platform.ub_size
        if core_num <= 0 or ub_size <= 0:
            raise TilingError(f"platform {self.platform.name}: core num {core_num}, ub size {ub_size}")
        shape = ensure_not_scalar(output_shape)
        for i, s in enumerate(input_shapes):
            s = tuple(s)
            if not (ensure_not_scalar(s) == shape or math.prod(s) == 1):  # same shape, 0-d or one element
                raise TilingError(f"input {i} shape {list(s)} differs from the output shape {list(output_shape)}")
        if any(d <= 0 for d in shape):
            raise TilingError(f"output shape {list(shape)} has an empty or negative dim")
        dim0 = math.prod(shape)
        max_bits = 8 * self.dag.max_dtype_bytes
        min_bits = 8 * self.dag.min_dtype_bytes
        buffer_divisor = (self.dag.buffer_num() + self.extra_buffer_num) * max_bits
        used_cores = min(_ceil(dim0 * min_bits, MIN_CORE_BITS), core_num)
        block_former = _ceil(_ceil(dim0, used_cores), BLOCK_ALIGN) * BLOCK_ALIGN
        block_num = _ceil(dim0, block_former)
        block_tail = dim0 - (block_num - 1) * block_former
        max_elem = (ub_size - self.extra_size) * 8 // buffer_divisor
        align = 256 * 8 // min_bits
        ub_former = max_elem // align * align
        if ub_former <= 0:
            raise TilingError(f"UB of {ub_size} bytes holds no aligned tile for {self.dag.name}")
        loop_f, loop_t = _ceil(block_former, ub_former), _ceil(block_tail, ub_former)
        return EleBaseTilingData(
            dim0=dim0, core_num=used_cores, ub_former=ub_former, block_former=block_former, block_num=block_num,
            ub_loop_of_former_block=loop_f, ub_loop_of_tail_block=loop_t,
            ub_tail_of_former_block=block_former - (loop_f - 1) * ub_former,
            ub_tail_of_tail_block=block_tail - (loop_t - 1) * ub_former,
            elem_num=ub_former, sche_mode=DEFAULT_SCHEMODE)
