"""An oracle for ThresholdV2 written from the facts (docs/threshold-v2.md), element by element in
plain Python, independently of opsnn's models: struct packs for float rounding, bit arithmetic
for bfloat16, Python ints for integer conversion. Slow on purpose; for small arrays."""
from __future__ import annotations

import math
import struct

import ml_dtypes
import numpy as np

BF16 = np.dtype(ml_dtypes.bfloat16)
F16, F32 = np.dtype(np.float16), np.dtype(np.float32)
DTYPES = [np.dtype(d) for d in (np.float32, np.float16, np.int32, np.int8, np.uint8, np.int16, np.int64)] + [BF16]
UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def bits(a) -> np.ndarray:
    """Raw bit patterns: NaN == NaN, -0.0 != +0.0."""
    a = np.ascontiguousarray(a)
    return a.view(UINT[a.itemsize])


def f32_bits(v: float) -> int:
    """float -> float32, round to nearest even, overflow to inf (struct refuses it: we do it)."""
    try:
        return struct.unpack("<I", struct.pack("<f", v))[0]
    except OverflowError:
        return 0x7F800000 | (0x80000000 if v < 0 else 0)


def f32_value(v) -> float:
    return struct.unpack("<f", struct.pack("<I", f32_bits(float(v))))[0]


def f16_bits(v: float) -> int:
    if math.isnan(v):
        return 0x7FFF | (0x8000 if math.copysign(1, v) < 0 else 0)
    try:
        return struct.unpack("<H", struct.pack("<e", v))[0]
    except OverflowError:
        return 0x7C00 | (0x8000 if v < 0 else 0)


def bf16_bits(v: float) -> int:
    b = f32_bits(v)
    if (b & 0x7F800000) == 0x7F800000 and b & 0x7FFFFF:
        return 0x7FC0
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) & 0xFFFF


def _number(v) -> int | float:
    """A Python or numpy scalar as a Python int or float (exact)."""
    if isinstance(v, bool | np.bool_ | np.integer | int):
        return int(v)
    return float(v)


def int_convert(v, dtype: np.dtype) -> int:
    """static_cast<T>: ints wrap; floats truncate; an unrepresentable float is x86's indefinite."""
    v = _number(v)
    nbits = dtype.itemsize * 8
    if isinstance(v, float):
        width = 64 if nbits == 64 else 32
        if math.isnan(v) or math.isinf(v) or not -(2 ** (width - 1)) <= math.trunc(v) < 2 ** (width - 1):
            v = -(2 ** (width - 1))
        else:
            v = math.trunc(v)
    v &= (1 << nbits) - 1
    if dtype.kind == "i" and v >> (nbits - 1):
        v -= 1 << nbits
    return v


def scalar_fits(v, dtype) -> bool:
    """Whether aclnnThreshold (and opsnn.threshold's ascend semantics) takes scalar v for an x of
    dtype: any scalar for a float x; for an integer x, an integer in the dtype's range or a finite
    float whose truncation is (else 161002 / ValueError: it would wrap or be undefined)."""
    dtype = np.dtype(dtype)
    if dtype.kind not in "iu":
        return True
    v = _number(v)
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            return False
        v = math.trunc(v)
    nbits = dtype.itemsize * 8
    if dtype.kind == "i":
        return -(1 << (nbits - 1)) <= v < 1 << (nbits - 1)
    return 0 <= v < 1 << nbits


def scalar_as(v, dtype: np.dtype):
    """The host conversion of a Python scalar to a 0-d array of dtype (bits exact)."""
    v = _number(v)
    if dtype == F32:
        return np.array(f32_bits(float(v)), np.uint32).view(F32)
    if dtype == F16:
        return np.array(f16_bits(float(v)), np.uint16).view(F16)
    if dtype == BF16:
        return np.array(bf16_bits(float(v)), np.uint16).view(BF16)
    return np.array(int_convert(v, dtype), dtype)


def _py(e) -> float | int:
    if e.dtype.kind in "iu":
        return int(e)
    with np.errstate(invalid="ignore"):
        return float(np.asarray(e).astype(np.float32))  # every float dtype here widens exactly


def forward_950(x: np.ndarray, t, v) -> np.ndarray:
    """aclnnThreshold on Ascend950: y = x <= t_T ? v_T : x (bits of x / v_T kept)."""
    tt, vv = scalar_as(t, x.dtype), scalar_as(v, x.dtype)
    flat = x.reshape(-1)
    out = np.array(flat)
    for i in range(flat.size):
        if _py(flat[i]) <= _py(tt):
            out[i] = vv
    return out.reshape(x.shape)


def forward_910b(x: np.ndarray, t, v) -> np.ndarray:
    """aclnnThreshold on Ascend910B: int16 computed as int32 and wrapped back; int8 / uint8 /
    int32 / bfloat16 compared and selected in float32 (int32 rounds, then saturates back)."""
    work = np.dtype(np.int32) if x.dtype == np.int16 else x.dtype
    tt, vv = scalar_as(t, work), scalar_as(v, work)
    flat = x.reshape(-1).astype(work)
    out = np.array(flat)
    through_f32 = work in (np.dtype(np.int8), np.dtype(np.uint8), np.dtype(np.int32), BF16)
    for i in range(flat.size):
        xe, te = _py(flat[i]), _py(tt)
        if through_f32:
            xe, te = f32_value(xe), f32_value(te)
        chosen = xe <= te
        if work == np.int32:
            r = f32_value(_py(vv)) if chosen else xe
            out[i] = min(int(r), 2**31 - 1)
        elif chosen:
            out[i] = vv
    return out.astype(x.dtype).reshape(x.shape) if x.dtype == np.int16 else out.reshape(x.shape)


def edge_values(dtype: np.dtype, n: int, rng, around=()) -> np.ndarray:
    """n values of dtype: specials (NaN, +-inf, +-0, denormals, extremes), the neighbours of each
    value in `around` (thresholds), then random ones."""
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        pool = [info.min, info.max, 0, 1, -1, 2, info.min + 1, info.max - 1]
        if dtype == np.int32:
            pool += [2**24, 2**24 + 1, -(2**24) - 1, 2**31 - 65, 123456789, -123456789]
        for a in around:
            c = int_convert(a, dtype)
            pool += [c - 1, c, c + 1]
        if dtype.kind == "u":  # -1 and friends as their two's-complement patterns
            pool = [p % (1 << 8 * dtype.itemsize) for p in pool]
        pool = np.array([p for p in pool if info.min <= p <= info.max], dtype)
        body = rng.integers(info.min, info.max, n, endpoint=True).astype(dtype)
    else:
        specials = [0.0, -0.0, math.inf, -math.inf, math.nan, -math.nan, 1.0, -1.0, 65504.0, 1e-7, 6e-8, 3e38]
        with np.errstate(over="ignore"):
            pool = np.array(specials, np.float64).astype(np.float32).astype(dtype)
        u = UINT[dtype.itemsize]
        near = []
        for a in around:
            c = scalar_as(a, dtype).reshape(1)
            cb = c.view(u)
            near += [c, (cb + u(1)).view(dtype), (cb - u(1)).view(dtype)]
        if near:
            pool = np.concatenate([pool, *near])
        body = (rng.standard_normal(n) * 4).astype(np.float32).astype(dtype)
    k = min(n, pool.size)
    body[:k] = pool[:k]
    return rng.permutation(body)
