"""ThresholdGradV2DTilingData, the C struct the host tiling fills and the kernel reads (spec §5.10).

It lives beside the kernel, as upstream keeps its tiling-data header in op_kernel: the kernel
defines what it reads, the host includes it."""
from __future__ import annotations

import struct
from dataclasses import asdict, dataclass, fields

import numpy as np

_FIELDS_CAMEL = (
    "smallCoreDataNum", "bigCoreDataNum", "finalBigTileNum", "finalSmallTileNum",
    "tileDataNum", "smallTailDataNum", "bigTailDataNum", "tailBlockNum", "threshold",
)
_UINT64_MAX = 2**64 - 1
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
        for f in fields(self)[:-1]:
            value = getattr(self, f.name)
            if not 0 <= value <= _UINT64_MAX:
                raise ValueError(f"tiling field {f.name} = {value} does not fit its uint64")
        # The float32 field holds the threshold as C's double -> float conversion leaves it:
        # rounded to nearest, beyond the float32 range an infinity.
        with np.errstate(over="ignore"):
            object.__setattr__(self, "threshold", float(np.float32(self.threshold)))

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
