"""Run the ThresholdV2 arch35 kernel outside aclnn: tiling, exactly-sized tensors, the launch
under the sanitizer (nothing past any tensor is declared: the schedule copies with DataCopyPad)."""
from __future__ import annotations

import numpy as np

from opsnn.activation.threshold_v2.op_host.arch35 import TensorDesc, threshold_v2_tiling
from opsnn.activation.threshold_v2.op_kernel.arch35 import run_kernel
from opsnn.dtypes import dtype_name
from opsnn.op_common.kernel_run import KernelRun, run_exact


def launch(x: np.ndarray, threshold: np.ndarray, value: np.ndarray | None, platform) -> tuple[KernelRun, object]:
    """(the run, the tiling result) for x with threshold / value tensors (element 0 is read)."""
    name = dtype_name(x.dtype)
    result = threshold_v2_tiling(TensorDesc(x.shape, name), TensorDesc(threshold.shape, name),
                                 None if value is None else TensorDesc(value.shape, name), TensorDesc(x.shape, name),
                                 platform)
    inputs = {"x": x, "threshold": threshold} | ({} if value is None else {"value": value})
    run = run_exact(run_kernel, platform=platform, block_dim=result.block_dim, tiling=result.tiling_data.to_bytes(),
                    inputs=inputs, outputs={"y": (x.dtype, x.size)}, padding={}, dtype=name,
                    tiling_key=result.tiling_key)
    return run, result
