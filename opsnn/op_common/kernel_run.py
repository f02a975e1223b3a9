"""Running one kernel launch outside aclnn: exactly-sized tensors in a fresh GM, random inputs,
the launch under the sanitizer with the padding the tiling declares. What `opsnn sanitize` and the
op_kernel tests of every operator do."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from opsnn.ascendc import GlobalMemory, KernelArg, LaunchReport, Padding, launch
from opsnn.platform import Platform


@dataclass(frozen=True)
class KernelRun:
    report: LaunchReport
    outputs: dict[str, np.ndarray]  # each output as the kernel left it (logical bytes only)


def random_values(rng: np.random.Generator, dtype: np.dtype, n: int) -> np.ndarray:
    """n values of `dtype`: the full range for integers, a spread around 0 for floats."""
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, n, endpoint=True).astype(dtype)
    return (rng.standard_normal(n) * 2).astype(np.float32).astype(dtype)


def launch_kernel(kernel: Callable, arg_names: Sequence[str], *, gm: GlobalMemory, platform: Platform,
                  block_dim: int, tiling: bytes, args: Mapping[str, KernelArg | None],
                  sanitize: bool = False) -> LaunchReport:
    """Launch `kernel(ctx, *gm_addrs, tiling)` over `block_dim` cores with its GM_ADDR arguments
    taken from `args` in the kernel's own order (`arg_names`); a missing name is a nullptr."""
    unknown = set(args) - set(arg_names)
    if unknown:
        raise TypeError(f"unknown kernel argument(s) {', '.join(sorted(unknown))}; the kernel takes "
                        f"{', '.join(arg_names)}")
    return launch(kernel, gm=gm, platform=platform, block_dim=block_dim,
                  args=tuple(args.get(n) for n in arg_names), tiling=tiling, sanitize=sanitize)


def run_exact(run_kernel: Callable, *, platform: Platform, block_dim: int, tiling: bytes,
              inputs: Mapping[str, np.ndarray], outputs: Mapping[str, tuple[np.dtype, int]],
              padding: Mapping[str, tuple[Padding, ...]], sanitize: bool = True, **options) -> KernelRun:
    """Allocate every tensor at its exact size (GM pads each allocation to 512 bytes, as the
    device pool does), copy the inputs in, launch `run_kernel(gm=, platform=, block_dim=, tiling=,
    <name>=KernelArg, sanitize=, **options)` and read the outputs back."""
    gm = GlobalMemory()
    args = {}
    for name, host in inputs.items():
        raw = np.ascontiguousarray(host).reshape(-1).view(np.uint8)
        addr = gm.malloc(max(raw.size, 1))
        gm.bytes_view(addr, raw.size)[:] = raw
        args[name] = KernelArg(name, addr, raw.size, padding.get(name, ()))
    for name, (dtype, n) in outputs.items():
        nbytes = np.dtype(dtype).itemsize * n
        args[name] = KernelArg(name, gm.malloc(max(nbytes, 1)), nbytes, padding.get(name, ()))
    report = run_kernel(gm=gm, platform=platform, block_dim=block_dim, tiling=tiling, sanitize=sanitize,
                        **args, **options)
    results = {name: np.array(gm.bytes_view(args[name].addr, args[name].nbytes)).view(np.dtype(dtype))
               for name, (dtype, _) in outputs.items()}
    return KernelRun(report, results)
