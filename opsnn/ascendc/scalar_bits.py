"""The scalar unit's bit counting, as AscendC names it (what opsnn_kt/scalar_bits.h is for C++
kernels): GetBitCount / ScalarGetCountOfValue, CountLeadingZero / ScalarCountLeadingZero,
GetSFFValue / ScalarGetSFFValue, and CCE's sbitset0 / sbitset1. Arguments are taken as uint64_t
(their low 64 bits); nothing here is a vector instruction (nothing is counted)."""
from __future__ import annotations

from .errors import EmulatorError

_MASK = (1 << 64) - 1


def _bit_value(name: str, count_value: int) -> int:
    if count_value not in (0, 1):
        raise EmulatorError(f"{name}<countValue>: countValue is 0 or 1, got {count_value!r}")
    return count_value


def GetBitCount(value: int, count_value: int = 1) -> int:  # noqa: N802 - AscendC name
    """GetBitCount<countValue>(value): how many of value's 64 bits equal countValue."""
    ones = bin(int(value) & _MASK).count("1")
    return ones if _bit_value("GetBitCount", count_value) == 1 else 64 - ones


def CountLeadingZero(value: int) -> int:  # noqa: N802 - AscendC name
    """CountLeadingZero(value): the zero bits above value's highest 1 (64 for 0)."""
    return 64 - (int(value) & _MASK).bit_length()


def GetSFFValue(value: int, count_value: int = 1) -> int:  # noqa: N802 - AscendC name
    """GetSFFValue<countValue>(value): the index of value's lowest bit equal to countValue, -1 if
    none."""
    v = int(value) & _MASK
    bits = v if _bit_value("GetSFFValue", count_value) == 1 else ~v & _MASK
    return (bits & -bits).bit_length() - 1


def sbitset0(value: int, index: int) -> int:
    """value (as uint64) with bit `index` (0..63) cleared."""
    return int(value) & _MASK & ~(1 << (int(index) & 63))


def sbitset1(value: int, index: int) -> int:
    """value (as uint64) with bit `index` (0..63) set."""
    return (int(value) & _MASK) | (1 << (int(index) & 63))


# AscendC's older names
ScalarGetCountOfValue = GetBitCount
ScalarCountLeadingZero = CountLeadingZero
ScalarGetSFFValue = GetSFFValue

__all__ = ["CountLeadingZero", "GetBitCount", "GetSFFValue", "ScalarCountLeadingZero", "ScalarGetCountOfValue",
           "ScalarGetSFFValue", "sbitset0", "sbitset1"]
