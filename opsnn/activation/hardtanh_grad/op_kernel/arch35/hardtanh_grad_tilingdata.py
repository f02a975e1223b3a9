"""HardtanhGradTilingData (upstream hardtanh_grad_tilingdata.h), 88 bytes, little-endian: the
80-byte EleBaseTilingData, then float min_val at byte 80 and float max_val at byte 84."""
from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

from opsnn.atvoss import EleBaseTilingData

_ATTRS = struct.Struct("<ff")


@dataclass(frozen=True)
class HardtanhGradTilingData:
    base: EleBaseTilingData
    min_val: float  # as float32 (the value the bytes hold)
    max_val: float

    SIZE = EleBaseTilingData.SIZE + _ATTRS.size  # 88

    def __post_init__(self):
        # keep exactly what the bytes can hold: float32 values (NaN and inf included)
        with np.errstate(over="ignore"):
            object.__setattr__(self, "min_val", float(np.float32(self.min_val)))
            object.__setattr__(self, "max_val", float(np.float32(self.max_val)))

    def to_bytes(self) -> bytes:
        with np.errstate(over="ignore"):
            attrs = np.asarray([self.min_val, self.max_val], dtype="<f4").tobytes()
        return self.base.to_bytes() + attrs

    @classmethod
    def from_bytes(cls, data: bytes) -> HardtanhGradTilingData:
        data = bytes(data)
        if len(data) < cls.SIZE:
            raise ValueError(f"HardtanhGradTilingData is {cls.SIZE} bytes, got {len(data)}")
        lo, hi = np.frombuffer(data, dtype="<f4", count=2, offset=EleBaseTilingData.SIZE)
        return cls(EleBaseTilingData.from_bytes(data[:EleBaseTilingData.SIZE]), float(lo), float(hi))

    @property
    def scalar_data(self) -> bytes:
        """What the kernel's SetVar<float, 0/1> read: min_val, max_val."""
        return self.to_bytes()[EleBaseTilingData.SIZE:]

    def upstream_dict(self) -> dict:
        return {**self.base.upstream_dict(), "min_val": self.min_val, "max_val": self.max_val}

    def words(self) -> str:
        """The struct as upstream's UT prints it: int64 words, each followed by a space."""
        return "".join(f"{w} " for w in struct.unpack(f"<{self.SIZE // 8}q", self.to_bytes()))
