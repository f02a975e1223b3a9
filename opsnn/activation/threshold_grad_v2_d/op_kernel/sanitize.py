"""Run the kernel under the sanitizer on exactly-sized random tensors (what `opsnn sanitize` does)."""
from __future__ import annotations

import numpy as np

from opsnn.ascendc import LaunchReport
from opsnn.dtypes import to_numpy
from opsnn.op_common.kernel_run import ExactRun, random_values
from opsnn.platform import Platform

from .. import functional_models
from ..op_host import TilingResult, padding
from . import run_kernel


def prepare_tiling(result: TilingResult, platform: Platform, seed: int = 0,
                   upstream_int8_temp: bool = False) -> ExactRun:
    """The three tensors at their exact size, random inputs, `result`'s tiling, with the last
    core's block padding declared for each tensor, and the Ascend910B functional model; launch it
    with `.launch(sanitize)`."""
    dtype = to_numpy(result.dtype)
    n = result.num_elements
    rng = np.random.default_rng(seed)
    threshold = result.tiling_data.threshold  # as the kernel reads it: float32

    def model(inputs):
        return {"output_backprops": functional_models.a2_threshold_grad(
            inputs["input_gradient"], inputs["input_feature"], threshold)}

    return ExactRun(run_kernel, platform=platform, block_dim=result.block_dim, tiling=result.tiling_data.to_bytes(),
                    inputs={"input_gradient": random_values(rng, dtype, n),
                            "input_feature": random_values(rng, dtype, n)},
                    outputs={"output_backprops": (dtype, n)},
                    padding=dict.fromkeys(("input_gradient", "input_feature", "output_backprops"), padding(result)),
                    model=model, dtype=result.dtype, upstream_int8_temp=upstream_int8_temp)


def sanitize_tiling(result: TilingResult, platform: Platform, seed: int = 0,
                    upstream_int8_temp: bool = False) -> LaunchReport:
    return prepare_tiling(result, platform, seed, upstream_int8_temp).launch(sanitize=True)
