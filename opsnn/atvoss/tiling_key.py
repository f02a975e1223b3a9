"""Tiling keys by upstream's template-argument encoding (FastEncodeTilingKeyDirect).

Parameters are packed from bit 0 in declaration order, each `bits` wide. A UINT parameter is
encoded as the *index* of its value in the declared list; DTYPE and BOOL parameters as the value."""
from __future__ import annotations

from dataclasses import dataclass

from .errors import TilingError


@dataclass(frozen=True)
class TplUint:
    bits: int
    values: tuple[int, ...]

    def encode(self, value: int) -> int:
        try:
            return self.values.index(int(value))
        except ValueError:
            raise TilingError(f"tiling-key value {value} is not in the declared list {self.values}") from None


@dataclass(frozen=True)
class TplDtype:
    bits: int = 8

    def encode(self, value: int) -> int:
        return int(value)


@dataclass(frozen=True)
class TplBool:
    bits: int = 1

    def encode(self, value: int) -> int:
        return int(bool(value))


def tiling_key(*params: tuple) -> int:
    """tiling_key((TplUint(1, (0, 1)), 1), (TplDtype(8), 3), ...) -> the packed key."""
    key, shift = 0, 0
    for decl, value in params:
        code = decl.encode(value)
        if not 0 <= code < (1 << decl.bits):
            raise TilingError(f"tiling-key field {code} does not fit {decl.bits} bits")
        key |= code << shift
        shift += decl.bits
    return key


# BRC_TEMP_SCH_MODE_KEY_DECL: the broadcast schedule modes, a 16-bit UINT parameter.
BRC_SCH_MODES = (1, 2, 101, 102, 103, 104, 109, 201, 202, 301, 302, 303, 304, 305, 999)
BRC_SCH_MODE_DECL = TplUint(16, BRC_SCH_MODES)


def brc_tiling_key(schedule_mode: int, dtype_tpl: int) -> int:
    """Broadcast operators' key: index(schMode) | dtype_tpl << 16 (a DTYPE parameter, 8 bits)."""
    return tiling_key((BRC_SCH_MODE_DECL, schedule_mode), (TplDtype(8), dtype_tpl))
