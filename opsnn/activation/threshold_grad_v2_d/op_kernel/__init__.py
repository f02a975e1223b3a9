"""Kernel side of ThresholdGradV2D: the AscendC kernel on the emulator, and how to launch it."""
from __future__ import annotations

import functools

from opsnn.ascendc import GlobalMemory, KernelArg, LaunchReport, launch
from opsnn.dtypes import to_numpy
from opsnn.platform import Platform, get_platform

from .threshold_grad_v2_d import BUFFER_NUM, KernelThresholdGradV2D, threshold_grad_v2_d

__all__ = ["BUFFER_NUM", "KernelThresholdGradV2D", "run_kernel", "threshold_grad_v2_d"]


def run_kernel(*, gm: GlobalMemory, platform: Platform | str, dtype, block_dim: int, tiling: bytes,
               input_gradient: KernelArg, input_feature: KernelArg, output_backprops: KernelArg,
               sanitize: bool = False, upstream_int8_temp: bool = False) -> LaunchReport:
    """Launch ThresholdGradV2D on `block_dim` cores of `platform` with the 72-byte tiling data.

    Thread-safe (every launch has its own cores). The last core's block padding past the tensors
    is reported (sanitize=True) as an expected finding, never raised."""
    if isinstance(platform, str):
        platform = get_platform(platform)
    if not isinstance(tiling, bytes | bytearray | memoryview):
        tiling = tiling.to_bytes()  # a ThresholdGradV2DTilingData
    kernel = functools.partial(threshold_grad_v2_d, dtype=to_numpy(dtype), upstream_int8_temp=upstream_int8_temp)
    return launch(kernel, gm=gm, platform=platform, block_dim=block_dim,
                  args=(input_gradient, input_feature, output_backprops, None), tiling=tiling, sanitize=sanitize)
