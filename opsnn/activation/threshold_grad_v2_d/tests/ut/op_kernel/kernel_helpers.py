"""Running the kernel on exactly-sized GM tensors, and an independent numpy statement of §6."""
from __future__ import annotations

import ml_dtypes
import numpy as np

from opsnn.activation.threshold_grad_v2_d.op_host import padding, tiling
from opsnn.activation.threshold_grad_v2_d.op_kernel import run_kernel
from opsnn.ascendc import GlobalMemory, KernelArg
from opsnn.platform import get_platform

DTYPES = ("float32", "float16", "bfloat16", "int32", "int8", "uint8")
NP = {"float32": np.dtype(np.float32), "float16": np.dtype(np.float16), "bfloat16": np.dtype(ml_dtypes.bfloat16),
      "int32": np.dtype(np.int32), "int8": np.dtype(np.int8), "uint8": np.dtype(np.uint8)}
THRESHOLDS = (1.0, -1.5, 0.25, 1e30, float("inf"), float("-inf"))


def reference(grad: np.ndarray, feature: np.ndarray, threshold: float, dtype: str) -> np.ndarray:
    """Spec §6 restated with plain numpy, independently of the kernel and the emulator."""
    t = np.float32(threshold)
    if dtype == "float32":
        return np.where(feature > t, grad, np.float32(0))
    if dtype == "float16":
        with np.errstate(over="ignore"):  # a threshold beyond half's range becomes +-inf
            t16 = np.float16(t)
        return np.where(feature > t16, grad, np.float16(0))  # t rounded to half, compared in half
    if dtype == "bfloat16":  # widening and narrowing are exact for values that came from bf16
        return np.where(feature.astype(np.float32) > t, grad, np.zeros((), grad.dtype))
    if dtype == "int32":  # both through float32 (nearest-even), back toward zero, saturating
        keep = feature.astype(np.float32) > t
        g = grad.astype(np.float32).astype(np.float64)
        return np.where(keep, np.clip(g, -2.0 ** 31, 2.0 ** 31 - 1), 0.0).astype(np.int32)
    # int8 / uint8: every value is exact in half and float
    return np.where(feature.astype(np.float32) > t, grad, np.zeros((), grad.dtype))


def as_bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a).view({1: np.uint8, 2: np.uint16, 4: np.uint32}[a.dtype.itemsize])


def random_inputs(dtype: str, n: int, threshold: float, rng: np.random.Generator):
    """grad, feature: a spread of values with the threshold, its neighbours and special values mixed in."""
    dt = NP[dtype]
    if dt.kind in "iu":
        info = np.iinfo(dt)
        g = rng.integers(info.min, info.max, n, endpoint=True).astype(dt)
        f = rng.integers(info.min, info.max, n, endpoint=True).astype(dt)
        if np.isfinite(threshold) and info.min <= threshold <= info.max:
            t = int(np.floor(threshold))
            near = np.clip(np.array([t - 1, t, t + 1]), info.min, info.max).astype(dt)
            f[rng.integers(0, n, max(1, n // 8))] = rng.choice(near, max(1, n // 8))
        return g, f
    g = (rng.standard_normal(n) * 4).astype(np.float32)
    f = (rng.standard_normal(n) * 2).astype(np.float32)
    t32 = np.float32(threshold) if abs(threshold) < 1e30 else np.float32(1.0)
    specials = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1e-40, -1e-40, t32,
                         np.nextafter(t32, np.float32(np.inf)), np.nextafter(t32, np.float32(-np.inf))],
                        dtype=np.float32)
    k = max(1, n // 6)
    f[rng.integers(0, n, k)] = rng.choice(specials, k)
    g[rng.integers(0, n, k)] = rng.choice(specials, k)
    with np.errstate(over="ignore"):
        return g.astype(dt), f.astype(dt)


def alloc_tensor(gm: GlobalMemory, name: str, data: np.ndarray | None, nbytes: int, padding=()) -> KernelArg:
    """A tensor of exactly `nbytes` in a fresh allocation, declaring `padding` (op_host.padding)."""
    addr = gm.malloc(nbytes)
    if data is not None:
        gm.bytes_view(addr, nbytes)[:] = np.ascontiguousarray(data).view(np.uint8)
    return KernelArg(name, addr, nbytes, tuple(padding))


def run(dtype: str, grad: np.ndarray, feature: np.ndarray, threshold: float = 1.0, platform=None,
        sanitize: bool = True, **kernel_kw):
    """(output, report) of the kernel on exactly-sized tensors, tiled by op_host."""
    platform = platform or get_platform()
    n = grad.size
    r = tiling(n, dtype, threshold, platform)
    gm = GlobalMemory()
    nbytes = n * NP[dtype].itemsize
    pad = padding(r)  # the last core's block padding: the only past-the-tensor traffic expected
    args = [alloc_tensor(gm, "input_gradient", grad, nbytes, pad),
            alloc_tensor(gm, "input_feature", feature, nbytes, pad),
            alloc_tensor(gm, "output_backprops", None, nbytes, pad)]
    report = run_kernel(gm=gm, platform=platform, dtype=dtype, block_dim=r.block_dim,
                        tiling=r.tiling_data.to_bytes(), input_gradient=args[0], input_feature=args[1],
                        output_backprops=args[2], sanitize=sanitize, **kernel_kw)
    out = gm.bytes_view(args[2].addr, nbytes).view(NP[dtype]).copy()
    return out, report


def check(dtype: str, grad, feature, threshold: float, platform=None):
    """Run under the sanitizer; the result is bit-exact and only the expected padding is reported."""
    out, report = run(dtype, grad, feature, threshold, platform)
    want = reference(grad, feature, threshold, dtype)
    np.testing.assert_array_equal(as_bits(out), as_bits(want))
    assert report.errors == [], report.errors
    assert {f.kind for f in report.findings} <= {"gm_read_past_tensor", "gm_write_past_tensor"}
    assert all(f.core == report.block_dim - 1 for f in report.findings)
    return report
