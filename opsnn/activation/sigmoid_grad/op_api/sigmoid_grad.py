"""l0 SigmoidGrad (upstream op_api/sigmoid_grad.cpp): inputs (output, gradOutput), z of
gradOutput's shape and dtype. float32 / float16 / bfloat16 go to the AI Core: on ascend910b the
block-split kernel with its tiling (the last core's block padding declared), on ascend950 the
arch35 DAG kernel (a tiling refusal is 561002); float64 and complex go to AICPU, a functional
model here (functional_models.sigmoid_grad_aicpu)."""
from __future__ import annotations

from opsnn.aclnn.executor import Executor
from opsnn.aclnn.l0_tensor import L0Tensor
from opsnn.aclnn.steps import FunctionalStep
from opsnn.op_common import block_padding, plan_of
from opsnn.op_common.l0_launch import add_kernel_launch, find_kernel, run_tiling

from ..functional_models import KERNEL_DTYPES, sigmoid_grad_aicpu
from ..op_host import SIGMOID_GRAD, sigmoid_grad_tiling
from ..op_host.arch35 import sigmoid_grad_tiling_arch35

OP_TYPE = SIGMOID_GRAD.op_type
_MODULES = {"ascend910b": "opsnn.activation.sigmoid_grad.op_kernel.sigmoid_grad",
            "ascend950": "opsnn.activation.sigmoid_grad.op_kernel.arch35"}


def sigmoid_grad(executor: Executor, output: L0Tensor, grad_output: L0Tensor) -> L0Tensor:
    """Record SigmoidGrad on dense tensors of one shape and dtype; z in a new workspace slot."""
    platform, family = executor.platform, executor.platform.family
    z = executor.new_tensor(grad_output.dtype_name, grad_output.dtype, grad_output.shape, f"{OP_TYPE} output")
    if grad_output.dtype_name not in KERNEL_DTYPES:
        executor.add_step(FunctionalStep(f"{OP_TYPE}(AICPU model)", sigmoid_grad_aicpu, (output, grad_output), z))
        return z
    run_kernel = find_kernel(OP_TYPE, family, SIGMOID_GRAD.supports(family), _MODULES.get(family, ""))
    if family == "ascend950":
        t = run_tiling(OP_TYPE, sigmoid_grad_tiling_arch35, (output.shape, grad_output.shape, z.shape),
                       (output.dtype_name, grad_output.dtype_name, z.dtype_name), platform)
        args, options, padding = (("y", output), ("dy", grad_output), ("z", z)), {"tiling_key": t.tiling_key}, {}
    else:
        t = run_tiling(OP_TYPE, sigmoid_grad_tiling, z.numel, z.dtype_name, platform)
        args, options = (("x", output), ("y", grad_output), ("z", z)), {}
        pad = block_padding(plan_of(t.tiling_data, t.block_dim), z.numel, z.dtype.itemsize)
        padding = dict.fromkeys(("x", "y", "z"), pad)
    add_kernel_launch(executor, OP_TYPE, run_kernel, block_dim=t.block_dim, tiling_data=t.tiling_data.to_bytes(),
                      workspace_size=t.workspace_size, args=args, options={"dtype": z.dtype_name, **options},
                      padding=padding)
    return z
