"""Kernel side of ReluGrad (Ascend910B): the kernel on the emulator, its tiling struct, its launch."""
from __future__ import annotations

import functools

from opsnn.ascendc import GlobalMemory, KernelArg, LaunchReport
from opsnn.dtypes import to_numpy
from opsnn.op_common.kernel_run import launch_kernel
from opsnn.platform import Platform

from .relu_grad import BUFFER_NUM, KernelReluGrad, relu_grad, ub_bytes_per_element
from .relu_grad_tiling_data import ReluGradTilingData

ARG_NAMES = ("gradients", "features", "backprops", "workspace")

__all__ = ["ARG_NAMES", "BUFFER_NUM", "KernelReluGrad", "ReluGradTilingData", "relu_grad", "run_kernel",
           "ub_bytes_per_element"]


def run_kernel(*, gm: GlobalMemory, platform: Platform, dtype, block_dim: int, tiling: bytes,
               gradients: KernelArg, features: KernelArg, backprops: KernelArg,
               sanitize: bool = False) -> LaunchReport:
    """Launch ReluGrad on `block_dim` cores with its 64-byte tiling data."""
    kernel = functools.partial(relu_grad, dtype=to_numpy(dtype))
    return launch_kernel(kernel, ARG_NAMES, gm=gm, platform=platform, block_dim=block_dim, tiling=bytes(tiling),
                         args={"gradients": gradients, "features": features, "backprops": backprops},
                         sanitize=sanitize)
