"""The 910B block-split tiling structs' common shape: a frozen dataclass whose fields are packed
little-endian by one `struct.Struct`, the uint64 fields range-checked (a value that does not fit
is a tiling failure, not a silently wrapped field), and float32 fields stored as C's double to
float conversion leaves them (rounded to nearest, an infinity beyond the range).

A subclass declares LAYOUT (the struct format), CAMEL (upstream's field names, in order) and its
fields; ints are uint64 fields, floats float32 ones."""
from __future__ import annotations

import struct
from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar

import numpy as np

_UINT64_MAX = 2**64 - 1


class TilingStruct:
    LAYOUT: ClassVar[struct.Struct]
    CAMEL: ClassVar[tuple[str, ...]]

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type in (float, "float"):
                with np.errstate(over="ignore"):
                    object.__setattr__(self, f.name, float(np.float32(value)))
            elif not 0 <= value <= _UINT64_MAX:
                raise ValueError(f"tiling field {f.name} = {value} does not fit its uint64")

    def to_bytes(self) -> bytes:
        return self.LAYOUT.pack(*(getattr(self, f.name) for f in fields(self)))

    @classmethod
    def from_bytes(cls, data: bytes):
        if len(data) != cls.LAYOUT.size:
            raise ValueError(f"tiling data is {cls.LAYOUT.size} bytes, got {len(data)}")
        return cls(*cls.LAYOUT.unpack(bytes(data)))

    def upstream_dict(self) -> dict:
        """Fields under their upstream (camelCase) names (what the tiling vectors hold)."""
        return dict(zip(self.CAMEL, asdict(self).values(), strict=True))

    def snake_dict(self) -> dict:
        """Fields under their snake_case names, in struct order (what `opsnn tiling` shows, as the
        arch35 structs do)."""
        return asdict(self)


@dataclass(frozen=True)
class BaseWithVars:
    """An arch35 operator's tiling data: atvoss's base struct (BASE, e.g. EleBaseTilingData),
    then the DAG's Vars as float32 (what the kernel's SetVar<float, i> reads), named by NAMES. A
    subclass names them: `class HardtanhGradTilingData(BaseWithVars): NAMES = ("min_val",
    "max_val")`; values are kept as the bytes hold them (float32: rounded, beyond range +-inf)."""
    base: Any
    values: tuple[float, ...]

    NAMES: ClassVar[tuple[str, ...]] = ()
    BASE: ClassVar[Any] = None  # default: atvoss's EleBaseTilingData

    def __post_init__(self):
        if len(self.values) != len(self.NAMES):
            raise ValueError(f"{type(self).__name__} holds {len(self.NAMES)} var(s) {self.NAMES}, got "
                             f"{len(self.values)}")
        with np.errstate(over="ignore"):
            object.__setattr__(self, "values", tuple(float(np.float32(v)) for v in self.values))

    @classmethod
    def base_type(cls):
        if cls.BASE is not None:
            return cls.BASE
        from opsnn.atvoss import EleBaseTilingData
        return EleBaseTilingData

    @property
    def scalar_data(self) -> bytes:
        """The Vars' bytes (after the base struct)."""
        with np.errstate(over="ignore"):
            return np.asarray(self.values, dtype="<f4").tobytes()

    def to_bytes(self) -> bytes:
        return self.base.to_bytes() + self.scalar_data

    @classmethod
    def from_bytes(cls, data: bytes):
        base, data = cls.base_type(), bytes(data)
        size = base.SIZE + 4 * len(cls.NAMES)
        if len(data) != size:
            raise ValueError(f"{cls.__name__} is {size} bytes, got {len(data)}")
        values = np.frombuffer(data, dtype="<f4", offset=base.SIZE)
        return cls(base.from_bytes(data[:base.SIZE]), tuple(float(v) for v in values))

    def upstream_dict(self) -> dict:
        return {**self.base.upstream_dict(), **dict(zip(self.NAMES, self.values, strict=True))}
