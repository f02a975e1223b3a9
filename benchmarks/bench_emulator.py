"""Emulator throughput: the ThresholdGradV2D kernel on the AscendC emulator, every dtype,
sanitizer off and on (median of several launches; tiling and GM set-up not timed).

    .venv/bin/python benchmarks/bench_emulator.py [--n 4194304] [--repeats 7] [--soc Ascend910B2] [--workers 1]
                                                  [--scheme 910b|arch35|both] [--arch35-n 1048576]

Target (issue 3): >= 50 M elements/s for float32 at 4 M elements with the sanitizer off, and the
sanitizer costing at most 3x. The arch35 (Ascend950, atvoss) kernel: at least as fast as the
910B kernel at 1 M elements (issue 11)."""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from opsnn.activation.threshold_grad_v2_d.op_host import padding, tiling
from opsnn.activation.threshold_grad_v2_d.op_kernel import threshold_grad_v2_d
from opsnn.ascendc import GlobalMemory, KernelArg, launch
from opsnn.dtypes import to_numpy
from opsnn.platform import get_platform

DTYPES = ("float32", "float16", "bfloat16", "int32", "int8", "uint8")
TARGET_F32 = 50e6


def _inputs(dtype: np.dtype, n: int, rng: np.random.Generator):
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return (rng.integers(info.min, info.max, n, endpoint=True).astype(dtype) for _ in range(2))
    return ((rng.standard_normal(n) * 2).astype(np.float32).astype(dtype) for _ in range(2))


def bench(name: str, n: int, repeats: int, platform, workers: int) -> tuple[float, float, int]:
    """(elements/s sanitizer off, elements/s sanitizer on, block_dim)."""
    import functools

    dtype = to_numpy(name)
    nbytes = n * dtype.itemsize
    gm = GlobalMemory()
    rng = np.random.default_rng(0)
    r = tiling(n, name, 1.0, platform)
    pad = padding(r)  # the last core's block padding: the strict sanitizer needs it declared
    args = []
    for arg_name, data in zip(("input_gradient", "input_feature"), _inputs(dtype, n, rng), strict=True):
        addr = gm.malloc(nbytes)
        gm.bytes_view(addr, nbytes)[:] = data.view(np.uint8)
        args.append(KernelArg(arg_name, addr, nbytes, pad))
    args.append(KernelArg("output_backprops", gm.malloc(nbytes), nbytes, pad))
    kernel = functools.partial(threshold_grad_v2_d, dtype=dtype)
    times: dict[bool, list[float]] = {False: [], True: []}
    for rep in range(repeats + 1):  # the first round warms caches and is dropped
        for sanitize in (False, True):  # interleaved, so background load hits both alike
            t0 = time.perf_counter()
            report = launch(kernel, gm=gm, platform=platform, block_dim=r.block_dim, args=[*args, None],
                            tiling=r.tiling_data.to_bytes(), sanitize=sanitize, max_workers=workers)
            if rep:
                times[sanitize].append(time.perf_counter() - t0)
            assert report.ok, report.errors
    rates = [n / statistics.median(times[s]) for s in (False, True)]
    return rates[0], rates[1], r.block_dim


