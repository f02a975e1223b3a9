"""l0 ReluGrad: records one step computing out = grad * (feature > 0).

ascend910b: the AscendC kernel on the emulator with its op_host tiling (561002/561003 on
failure, as for every kernel launch). ascend950: the arch35 kernel (op_kernel/arch35, atvoss
broadcast schedules) with its arch35 tiling; it broadcasts grad and feature itself."""
from __future__ import annotations

import numpy as np

from opsnn.aclnn.executor import Executor
from opsnn.aclnn.l0_tensor import L0Tensor
from opsnn.op_common.l0_launch import add_kernel_launch, find_kernel, run_tiling

from ..op_host import RELU_GRAD, tiling

OP_TYPE = RELU_GRAD.op_type
_KERNEL_MODULE = "opsnn.activation.relu_grad.op_kernel"
_ARCH35_KERNEL_MODULE = "opsnn.activation.relu_grad.op_kernel.arch35"


def relu_grad(executor: Executor, grad: L0Tensor, feature: L0Tensor) -> L0Tensor:
    """out = grad * (feature > 0) into a new workspace slot; grad and feature are dense, one shape."""
    platform = executor.platform
    # ascend950 hands the inputs over un-broadcast (the arch35 kernel broadcasts); 910B: one shape
    shape = tuple(np.broadcast_shapes(grad.shape, feature.shape))
    out = executor.new_tensor(grad.dtype_name, grad.dtype, shape, f"{OP_TYPE} output")
    if platform.family == "ascend950":
        from ..op_host.arch35 import tiling_arch35  # the atvoss schedules: only for arch35
        arch35 = run_tiling(OP_TYPE, tiling_arch35, (grad.shape, feature.shape), grad.dtype_name, platform)
        add_kernel_launch(executor, OP_TYPE, find_kernel(OP_TYPE, platform.family, True, _ARCH35_KERNEL_MODULE),
                          block_dim=arch35.block_dim, tiling_data=arch35.tiling_data.to_bytes(),
                          workspace_size=arch35.workspace_size,
                          args=(("gradients", grad), ("features", feature), ("backprops", out)),
                          options={"dtype": grad.dtype_name, "schedule_mode": arch35.schedule_mode})
        return out
    run_kernel = find_kernel(OP_TYPE, platform.family, RELU_GRAD.supports(platform.family), _KERNEL_MODULE)
    result = run_tiling(OP_TYPE, tiling, grad.numel, grad.dtype_name, platform)
    args = (("gradients", grad), ("features", feature), ("backprops", out))
    add_kernel_launch(executor, OP_TYPE, run_kernel, block_dim=result.block_dim,
                      tiling_data=result.tiling_data.to_bytes(), workspace_size=result.workspace_size,
                      args=args, options={"dtype": grad.dtype_name},
                      padding=dict.fromkeys((name for name, _ in args), result.padding()))
    return out
