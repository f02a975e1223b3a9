"""Run the kernel under the sanitizer on exactly-sized random tensors (what `opsnn sanitize` does)."""
from __future__ import annotations

import numpy as np

from opsnn.ascendc import LaunchReport
from opsnn.dtypes import to_numpy
from opsnn.op_common.kernel_run import random_values, run_exact
from opsnn.platform import Platform

from ..op_host import TilingResult, padding
from . import run_kernel


def sanitize_tiling(result: TilingResult, platform: Platform, seed: int = 0,
                    upstream_int8_temp: bool = False) -> LaunchReport:
    """The three tensors at their exact size, random inputs, `result`'s tiling under the sanitizer,
    with the last core's block padding declared for each tensor."""
    dtype = to_numpy(result.dtype)
    n = result.num_elements
    rng = np.random.default_rng(seed)
    pad = padding(result)
    run = run_exact(run_kernel, platform=platform, block_dim=result.block_dim,
                    tiling=result.tiling_data.to_bytes(),
                    inputs={"input_gradient": random_values(rng, dtype, n),
                            "input_feature": random_values(rng, dtype, n)},
                    outputs={"output_backprops": (dtype, n)},
                    padding=dict.fromkeys(("input_gradient", "input_feature", "output_backprops"), pad),
                    dtype=result.dtype, upstream_int8_temp=upstream_int8_temp)
    return run.report
