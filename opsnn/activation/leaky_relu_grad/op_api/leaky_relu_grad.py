"""l0 LeakyReluGrad (upstream op_api/leaky_relu_grad.cpp): out = grad where self > 0, else
grad * negative_slope, on dense inputs of one dtype that may broadcast against each other.

The output gets the broadcast shape and the inputs' dtype. Where it runs:
  AiCore, self's dtype in the SoC's list (910B-class and Ascend950: fp32/fp16/bf16; others fp32/fp16)
    ascend950   the arch35 DAG kernel on the emulator with its tiling (it broadcasts in the kernel)
    ascend910b  the built-in TBE kernel, which upstream does not ship: its functional model
  AiCpu otherwise (in practice float64): its functional model, attr "alpha" as float.
A failure here is upstream's null l0 result: 561103 ACLNN_ERR_INNER_NULLPTR at the API (a tiling
that refuses, e.g. a 0 dim in the output when only gradOutput is empty)."""
from __future__ import annotations

import functools

from opsnn.aclnn import status as s
from opsnn.aclnn.executor import Executor
from opsnn.aclnn.l0_tensor import L0Tensor
from opsnn.aclnn.steps import FunctionalStep
from opsnn.op_common.l0_launch import add_kernel_launch, find_kernel, run_tiling
from opsnn.platform import Platform

from ..functional_models import leaky_relu_grad_910b, leaky_relu_grad_aicpu
from ..op_host import LEAKY_RELU_GRAD, infer_shape

OP_TYPE = LEAKY_RELU_GRAD.op_type
_ARCH35_KERNEL_MODULE = "opsnn.activation.leaky_relu_grad.op_kernel.arch35"
_AICORE_910B_CLASS = ("float32", "float16", "bfloat16")
_AICORE_OTHER = ("float32", "float16")


def aicore_dtypes(platform: Platform) -> tuple[str, ...]:
    """IsAiCoreSupport: DAV_2201 (910B / 910_93) or a regbase arch (DAV_3510) has bfloat16 too."""
    return _AICORE_910B_CLASS if platform.family in ("ascend910b", "ascend950") else _AICORE_OTHER


def _inner(message: str) -> s.AclnnError:
    return s.AclnnError(s.ACLNN_ERR_INNER_NULLPTR, s.KIND_INNER, message)


def _arch35_tiling(platform: Platform, grad_shape, self_shape, dtype_name: str, negative_slope: float):
    from ..op_host.arch35 import leaky_relu_grad_tiling
    try:
        run_kernel = find_kernel(OP_TYPE, platform.family, LEAKY_RELU_GRAD.supports(platform.family),
                                 _ARCH35_KERNEL_MODULE)
        tiling = run_tiling(OP_TYPE, leaky_relu_grad_tiling, (grad_shape, self_shape), dtype_name, negative_slope,
                            platform)
    except s.AclnnError as e:  # the launcher list refuses: LeakyReluGrad returns nullptr
        raise _inner(e.message) from None
    return run_kernel, tiling


def check_empty_output(platform: Platform, grad_shape, self_shape, dtype_name: str, negative_slope: float) -> None:
    """An empty output with a non-empty self (only gradOutput empty) is not short-circuited
    upstream: on the arch35 AiCore path the tiling sees the 0 dim and refuses (561103, an
    inference, docs/leaky-relu-grad.md §9.5); the 910B TBE and AiCpu models have nothing to compute, and nothing is
    recorded (an empty device tensor may have no memory to address)."""
    if platform.family == "ascend950" and dtype_name in aicore_dtypes(platform):
        _arch35_tiling(platform, grad_shape, self_shape, dtype_name, negative_slope)


def leaky_relu_grad(executor: Executor, grad: L0Tensor, self: L0Tensor, negative_slope: float) -> L0Tensor:
    """Record LeakyReluGrad; returns the output, a dense tensor in a new workspace slot."""
    platform = executor.platform
    if grad.dtype != self.dtype:
        raise _inner(f"{OP_TYPE}: gradients {grad.dtype_name} and features {self.dtype_name} differ")
    try:
        shape = infer_shape(grad.shape, self.shape)
    except ValueError as e:
        raise _inner(f"{OP_TYPE}: {e}") from None
    out = executor.new_tensor(self.dtype_name, self.dtype, shape, f"{OP_TYPE} output")
    if self.dtype_name not in aicore_dtypes(platform):
        model = functools.partial(leaky_relu_grad_aicpu, negative_slope=negative_slope)
        executor.add_step(FunctionalStep(f"{OP_TYPE}(AiCpu model)", model, (grad, self), out))
        return out
    if platform.family != "ascend950":
        model = functools.partial(leaky_relu_grad_910b, negative_slope=negative_slope)
        executor.add_step(FunctionalStep(f"{OP_TYPE}(910B TBE model)", model, (grad, self), out))
        return out
    run_kernel, tiling = _arch35_tiling(platform, grad.shape, self.shape, grad.dtype_name, negative_slope)
    add_kernel_launch(executor, OP_TYPE, run_kernel, block_dim=tiling.block_dim,
                      tiling_data=tiling.tiling_data.to_bytes(), workspace_size=tiling.workspace_size,
                      args=(("gradients", grad), ("features", self), ("backprops", out)),
                      options={"dtype": grad.dtype_name, "schedule_mode": tiling.schedule_mode})
    return out
