"""ThresholdGradV2D tiling (spec §5): UB-sized tiles and big/small core load balancing.

All arithmetic is on Python ints, exactly as the upstream host code does it in uint64."""
from __future__ import annotations

import struct
from dataclasses import asdict, dataclass, fields

from opsnn.dtypes import dtype_name, to_numpy
from opsnn.platform import Platform, get_platform

BLOCK_SIZE = 256  # bytes: the unit the cores share the data in
# How many tile-sized slices of UB each dtype's kernel needs (queues, mask, temporaries).
UB_FACTOR = {"float32": 7, "float16": 7, "bfloat16": 10, "int32": 8, "int8": 14, "uint8": 14}
TILING_KEY = 0
USER_WORKSPACE = 0


class TilingError(ValueError):
    """The shape/dtype/platform cannot be tiled (aclnn maps this to 561002)."""


class UnsupportedDtypeError(TilingError, TypeError):
    pass


_FIELDS_CAMEL = (
    "smallCoreDataNum", "bigCoreDataNum", "finalBigTileNum", "finalSmallTileNum",
    "tileDataNum", "smallTailDataNum", "bigTailDataNum", "tailBlockNum", "threshold",
)
_LAYOUT = struct.Struct("<8Qf4x")  # eight uint64, float32 threshold, 4 pad bytes: 72 bytes


@dataclass(frozen=True)
class ThresholdGradV2DTilingData:
    """The C struct ThresholdGradV2DTilingData, field for field."""
    small_core_data_num: int
    big_core_data_num: int
    final_big_tile_num: int
    final_small_tile_num: int
    tile_data_num: int
    small_tail_data_num: int
    big_tail_data_num: int
    tail_block_num: int
    threshold: float  # stored as float32

    SIZE = _LAYOUT.size

    def __post_init__(self):
        # Normalise the threshold to the value the float32 field really holds.
        object.__setattr__(self, "threshold", struct.unpack("<f", struct.pack("<f", self.threshold))[0])

    def to_bytes(self) -> bytes:
        return _LAYOUT.pack(*(getattr(self, f.name) for f in fields(self)))

    @classmethod
    def from_bytes(cls, data: bytes) -> ThresholdGradV2DTilingData:
        if len(data) != _LAYOUT.size:
            raise ValueError(f"tiling data is {_LAYOUT.size} bytes, got {len(data)}")
        return cls(*_LAYOUT.unpack(bytes(data)))

    def upstream_dict(self) -> dict:
        """Fields under their upstream (camelCase) names."""
        return dict(zip(_FIELDS_CAMEL, asdict(self).values(), strict=True))


@dataclass(frozen=True)
class TilingResult:
    block_dim: int
    tiling_key: int
    workspace_size: int  # user workspace + the platform's system workspace
    tiling_data: ThresholdGradV2DTilingData
    dtype: str
    num_elements: int

    def to_json_dict(self) -> dict:
        return {
            "block_dim": self.block_dim,
            "tiling_key": self.tiling_key,
            "workspace_size": self.workspace_size,
            **self.tiling_data.upstream_dict(),
            "tiling_data_hex": self.tiling_data.to_bytes().hex(),
        }


def _core_split(per_blocks: int, tile_blocks: int, tile_data: int, itemsize: int) -> tuple[int, int, int]:
    """(data, tiles, tail) for a core that owns `per_blocks` 256-byte blocks."""
    data = per_blocks * BLOCK_SIZE // itemsize
    k = per_blocks // tile_blocks
    tiles = k if per_blocks % tile_blocks == 0 else k + 1
    tail = data - tile_data * k
    return data, tiles, (tile_data if tail == 0 else tail)


def tiling(num_elements: int, dtype, threshold: float = 1.0, platform: Platform | str | None = None,
           ) -> TilingResult:
    """Tile `num_elements` of `dtype` for `platform` (a Platform, a SoC name, or None = default)."""
    if not isinstance(platform, Platform):
        platform = get_platform(platform)
    try:
        name = dtype_name(dtype)
    except TypeError as e:
        raise UnsupportedDtypeError(str(e)) from None
    if name not in UB_FACTOR:
        raise UnsupportedDtypeError(f"ThresholdGradV2D does not support {name}; supported: {', '.join(UB_FACTOR)}")
    n = int(num_elements)
    if n <= 0:
        raise TilingError(f"cannot tile {n} elements: the API layer never launches empty tensors")
    if platform.aiv_cores <= 0:
        raise TilingError(f"platform {platform.name} has no AIV cores")
    b = to_numpy(name).itemsize
    tile_blocks = platform.ub_size // BLOCK_SIZE // UB_FACTOR[name]
    if tile_blocks == 0:
        raise TilingError(
            f"UB of {platform.ub_size} bytes cannot hold one tile of {name}: "
            f"needs at least {BLOCK_SIZE * UB_FACTOR[name]} bytes")
    tile_data = tile_blocks * BLOCK_SIZE // b
    blocks = -(-n * b // BLOCK_SIZE)
    block_dim = 1 if tile_data >= n else min(platform.aiv_cores, blocks)
    per, tail_blocks = divmod(blocks, block_dim)
    small = _core_split(per, tile_blocks, tile_data, b)
    big = _core_split(per + 1, tile_blocks, tile_data, b)
    data = ThresholdGradV2DTilingData(
        small_core_data_num=small[0],
        big_core_data_num=big[0],
        final_big_tile_num=big[1],
        final_small_tile_num=small[1],
        tile_data_num=tile_data,
        small_tail_data_num=small[2],
        big_tail_data_num=big[2],
        tail_block_num=tail_blocks,
        threshold=float(threshold),
    )
    return TilingResult(block_dim, TILING_KEY, USER_WORKSPACE + platform.system_workspace, data, name, n)


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


def core_plan(data: ThresholdGradV2DTilingData, block_dim: int) -> list[CorePlan]:
    """Each core's share as the kernel derives it from the tiling data (spec §6)."""
    plans = []
    for i in range(block_dim):
        if i < data.tail_block_num:
            plans.append(CorePlan(i, True, data.big_core_data_num * i, data.big_core_data_num,
                                  data.final_big_tile_num, data.big_tail_data_num))
        else:
            start = (data.big_core_data_num * i
                     - (data.big_core_data_num - data.small_core_data_num) * (i - data.tail_block_num))
            plans.append(CorePlan(i, False, start, data.small_core_data_num,
                                  data.final_small_tile_num, data.small_tail_data_num))
    return plans
