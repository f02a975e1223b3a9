"""The spec's formulas (§6, §9) as plain numpy statements, written independently of opsnn's
models, and test data that hits the edges (NaN, inf, -0.0, values at the threshold, int32
values that float32 cannot hold)."""
import ml_dtypes
import numpy as np

BF16 = np.dtype(ml_dtypes.bfloat16)
F32 = np.float32
DTYPES = [np.dtype(d) for d in (np.float32, np.float16, BF16, np.int32, np.int8, np.uint8)]


def neighbours(value: np.ndarray) -> list:
    """value and the next representable values below and above it, in its own dtype."""
    u = {1: np.uint8, 2: np.uint16, 4: np.uint32}[value.itemsize]
    b = value.reshape(1).view(u)
    return [value.reshape(1), (b + u(1)).view(value.dtype), (b - u(1)).view(value.dtype)]


def make(dtype: np.dtype, n: int, t: float, rng) -> np.ndarray:
    if dtype.kind == "f" or dtype == BF16:
        specials = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 65504.0, 1e-8, -1e-8]
        pool = np.array(specials, F32).astype(dtype)
        near = np.concatenate(neighbours(np.asarray(t, F32).astype(dtype))) if t != 0 else pool[:1]
        body = (rng.standard_normal(n) * 3).astype(F32).astype(dtype)
    else:
        info = np.iinfo(dtype)
        body = rng.integers(info.min, info.max, n, endpoint=True).astype(dtype)
        small = rng.integers(max(info.min, -4), 5, n).astype(dtype)
        body = np.where(rng.random(n) < 0.5, small, body)
        extra = [0, 1, 2, info.max, info.min]
        if dtype == np.int32:
            extra += [2**24 + 1, -(2**24 + 1), 2**31 - 1, -(2**31), 2**31 - 65, 123456789]
        pool = np.array(extra, dtype)
        near = pool[:1]
    k = min(n, pool.size + near.size)
    body[:k] = np.concatenate([pool, near])[:k]
    # and the pool once more, shuffled: grad's specials then meet the feature's other specials
    body[k:2 * k] = rng.permutation(np.concatenate([pool, near]))[:max(0, min(k, n - k))]
    return body


def bits_type(a: np.ndarray) -> np.dtype:
    return np.dtype({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.itemsize])


def trunc_saturate_int32(x32: np.ndarray) -> np.ndarray:
    w = np.trunc(x32.astype(np.float64))
    return np.clip(np.where(np.isnan(w), 0, w), -(2**31), 2**31 - 1).astype(np.int32)


def expected_910b(g: np.ndarray, f: np.ndarray, t: float) -> np.ndarray:
    t32 = F32(t)
    if abs(t32) <= np.finfo(F32).eps:  # ReluGrad: a multiply
        if g.dtype.kind in "iu":
            return g * (f > 0).astype(g.dtype)
        with np.errstate(invalid="ignore"):
            product = (g.astype(F32) * (f > 0).astype(F32)).astype(g.dtype)
        # inf*0 and NaN*0 are NaN; IEEE leaves its sign to the CPU, opsnn fixes it: the grad's own
        # bits with the quiet bit set (the bit just below the exponent)
        quiet = {np.dtype(np.float16): 1 << 9, BF16: 1 << 6, np.dtype(F32): 1 << 22}[g.dtype]
        u = bits_type(g)
        nan = (g.view(u) | u.type(quiet)).view(g.dtype)
        return np.where(np.isnan(product), nan, product)
    zero = np.zeros((), g.dtype)
    if g.dtype == np.float32:
        return np.where(f > t32, g, zero)
    if g.dtype == np.float16:
        return np.where(f > np.float16(t32), g, zero)
    if g.dtype == BF16:
        return np.where(f.astype(F32) > t32, g.astype(F32), F32(0)).astype(BF16)
    if g.dtype == np.int32:
        return trunc_saturate_int32(np.where(f.astype(F32) > t32, g.astype(F32), F32(0)))
    return np.where(f.astype(np.float16).astype(F32) > t32, g, zero)  # int8 / uint8


def expected_950(g: np.ndarray, f: np.ndarray, t: float) -> np.ndarray:
    t32 = F32(t)
    if abs(t32) <= np.finfo(F32).eps:
        return expected_910b(g, f, t)
    f32 = f.astype(np.float16).astype(F32) if g.dtype.itemsize == 1 else f.astype(F32)
    passed = trunc_saturate_int32(g.astype(F32)) if g.dtype == np.int32 else g
    return np.where(f32 <= t32, np.zeros((), g.dtype), passed)  # NaN feature: the comparison is false
