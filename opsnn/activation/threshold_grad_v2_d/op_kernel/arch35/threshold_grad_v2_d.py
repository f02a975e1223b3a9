"""The arch35 kernel entry: BroadcastSch<schMode, Dag>(tiling).Process(gradOutput, self, out)."""
from __future__ import annotations

from opsnn.ascendc import CoreContext, GlobalMemory, GmPtr, KernelArg, LaunchReport
from opsnn.atvoss import broadcast_kernel
from opsnn.dtypes import dtype_name
from opsnn.op_common.kernel_run import launch_kernel
from opsnn.platform import Platform, get_platform

from .threshold_grad_v2_d_dag import threshold_grad_v2_d_dag

ARG_NAMES = ("gradOutput", "self", "out")


def threshold_grad_v2_d(ctx: CoreContext, grad_output: GmPtr, self: GmPtr, out: GmPtr, tiling: bytes, *,
                        dtype, schedule_mode: int) -> None:
    broadcast_kernel(threshold_grad_v2_d_dag(dtype_name(dtype)), schedule_mode)(ctx, grad_output, self, out,
                                                                                 tiling)


def run_kernel(*, gm: GlobalMemory, platform: Platform | str, dtype, schedule_mode: int, block_dim: int,
               tiling: bytes, sanitize: bool = False, **args: KernelArg) -> LaunchReport:
    """Launch the arch35 kernel; `args` are gradOutput, self, out (KernelArgs at exact sizes).
    The schedules copy exactly, so no padding is declared or needed."""
    if isinstance(platform, str):
        platform = get_platform(platform)
    kernel = broadcast_kernel(threshold_grad_v2_d_dag(dtype_name(dtype)), int(schedule_mode))
    return launch_kernel(kernel, ARG_NAMES, gm=gm, platform=platform, block_dim=block_dim, tiling=bytes(tiling),
                         args=args, sanitize=sanitize)