def bench_arch35(name: str, n: int, repeats: int, workers: int,
                 shapes: tuple[tuple[int, ...], tuple[int, ...]] | None = None) -> tuple[float, float, int]:
    """The arch35 (Ascend950) kernel: atvoss broadcast schedules; same shapes by default."""
    import functools

    from opsnn.activation.threshold_grad_v2_d.op_host.arch35 import tiling_arch35
    from opsnn.activation.threshold_grad_v2_d.op_kernel.arch35 import threshold_grad_v2_d as kernel35

    platform = get_platform("Ascend950")
    shapes = shapes or ((n,), (n,))
    dtype = to_numpy(name)
    gm = GlobalMemory()
    rng = np.random.default_rng(0)
    args = []
    for arg_name, shape in zip(("gradOutput", "self"), shapes, strict=True):
        data = next(_inputs(dtype, int(np.prod(shape)), rng))
        addr = gm.malloc(data.nbytes)
        gm.bytes_view(addr, data.nbytes)[:] = data.view(np.uint8)
        args.append(KernelArg(arg_name, addr, data.nbytes))
    out_n = int(np.prod(np.broadcast_shapes(*shapes)))
    args.append(KernelArg("out", gm.malloc(out_n * dtype.itemsize), out_n * dtype.itemsize))
    r = tiling_arch35(shapes, name, 1.0, platform)
    kernel = functools.partial(kernel35, dtype=dtype, schedule_mode=r.schedule_mode)
    times: dict[bool, list[float]] = {False: [], True: []}
    for rep in range(repeats + 1):
        for sanitize in (False, True):
            t0 = time.perf_counter()
            report = launch(kernel, gm=gm, platform=platform, block_dim=r.block_dim, args=args,
                            tiling=r.tiling_data.to_bytes(), sanitize=sanitize, max_workers=workers)
            if rep:
                times[sanitize].append(time.perf_counter() - t0)
            assert report.ok, report.errors
    rates = [out_n / statistics.median(times[s]) for s in (False, True)]
    return rates[0], rates[1], r.block_dim


def main_arch35(a) -> bool:
    """arch35 vs the 910B kernel at --arch35-n elements (target: arch35 at least as fast)."""
    n = a.arch35_n
    print(f"\nThresholdGradV2D arch35 (Ascend950, atvoss) vs 910B (Ascend910B2) on the emulator: n={n}, "
          f"median of {a.repeats}")
    print(f"{'dtype':<10} {'block_dim':>9} {'arch35 off':>11} {'arch35 on':>10} {'910B off':>9} {'ratio':>6}")
    ok = True
    for name in a.dtypes.split(","):
        off, on, block_dim = bench_arch35(name, n, a.repeats, a.workers)
        ref, _, _ = bench(name, n, a.repeats, get_platform("Ascend910B2"), a.workers)
        print(f"{name:<10} {block_dim:>9} {off / 1e6:>11.1f} {on / 1e6:>10.1f} {ref / 1e6:>9.1f} {off / ref:>5.2f}x")
        ok &= off >= ref
    bo, bn, bd = bench_arch35("float16", n, a.repeats, a.workers, ((n // 512, 512), (n // 512, 1)))
    print(f"{'fp16 brc':<10} {bd:>9} {bo / 1e6:>11.1f} {bn / 1e6:>10.1f}  ([{n // 512},512] x [{n // 512},1])")
    print("arch35 target (>= the 910B kernel, sanitizer off):", "met" if ok else "NOT met")
    return ok


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=4 * 1024 * 1024)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--soc", default=None)
    ap.add_argument("--workers", type=int, default=1, help="cores run on this many threads")
    ap.add_argument("--dtypes", default=",".join(DTYPES))
    ap.add_argument("--scheme", choices=("910b", "arch35", "both"), default="both")
    ap.add_argument("--arch35-n", type=int, default=1024 * 1024, help="elements for the arch35 comparison")
    a = ap.parse_args(argv)
    if a.scheme == "arch35":
        return 0 if main_arch35(a) else 1
    platform = get_platform(a.soc)
    print(f"ThresholdGradV2D on the emulator: n={a.n}, {platform.name}, median of {a.repeats}, workers={a.workers}")
    print(f"{'dtype':<10} {'block_dim':>9} {'off Melem/s':>12} {'on Melem/s':>11} {'on/off':>7}")
    ok = True
    for name in a.dtypes.split(","):
        off, on, block_dim = bench(name, a.n, a.repeats, platform, a.workers)
        print(f"{name:<10} {block_dim:>9} {off / 1e6:>12.1f} {on / 1e6:>11.1f} {off / on:>6.2f}x")
        if name == "float32":
            ok = off >= TARGET_F32 and off / on <= 3.0
    print("float32 target (>= 50 M/s off, sanitizer <= 3x):", "met" if ok else "NOT met")
    if a.scheme == "both":
        ok = main_arch35(a) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
