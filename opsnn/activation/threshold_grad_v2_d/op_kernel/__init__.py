"""Kernel side of ThresholdGradV2D: the AscendC kernel on the emulator, its tiling-data struct,
and how to launch it."""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from opsnn.dtypes import to_numpy
from opsnn.platform import Platform, get_platform

from .threshold_grad_v2_d_tiling_data import ThresholdGradV2DTilingData

if TYPE_CHECKING:
    from opsnn.ascendc import GlobalMemory, KernelArg, LaunchReport

ARG_NAMES = ("input_gradient", "input_feature", "output_backprops", "workspace")

__all__ = ["ARG_NAMES", "ThresholdGradV2DTilingData", "run_kernel"]


def run_kernel(*, gm: GlobalMemory, platform: Platform | str, dtype, block_dim: int, tiling: bytes,
               input_gradient: KernelArg, input_feature: KernelArg, output_backprops: KernelArg,
               sanitize: bool = False, upstream_int8_temp: bool = False) -> LaunchReport:
    """Launch ThresholdGradV2D on `block_dim` cores of `platform` with the 72-byte tiling data.

    Thread-safe (every launch has its own cores). Past-the-tensor accesses are `expected` only
    where the KernelArgs declare padding (op_host `padding(result)`: the last core's)."""
    # here, not at the top: the kernel and the emulator (~25 ms to import) are for emulated
    # launches; the op_host tiling and aclnn's kernel lookup import this package without them
    from opsnn.op_common.kernel_run import launch_kernel

    from .threshold_grad_v2_d import threshold_grad_v2_d

    if isinstance(platform, str):
        platform = get_platform(platform)
    if not isinstance(tiling, bytes | bytearray | memoryview):
        tiling = tiling.to_bytes()  # a ThresholdGradV2DTilingData
    kernel = functools.partial(threshold_grad_v2_d, dtype=to_numpy(dtype), upstream_int8_temp=upstream_int8_temp)
    return launch_kernel(kernel, ARG_NAMES, gm=gm, platform=platform, block_dim=block_dim, tiling=tiling,
                         args={"input_gradient": input_gradient, "input_feature": input_feature,
                               "output_backprops": output_backprops}, sanitize=sanitize)
