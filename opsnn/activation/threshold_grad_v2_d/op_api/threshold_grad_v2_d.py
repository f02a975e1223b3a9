"""l0 ThresholdGradV2D: one step that computes out = grad where feature > t, else 0.

ascend910b: the AscendC kernel on the emulator, with the op_host tiling (tiling failure ->
561002, no kernel for the SoC -> 561003). ascend950: the arch35 functional model (spec §9),
which claims the system workspace as a kernel launch would."""
from __future__ import annotations

from opsnn.aclnn import status as s
from opsnn.aclnn.executor import Executor
from opsnn.aclnn.l0_tensor import L0Tensor
from opsnn.aclnn.steps import FunctionalStep, KernelLaunchStep
from opsnn.activation.relu_grad import functional_models

from ..op_host import THRESHOLD_GRAD_V2D, TilingError, tiling

OP_TYPE = THRESHOLD_GRAD_V2D.op_type


def _find_kernel():
    try:
        from ..op_kernel import run_kernel
    except ImportError as e:
        raise s.AclnnError(s.ACLNN_ERR_INNER_FIND_KERNEL, s.KIND_INNER, f"{OP_TYPE} kernel not found: {e}") from e
    return run_kernel


def threshold_grad_v2d(executor: Executor, grad: L0Tensor, feature: L0Tensor, threshold: float) -> L0Tensor:
    """Record ThresholdGradV2D on dense, same-shape, same-dtype grad and feature; returns the
    output, a dense tensor in a new workspace slot (the kernel never writes the caller's out)."""
    platform = executor.platform
    out = executor.new_tensor(grad.dtype_name, grad.dtype, grad.shape, f"{OP_TYPE} output")
    if platform.family == "ascend950":
        def model(g, f):
            return functional_models.arch35_threshold_grad(g, f, threshold)
        executor.add_step(FunctionalStep(f"{OP_TYPE}(arch35 model)", model, (grad, feature), out),
                          kernel_workspace=platform.system_workspace)
        return out
    if not THRESHOLD_GRAD_V2D.supports(platform.family):
        raise s.AclnnError(s.ACLNN_ERR_INNER_FIND_KERNEL, s.KIND_INNER,
                           f"{OP_TYPE} has no kernel for SoC family {platform.family}")
    run_kernel = _find_kernel()
    try:
        result = tiling(grad.numel, grad.dtype_name, threshold, platform)
    except TilingError as e:
        raise s.AclnnError(s.ACLNN_ERR_INNER_TILING, s.KIND_TILING, f"{OP_TYPE} tiling failed: {e}") from e
    step = KernelLaunchStep(
        OP_TYPE, run_kernel, result.block_dim, result.tiling_data.to_bytes(),
        (("input_gradient", grad), ("input_feature", feature), ("output_backprops", out)),
        {"dtype": grad.dtype_name})
    executor.add_step(step, kernel_workspace=result.workspace_size)
    return out
