"""l0 ReluGrad: records the functional model (every SoC) as one executor step."""
from __future__ import annotations

from opsnn.aclnn.executor import Executor
from opsnn.aclnn.l0_tensor import L0Tensor
from opsnn.aclnn.steps import FunctionalStep

from .. import functional_models


def relu_grad(executor: Executor, grad: L0Tensor, feature: L0Tensor) -> L0Tensor:
    """out = grad * (feature > 0) into a new workspace slot. grad and feature are dense and of one
    shape. The step stands for an AICore kernel, so it claims the platform's system workspace."""
    out = executor.new_tensor(grad.dtype_name, grad.dtype, grad.shape, "ReluGrad output")
    executor.add_step(FunctionalStep("ReluGrad", functional_models.relu_grad, (grad, feature), out),
                      kernel_workspace=executor.platform.system_workspace)
    return out
