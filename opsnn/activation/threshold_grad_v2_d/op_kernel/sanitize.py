"""Run the kernel under the sanitizer on exactly-sized random tensors (what `opsnn sanitize` does)."""
from __future__ import annotations

import numpy as np

from opsnn.activation.threshold_grad_v2_d.op_host import TilingResult
from opsnn.ascendc import GlobalMemory, KernelArg, LaunchReport
from opsnn.dtypes import to_numpy
from opsnn.platform import Platform

from . import run_kernel

TENSORS = ("input_gradient", "input_feature", "output_backprops")


def _random_bytes(rng: np.random.Generator, dtype: np.dtype, n: int) -> np.ndarray:
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, n, endpoint=True).astype(dtype)
    return (rng.standard_normal(n) * 2).astype(np.float32).astype(dtype)


def sanitize_tiling(result: TilingResult, platform: Platform, seed: int = 0,
                    upstream_int8_temp: bool = False) -> LaunchReport:
    """Allocate the three tensors at their exact size (GM pads each to 512 bytes, as the device
    pool does), fill the inputs with random data and run `result`'s tiling under the sanitizer."""
    dtype = to_numpy(result.dtype)
    n = result.num_elements
    nbytes = n * dtype.itemsize
    gm = GlobalMemory()
    rng = np.random.default_rng(seed)
    args = []
    for name in TENSORS:
        addr = gm.malloc(nbytes)
        if name != "output_backprops":
            gm.bytes_view(addr, nbytes)[:] = _random_bytes(rng, dtype, n).view(np.uint8)
        args.append(KernelArg(name, addr, nbytes))
    return run_kernel(gm=gm, platform=platform, dtype=result.dtype, block_dim=result.block_dim,
                      tiling=result.tiling_data.to_bytes(), input_gradient=args[0], input_feature=args[1],
                      output_backprops=args[2], sanitize=True, upstream_int8_temp=upstream_int8_temp)


def format_report(report: LaunchReport) -> list[str]:
    """Readable lines: one per finding, then a summary."""
    lines = [str(f) for f in report.findings]
    n_err = len(report.errors)
    n_exp = len(report.findings) - n_err
    lines.append(f"{len(report.findings)} finding(s): {n_err} error(s), {n_exp} expected"
                 + ("" if n_err else " - clean"))
    return lines
