"""The arch35 kernel entry (upstream leaky_relu_grad_apt.cpp): AIV only; the DAG is chosen by the
element type, the schedule by the key's schMode:
BroadcastSch<schMode, LeakyReluGradDag<U>>(tiling).Process(gradients, features, backprops)."""
from __future__ import annotations

import numpy as np

from opsnn.ascendc import CoreContext, GlobalMemory, GmPtr, KernelArg, LaunchReport
from opsnn.atvoss import broadcast_kernel
from opsnn.dtypes import dtype_name
from opsnn.op_common.kernel_run import launch_kernel
from opsnn.platform import Platform, get_platform

from .leaky_relu_grad_dag import leaky_relu_grad_dag

ARG_NAMES = ("gradients", "features", "backprops")


def leaky_relu_grad(ctx: CoreContext, gradients: GmPtr, features: GmPtr, backprops: GmPtr, tiling: bytes, *,
                    dtype, schedule_mode: int) -> None:
    kernel = broadcast_kernel(leaky_relu_grad_dag(dtype_name(dtype)), int(schedule_mode))
    with np.errstate(invalid="ignore"):  # see run_kernel
        kernel(ctx, gradients, features, backprops, tiling)


def run_kernel(*, gm: GlobalMemory, platform: Platform | str, dtype, schedule_mode: int, block_dim: int,
               tiling: bytes, sanitize: bool = False, **args: KernelArg) -> LaunchReport:
    """Launch on `block_dim` cores; `args` are gradients, features, backprops (KernelArgs of their
    exact, un-broadcast sizes). The schedules copy exactly, so no padding is declared."""
    if isinstance(platform, str):
        platform = get_platform(platform)
    kernel = broadcast_kernel(leaky_relu_grad_dag(dtype_name(dtype)), int(schedule_mode))
    # The emulator's tensor-tensor Compare lets numpy warn on a bfloat16 NaN (ml_dtypes compares
    # raise "invalid value"); the comparison itself is right (False). Silenced here, per thread,
    # until opsnn.ascendc.compare_tensor does it itself.
    with np.errstate(invalid="ignore"):
        return launch_kernel(kernel, ARG_NAMES, gm=gm, platform=platform, block_dim=block_dim,
                             tiling=bytes(tiling), args=args, sanitize=sanitize)
