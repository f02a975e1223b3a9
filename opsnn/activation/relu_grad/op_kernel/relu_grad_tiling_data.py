"""ReluGradTilingData: the block split the kernel reads (eight uint64, 64 bytes, little-endian),
the fields of ThresholdGradV2DTilingData without the threshold."""
from __future__ import annotations

import struct
from dataclasses import asdict, dataclass, fields

_UINT64_MAX = 2**64 - 1
_LAYOUT = struct.Struct("<8Q")
_FIELDS_CAMEL = ("smallCoreDataNum", "bigCoreDataNum", "finalBigTileNum", "finalSmallTileNum", "tileDataNum",
                 "smallTailDataNum", "bigTailDataNum", "tailBlockNum")


@dataclass(frozen=True)
class ReluGradTilingData:
    small_core_data_num: int
    big_core_data_num: int
    final_big_tile_num: int
    final_small_tile_num: int
    tile_data_num: int
    small_tail_data_num: int
    big_tail_data_num: int
    tail_block_num: int

    SIZE = _LAYOUT.size

    def __post_init__(self):
        for f in fields(self):
            if not 0 <= getattr(self, f.name) <= _UINT64_MAX:
                raise ValueError(f"tiling field {f.name} = {getattr(self, f.name)} does not fit its uint64")

    def to_bytes(self) -> bytes:
        return _LAYOUT.pack(*(getattr(self, f.name) for f in fields(self)))

    @classmethod
    def from_bytes(cls, data: bytes) -> ReluGradTilingData:
        if len(data) != _LAYOUT.size:
            raise ValueError(f"tiling data is {_LAYOUT.size} bytes, got {len(data)}")
        return cls(*_LAYOUT.unpack(bytes(data)))

    def upstream_dict(self) -> dict:
        return dict(zip(_FIELDS_CAMEL, asdict(self).values(), strict=True))
