"""Kernel side of ReluGrad (Ascend910B): the kernel on the emulator, its tiling struct, its launch."""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from opsnn.dtypes import to_numpy

from .relu_grad_tiling_data import ReluGradTilingData, ub_bytes_per_element

if TYPE_CHECKING:
    from opsnn.ascendc import GlobalMemory, KernelArg, LaunchReport
    from opsnn.platform import Platform

ARG_NAMES = ("gradients", "features", "backprops", "workspace")

__all__ = ["ARG_NAMES", "ReluGradTilingData", "run_kernel", "ub_bytes_per_element"]


def run_kernel(*, gm: GlobalMemory, platform: Platform, dtype, block_dim: int, tiling: bytes,
               gradients: KernelArg, features: KernelArg, backprops: KernelArg,
               sanitize: bool = False) -> LaunchReport:
    """Launch ReluGrad on `block_dim` cores with its 64-byte tiling data."""
    # here, not at the top: the kernel and the emulator (~25 ms to import) are for emulated
    # launches; the op_host tiling and aclnn's kernel lookup import this package without them
    from opsnn.op_common.kernel_run import launch_kernel

    from .relu_grad import relu_grad

    kernel = functools.partial(relu_grad, dtype=to_numpy(dtype))
    return launch_kernel(kernel, ARG_NAMES, gm=gm, platform=platform, block_dim=block_dim, tiling=bytes(tiling),
                         args={"gradients": gradients, "features": features, "backprops": backprops},
                         sanitize=sanitize)
