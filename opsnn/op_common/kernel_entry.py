"""An operator kernel's `run_kernel` (what the l0 op, `opsnn sanitize` and the benchmarks launch),
written once: around an AscendC-style entry (910B kernels) or around an atvoss DAG per dtype
(arch35 kernels run by ElementwiseSch)."""
from __future__ import annotations

from collections.abc import Callable, Sequence

from opsnn.ascendc import EmulatorError, GlobalMemory, KernelArg, LaunchReport
from opsnn.op_common.kernel_run import launch_kernel
from opsnn.platform import Platform, get_platform


def _platform(platform: Platform | str) -> Platform:
    return get_platform(platform) if isinstance(platform, str) else platform


def entry_runner(entry: Callable, arg_names: Sequence[str]) -> Callable:
    """run_kernel(*, gm, platform, dtype, block_dim, tiling, sanitize=False, **args) launching
    entry(ctx, *gm_addrs, tiling, dtype=dtype) on block_dim cores; `args` by arg_names."""
    def run_kernel(*, gm: GlobalMemory, platform: Platform | str, dtype, block_dim: int, tiling: bytes,
                   sanitize: bool = False, **args: KernelArg) -> LaunchReport:
        def kernel(ctx, *addrs):
            entry(ctx, *addrs, dtype=dtype)
        return launch_kernel(kernel, arg_names, gm=gm, platform=_platform(platform), block_dim=block_dim,
                             tiling=bytes(tiling), args=args, sanitize=sanitize)
    return run_kernel


def dag_runner(dag_of: Callable[[str], object], inputs: Sequence[str], outputs: Sequence[str],
               tiling_keys: Callable[[str], int], op: str) -> Callable:
    """run_kernel(*, gm, platform, dtype, tiling_key, block_dim, tiling, sanitize=False, **args)
    running dag_of(dtype) by atvoss's ElementwiseSch; a key other than tiling_keys(dtype), or a
    dtype without a DAG, is an EmulatorError (no such binary)."""
    def run_kernel(*, gm: GlobalMemory, platform: Platform | str, dtype: str, tiling_key: int, block_dim: int,
                   tiling: bytes, sanitize: bool = False, **args: KernelArg) -> LaunchReport:
        from opsnn.atvoss import elementwise_kernel
        from opsnn.atvoss.sch_common import run_launch
        try:
            dag, expected = dag_of(dtype), tiling_keys(dtype)
        except KeyError:
            dag = expected = None
        if dag is None or tiling_key != expected:
            raise EmulatorError(f"no {op} arch35 kernel for key {tiling_key} and dtype {dtype}")
        return run_launch(elementwise_kernel(dag), dag, gm=gm, platform=_platform(platform), block_dim=block_dim,
                          tiling=bytes(tiling), inputs=[args[n] for n in inputs], outputs=[args[n] for n in outputs],
                          sanitize=sanitize)
    return run_kernel
