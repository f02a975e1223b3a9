"""l0 ThresholdV2 (upstream l0op::Threshold): y = x <= threshold ? value : x on a dense x.

The scalars become one-element tensors of x's dtype (ConvertToTensor, scalar_to_tensor.py),
written into the workspace by the host before the kernel runs. ascend950 (arch35): the op_host
tiling (failure -> 561002) and the DAG kernel on the emulator. ascend910b: the built-in TBE
kernel, which upstream does not ship as AscendC, as a functional model (functional_models.py)."""
from __future__ import annotations

import numpy as np

from opsnn.aclnn.executor import Executor
from opsnn.aclnn.l0_tensor import L0Tensor
from opsnn.aclnn.steps import FunctionalStep
from opsnn.op_common.l0_launch import add_kernel_launch, find_kernel, run_tiling
from opsnn.platform import Platform

from ..functional_models import threshold_v2_910b
from ..op_host import THRESHOLD_V2, infer_shape
from ..op_host.arch35 import TensorDesc, threshold_v2_tiling
from ..scalar_to_tensor import convert_scalar

OP_TYPE = THRESHOLD_V2.op_type
_KERNEL_MODULE = "opsnn.activation.threshold_v2.op_kernel.arch35"


def is_arch35(platform: Platform) -> bool:
    """NpuArch >= DAV_3510: the Ascend950 family."""
    return platform.family == "ascend950"


def _host_scalar(executor: Executor, scalar, x: L0Tensor, label: str) -> L0Tensor:
    """ConvertToTensor: the scalar as a 0-d tensor of x's dtype, copied to the device."""
    element = np.asarray(convert_scalar(scalar.value, x.dtype), x.dtype)
    t = executor.new_tensor(x.dtype_name, x.dtype, (), f"{OP_TYPE} {label}")

    def constant():
        return element.copy()
    executor.add_step(FunctionalStep(f"ConvertToTensor({label})", constant, (), t))
    return t


def threshold_v2(executor: Executor, x: L0Tensor, threshold, value) -> L0Tensor:
    """Record ThresholdV2 on a dense x; returns y, a dense tensor of x's dtype in a new slot."""
    platform = executor.platform
    y = executor.new_tensor(x.dtype_name, x.dtype, infer_shape(x.shape), f"{OP_TYPE} output")
    thr = _host_scalar(executor, threshold, x, "threshold")
    val = _host_scalar(executor, value, x, "value")
    if not is_arch35(platform):
        executor.add_step(FunctionalStep(f"{OP_TYPE}(910B TBE model)", threshold_v2_910b, (x, thr, val), y))
        return y
    run_kernel = find_kernel(OP_TYPE, platform.family, THRESHOLD_V2.supports(platform.family), _KERNEL_MODULE)
    scalar = TensorDesc((), x.dtype_name)
    result = run_tiling(OP_TYPE, threshold_v2_tiling, TensorDesc(x.shape, x.dtype_name), scalar, scalar,
                        TensorDesc(y.shape, y.dtype_name), platform)
    add_kernel_launch(executor, OP_TYPE, run_kernel, block_dim=result.block_dim,
                      tiling_data=result.tiling_data.to_bytes(), workspace_size=result.workspace_size,
                      args=(("x", x), ("threshold", thr), ("value", val), ("y", y)),
                      options={"dtype": x.dtype_name, "tiling_key": result.tiling_key})
    return y
