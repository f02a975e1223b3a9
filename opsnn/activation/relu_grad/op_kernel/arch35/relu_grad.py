"""The arch35 ReluGrad kernel entry: BroadcastSch<schMode, Dag>(tiling).Process(gradients, features, backprops)."""
from __future__ import annotations

from opsnn.ascendc import GlobalMemory, KernelArg, LaunchReport
from opsnn.atvoss import broadcast_kernel
from opsnn.dtypes import dtype_name
from opsnn.op_common.kernel_run import launch_kernel
from opsnn.platform import Platform, get_platform

from .relu_grad_dag import relu_grad_dag

ARG_NAMES = ("gradients", "features", "backprops")


def run_kernel(*, gm: GlobalMemory, platform: Platform | str, dtype, schedule_mode: int, block_dim: int,
               tiling: bytes, sanitize: bool = False, **args: KernelArg) -> LaunchReport:
    """Launch on exact-size KernelArgs gradients, features, backprops (no padding: exact copies)."""
    if isinstance(platform, str):
        platform = get_platform(platform)
    kernel = broadcast_kernel(relu_grad_dag(dtype_name(dtype)), int(schedule_mode))
    return launch_kernel(kernel, ARG_NAMES, gm=gm, platform=platform, block_dim=block_dim, tiling=bytes(tiling),
                         args=args, sanitize=sanitize)
