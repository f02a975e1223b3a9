"""l0 HardtanhGrad (upstream op_api/hardtanh_grad.cpp): AiCore only, inputs (self, gradOutput) -
note self first: the op's `result` is the forward input, `grad` the incoming gradient - output y,
attrs min_val / max_val as floats.

ascend950: the op_host tiling (a refusal is 561002) and the arch35 DAG kernel on the emulator.
ascend910b: CANN's built-in TBE kernel, which upstream does not ship as AscendC, as a functional
model; it takes result, grad and y of one dtype and shape as the arch35 tiling does (assumed:
the TBE kernel's own checks are not visible), refusing with 561002 otherwise."""
from __future__ import annotations

from opsnn.aclnn import status as s
from opsnn.aclnn.executor import Executor
from opsnn.aclnn.l0_tensor import L0Tensor
from opsnn.aclnn.steps import FunctionalStep
from opsnn.op_common.l0_launch import add_kernel_launch, find_kernel, run_tiling

from ..functional_models import hardtanh_grad_910b
from ..op_host import DTYPES, HARDTANH_GRAD
from ..op_host.arch35 import TensorDesc, hardtanh_grad_tiling

OP_TYPE = HARDTANH_GRAD.op_type
_KERNEL_MODULE = "opsnn.activation.hardtanh_grad.op_kernel.arch35"


def _not_scalar(shape) -> tuple[int, ...]:
    return tuple(shape) or (1,)


def _check_910b(result: L0Tensor, grad: L0Tensor, y: L0Tensor) -> None:
    for name, t in (("result", result), ("grad", grad), ("y", y)):
        if t.dtype_name not in DTYPES:
            raise s.AclnnError(s.ACLNN_ERR_INNER_TILING, s.KIND_TILING,
                               f"{OP_TYPE} (TBE) {name} dtype {t.dtype_name} is not in [{', '.join(DTYPES)}]")
    if not result.dtype_name == grad.dtype_name == y.dtype_name:
        raise s.AclnnError(s.ACLNN_ERR_INNER_TILING, s.KIND_TILING,
                           f"{OP_TYPE} (TBE) takes result, grad and y of one dtype, got {result.dtype_name}, "
                           f"{grad.dtype_name}, {y.dtype_name}")
    if not _not_scalar(result.shape) == _not_scalar(grad.shape) == _not_scalar(y.shape):
        raise s.AclnnError(s.ACLNN_ERR_INNER_TILING, s.KIND_TILING,
                           f"{OP_TYPE} (TBE) takes result, grad and y of one shape, got {list(result.shape)}, "
                           f"{list(grad.shape)}, {list(y.shape)}")


def hardtanh_grad(executor: Executor, result: L0Tensor, grad: L0Tensor, min_val: float, max_val: float,
                  y_dtype_name: str, y_dtype, y_shape: tuple[int, ...]) -> L0Tensor:
    """Record HardtanhGrad on dense result (self) and grad (gradOutput); y, of the given dtype and
    shape (upstream: a contiguous out), is a dense tensor in a new workspace slot."""
    platform = executor.platform
    y = executor.new_tensor(y_dtype_name, y_dtype, tuple(y_shape), f"{OP_TYPE} output")
    if platform.family != "ascend950":
        _check_910b(result, grad, y)
        shape = y.shape

        def tbe_model(r, g):
            return hardtanh_grad_910b(r, g, min_val, max_val).reshape(shape)
        executor.add_step(FunctionalStep(f"{OP_TYPE}(910B TBE model)", tbe_model, (result, grad), y))
        return y
    run_kernel = find_kernel(OP_TYPE, platform.family, HARDTANH_GRAD.supports(platform.family), _KERNEL_MODULE)
    tiling = run_tiling(OP_TYPE, hardtanh_grad_tiling, TensorDesc(result.shape, result.dtype_name),
                        TensorDesc(grad.shape, grad.dtype_name), TensorDesc(y.shape, y.dtype_name), min_val, max_val,
                        platform)
    add_kernel_launch(executor, OP_TYPE, run_kernel, block_dim=tiling.block_dim,
                      tiling_data=tiling.tiling_data.to_bytes(), workspace_size=tiling.workspace_size,
                      args=(("result", result), ("grad", grad), ("y", y)),
                      options={"dtype": y.dtype_name, "tiling_key": tiling.tiling_key})
    return y
