"""l0 ReluGrad: records one step computing out = grad * (feature > 0).

ascend910b: the AscendC kernel on the emulator with its op_host tiling (561002/561003 on
failure, as for every kernel launch). ascend950: the arch35 functional model, which claims the
system workspace as a kernel launch would."""
from __future__ import annotations

from opsnn.aclnn.executor import Executor
from opsnn.aclnn.l0_tensor import L0Tensor
from opsnn.aclnn.steps import FunctionalStep
from opsnn.op_common.l0_launch import add_kernel_launch, find_kernel, run_tiling

from .. import functional_models
from ..op_host import RELU_GRAD, tiling

OP_TYPE = RELU_GRAD.op_type
_KERNEL_MODULE = "opsnn.activation.relu_grad.op_kernel"


def relu_grad(executor: Executor, grad: L0Tensor, feature: L0Tensor) -> L0Tensor:
    """out = grad * (feature > 0) into a new workspace slot; grad and feature are dense, one shape."""
    platform = executor.platform
    out = executor.new_tensor(grad.dtype_name, grad.dtype, grad.shape, f"{OP_TYPE} output")
    if platform.family == "ascend950":
        executor.add_step(FunctionalStep(f"{OP_TYPE}(arch35 model)", functional_models.relu_grad, (grad, feature),
                                         out), kernel_workspace=platform.system_workspace)
        return out
    run_kernel = find_kernel(OP_TYPE, platform.family, RELU_GRAD.supports(platform.family), _KERNEL_MODULE)
    result = run_tiling(OP_TYPE, tiling, grad.numel, grad.dtype_name, platform)
    args = (("gradients", grad), ("features", feature), ("backprops", out))
    add_kernel_launch(executor, OP_TYPE, run_kernel, block_dim=result.block_dim,
                      tiling_data=result.tiling_data.to_bytes(), workspace_size=result.workspace_size,
                      args=args, options={"dtype": grad.dtype_name},
                      padding=dict.fromkeys((name for name, _ in args), result.padding()))
    return out
