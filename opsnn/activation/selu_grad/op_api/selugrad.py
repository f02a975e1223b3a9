"""l0 SeluGrad (upstream op_api/selugrad.cpp): AiCore only, inputs (gradOutput, result), y of
gradOutput's shape and dtype. ascend950: the arch35 DAG kernel with its tiling; ascend910b: the
910B kernel with its tiling. A dtype without a kernel (int32, int8) is a tiling refusal: 561002."""
from __future__ import annotations

from opsnn.aclnn.executor import Executor
from opsnn.aclnn.l0_tensor import L0Tensor
from opsnn.op_common.l0_launch import add_kernel_launch, find_kernel, run_tiling

from ..op_host import SELU_GRAD, selu_grad_tiling
from ..op_host.arch35 import selu_grad_tiling_arch35

OP_TYPE = SELU_GRAD.op_type
_PACKAGE = "opsnn.activation.selu_grad.op_kernel"


def selu_grad(executor: Executor, grad_output: L0Tensor, result: L0Tensor) -> L0Tensor:
    platform, family = executor.platform, executor.platform.family
    y = executor.new_tensor(grad_output.dtype_name, grad_output.dtype, grad_output.shape, f"{OP_TYPE} output")
    arch35 = family == "ascend950"
    run_kernel = find_kernel(OP_TYPE, family, SELU_GRAD.supports(family),
                             f"{_PACKAGE}.arch35" if arch35 else f"{_PACKAGE}.selu_grad")
    if arch35:
        data = run_tiling(OP_TYPE, selu_grad_tiling_arch35, y.shape or (1,),
                          (grad_output.dtype_name, result.dtype_name), platform)
        block_dim, key, workspace = data.block_num, 0, 16 * 1024 * 1024
    else:
        tiling = run_tiling(OP_TYPE, selu_grad_tiling, y.numel, y.dtype_name, platform)
        block_dim, key, workspace, data = tiling.block_dim, tiling.tiling_key, tiling.workspace_size, tiling.tiling_data
    add_kernel_launch(executor, OP_TYPE, run_kernel, block_dim=block_dim, tiling_data=data.to_bytes(),
                      workspace_size=workspace, args=(("gradients", grad_output), ("outputs", result), ("y", y)),
                      options={"dtype": y.dtype_name, **({"tiling_key": key} if arch35 else {})})
    return y
