"""The block split of the 910B elementwise kernels (docs/threshold-grad-v2d.md §5-6): the tensor is cut into 256-byte
blocks, the blocks are shared out over the cores (the first `tail_block_num` cores, the big ones,
take one block more), and each core walks its share in UB-sized tiles.

Integer arithmetic on Python ints, as upstream does it in uint64."""
from __future__ import annotations

from dataclasses import dataclass

from opsnn.ascendc import Padding

BLOCK_SIZE = 256  # bytes: the unit the cores share the data in
BUFFER_NUM = 2  # double buffering: CopyIn of tile t+1 may overlap Compute of tile t on hardware


class SplitError(ValueError):
    """The tensor cannot be split on this UB/core count (an operator's tiling failure)."""


@dataclass(frozen=True)
class CoreShare:
    data_num: int  # elements, a whole number of blocks
    tile_num: int  # tiles, the last one possibly partial
    tail_num: int  # elements in the last tile (tile_data_num when the share divides evenly)


@dataclass(frozen=True)
class BlockSplit:
    block_dim: int
    tile_blocks: int  # blocks per tile
    tile_data_num: int  # elements per full tile
    tail_block_num: int  # how many cores are big
    small: CoreShare
    big: CoreShare


def _share(per_blocks: int, tile_blocks: int, tile_data: int, itemsize: int) -> CoreShare:
    data = per_blocks * BLOCK_SIZE // itemsize
    k = per_blocks // tile_blocks
    tiles = k if per_blocks % tile_blocks == 0 else k + 1
    tail = data - tile_data * k
    return CoreShare(data, tiles, tile_data if tail == 0 else tail)


def split_blocks(num_elements: int, itemsize: int, ub_size: int, ub_factor: int, cores: int) -> BlockSplit:
    """Split `num_elements` of `itemsize` bytes for a kernel whose UB holds `ub_factor` tile-sized
    slices (queues, masks, temporaries), on `cores` AIV cores."""
    n = int(num_elements)
    if n <= 0:
        raise SplitError(f"cannot tile {n} elements: the API layer never launches empty tensors")
    if cores <= 0:
        raise SplitError(f"the platform has no AIV cores ({cores})")
    tile_blocks = ub_size // BLOCK_SIZE // ub_factor
    if tile_blocks == 0:
        raise SplitError(f"UB of {ub_size} bytes cannot hold one tile: needs at least "
                         f"{BLOCK_SIZE * ub_factor} bytes")
    tile_data = tile_blocks * BLOCK_SIZE // itemsize
    blocks = -(-n * itemsize // BLOCK_SIZE)
    block_dim = 1 if tile_data >= n else min(cores, blocks)
    per, tail_blocks = divmod(blocks, block_dim)
    return BlockSplit(block_dim, tile_blocks, tile_data, tail_blocks,
                      _share(per, tile_blocks, tile_data, itemsize), _share(per + 1, tile_blocks, tile_data, itemsize))


@dataclass(frozen=True)
class CorePlan:
    core: int
    big: bool
    start: int  # first element
    data_num: int  # elements, a whole number of 256-byte blocks
    tile_num: int
    tail_num: int  # elements in the last tile

    @property
    def end(self) -> int:
        return self.start + self.data_num


def core_share(block_idx: int, tail_block_num: int, small: CoreShare, big: CoreShare) -> CorePlan:
    """Core `block_idx`'s share as a kernel derives it from its tiling data (docs/threshold-grad-v2d.md §6): big cores
    first, each small core starting where the previous one ended."""
    if block_idx < tail_block_num:
        return CorePlan(block_idx, True, big.data_num * block_idx, big.data_num, big.tile_num, big.tail_num)
    start = big.data_num * block_idx - (big.data_num - small.data_num) * (block_idx - tail_block_num)
    return CorePlan(block_idx, False, start, small.data_num, small.tile_num, small.tail_num)


def core_plan(block_dim: int, tail_block_num: int, small: CoreShare, big: CoreShare) -> list[CorePlan]:
    """Every core's share."""
    return [core_share(i, tail_block_num, small, big) for i in range(block_dim)]


def share_of(tiling_data, block_idx: int) -> CorePlan:
    """core_share read from a tiling struct with upstream's eight block-split fields (snake_case):
    small/big_core_data_num, final_small/big_tile_num, small/big_tail_data_num, tail_block_num."""
    d = tiling_data
    return core_share(block_idx, d.tail_block_num,
                      CoreShare(d.small_core_data_num, d.final_small_tile_num, d.small_tail_data_num),
                      CoreShare(d.big_core_data_num, d.final_big_tile_num, d.big_tail_data_num))


def plan_of(tiling_data, block_dim: int) -> list[CorePlan]:
    return [share_of(tiling_data, i) for i in range(block_dim)]


def block_padding(plans: list[CorePlan], num_elements: int, itemsize: int) -> tuple[Padding, ...]:
    """The past-the-tensor bytes the plan makes each core touch: only the last core's rounding up
    to whole blocks, under 256 bytes. The same for every tensor the kernel walks in step."""
    tensor_end = num_elements * itemsize
    out = []
    for p in plans:
        end = p.end * itemsize
        if end > tensor_end:
            start = max(tensor_end, p.start * itemsize)
            out.append(Padding(p.core, start, end - start))
    return tuple(out)
