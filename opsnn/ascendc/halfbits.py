"""float32 <-> float16 conversions as branch-free integer arithmetic on whole arrays.

numpy converts half element by element with a branch per value; on kernel data (half the lanes
zeroed by Select) the branches mispredict and it runs 4-5x slower than on uniform data. These
give numpy's results bit for bit (round to nearest even, overflow to inf, NaN payload kept the
way numpy keeps it) at a steady speed, whatever the data."""
from __future__ import annotations

import numpy as np

_U32 = np.uint32
_ABS = _U32(0x7FFFFFFF)
_HALF_MIN_NORMAL = _U32(113 << 23)  # 2**-14, the smallest normal half, as float32 bits
_TO_INF = _U32((127 + 16) << 23)  # 2**16: from here on (and for inf/NaN) no finite half
_F32_INF = _U32(0x7F800000)
_REBIAS = _U32((127 - 15) << 23)
_SCALE_UP = np.float32(2.0 ** 112)
_DENORM_MAGIC = np.array([(127 - 15 + 23 - 10 + 1) << 23], dtype=_U32).view(np.float32)[0]  # 0.5


def _blend(mask: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a where mask else b, into b. Arithmetic, not a masked copy: np.where / copyto(where=) branch
    per element and are ~10x slower on random masks."""
    m = np.negative(mask.view(np.uint8), dtype=_U32)  # 0 or 0xFFFFFFFF
    a ^= b
    a &= m
    b ^= a
    return b


def float32_to_half(x: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """float32 -> float16, round to nearest even."""
    u = np.ascontiguousarray(x, dtype=np.float32).view(_U32)
    a = u & _ABS
    # Normal halves: drop 13 mantissa bits with round-half-even (a carry may bump the exponent).
    res = a - _REBIAS
    res += _U32(0xFFF)
    res += (a >> 13) & 1
    res >>= 13
    small = a < _HALF_MIN_NORMAL
    if small.any():
        # Subnormal halves and zeros: adding 0.5 lines the half's ulp up with float32's last
        # mantissa bit, so the FPU does the round-to-even.
        with np.errstate(invalid="ignore", over="ignore"):
            sub = (a.view(np.float32) + _DENORM_MAGIC).view(_U32) - _DENORM_MAGIC.view(_U32)
        _blend(small, sub, res)
    big = a >= _TO_INF
    if big.any():
        nan = a > _F32_INF
        special = np.where(nan, _U32(0x7C00) + ((a & _U32(0x7FFFFF)) >> 13), _U32(0x7C00))
        special |= nan & (special == 0x7C00)  # a NaN must not become inf (numpy's rule)
        _blend(big, special, res)
    res |= (u >> 16) & _U32(0x8000)
    if out is None:
        out = np.empty(u.shape, dtype=np.float16)
    np.copyto(out.view(np.uint16), res, casting="unsafe")
    return out


def half_to_float32(h: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """float16 -> float32, exact."""
    bits = np.ascontiguousarray(h, dtype=np.float16).view(np.uint16).astype(_U32)
    # Exponent and mantissa moved into float32 position read as a float32 that is 2**112 too
    # small, normal or subnormal alike: one exact multiplication puts it right.
    o = (bits & _U32(0x7FFF)) << 13
    if out is None:
        out = np.empty(bits.shape, dtype=np.float32)
    np.multiply(o.view(np.float32), _SCALE_UP, out=out)
    ob = out.view(_U32)
    special = (bits & _U32(0x7C00)) == _U32(0x7C00)
    if special.any():  # inf / NaN: exponent all ones, mantissa (payload) kept
        _blend(special, o | _F32_INF, ob)
    ob |= (bits & _U32(0x8000)) << 16
    return out
