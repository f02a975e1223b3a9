"""l0 SoftShrinkGrad (upstream op_api/soft_shrink_grad.cpp): AiCore, inputs (gradOutput, self) of
one shape and dtype, the lambd attr; output of gradOutput's shape and dtype. A SoC family without
the kernel: 561003; a tiling refusal: 561002."""
from __future__ import annotations

from opsnn.aclnn.executor import Executor
from opsnn.aclnn.l0_tensor import L0Tensor
from opsnn.op_common.l0_launch import add_kernel_launch, find_kernel, run_tiling

from ..op_host import SOFT_SHRINK_GRAD, softshrink_grad_tiling

OP_TYPE = SOFT_SHRINK_GRAD.op_type


def softshrink_grad(executor: Executor, grad: L0Tensor, x: L0Tensor, lambd: float) -> L0Tensor:
    family = executor.platform.family
    y = executor.new_tensor(grad.dtype_name, grad.dtype, grad.shape, f"{OP_TYPE} output")
    run_kernel = find_kernel(OP_TYPE, family, SOFT_SHRINK_GRAD.supports(family),
                             f"{__package__.rpartition('.')[0]}.op_kernel.softshrink_grad")
    t = run_tiling(OP_TYPE, softshrink_grad_tiling, (grad.shape, x.shape), (grad.dtype_name, x.dtype_name), lambd,
                   executor.platform)
    add_kernel_launch(executor, OP_TYPE, run_kernel, block_dim=t.block_dim, tiling_data=t.tiling_data.to_bytes(),
                      workspace_size=t.workspace_size, args=(("input_grad", grad), ("input_x", x), ("output_y", y)),
                      options={"dtype": y.dtype_name, "tiling_key": t.tiling_key})
    return y
