"""l0 ThresholdGradV2D: one step that computes out = grad where feature > t, else 0.

ascend910b: the AscendC kernel on the emulator, with the op_host tiling (tiling failure ->
561002, no kernel for the SoC -> 561003). ascend950: the arch35 kernel (op_kernel/arch35, the
atvoss broadcast schedules) with its arch35 tiling; it broadcasts grad and feature itself."""
from __future__ import annotations

from opsnn.aclnn.executor import Executor
from opsnn.aclnn.l0_tensor import L0Tensor
from opsnn.op_common.l0_launch import add_kernel_launch, find_kernel, run_tiling

from ..op_host import THRESHOLD_GRAD_V2D, infer_shape, padding, tiling

OP_TYPE = THRESHOLD_GRAD_V2D.op_type
_KERNEL_MODULE = "opsnn.activation.threshold_grad_v2_d.op_kernel"
_ARCH35_KERNEL_MODULE = "opsnn.activation.threshold_grad_v2_d.op_kernel.arch35"


def threshold_grad_v2d(executor: Executor, grad: L0Tensor, feature: L0Tensor, threshold: float) -> L0Tensor:
    """Record ThresholdGradV2D on dense, same-shape, same-dtype grad and feature; returns the
    output, a dense tensor in a new workspace slot (the kernel never writes the caller's out)."""
    platform = executor.platform
    if platform.family == "ascend950":  # the atvoss schedules: imported only for arch35
        from ..op_host.arch35 import infer_shape_arch35, tiling_arch35
    infer = infer_shape_arch35 if platform.family == "ascend950" else infer_shape  # arch35: broadcast
    out = executor.new_tensor(grad.dtype_name, grad.dtype, infer(grad.shape, feature.shape), f"{OP_TYPE} output")
    if platform.family == "ascend950":
        # arch35: the atvoss broadcast kernel takes the inputs un-broadcast; exact copies, no padding.
        arch35 = run_tiling(OP_TYPE, tiling_arch35, (grad.shape, feature.shape), grad.dtype_name, threshold,
                            platform)
        add_kernel_launch(executor, OP_TYPE, find_kernel(OP_TYPE, platform.family, True, _ARCH35_KERNEL_MODULE),
                          block_dim=arch35.block_dim, tiling_data=arch35.tiling_data.to_bytes(),
                          workspace_size=arch35.workspace_size,
                          args=(("gradOutput", grad), ("self", feature), ("out", out)),
                          options={"dtype": grad.dtype_name, "schedule_mode": arch35.schedule_mode})
        return out
    run_kernel = find_kernel(OP_TYPE, platform.family, THRESHOLD_GRAD_V2D.supports(platform.family),
                             _KERNEL_MODULE)
    result = run_tiling(OP_TYPE, tiling, grad.numel, grad.dtype_name, threshold, platform)
    args = (("input_gradient", grad), ("input_feature", feature), ("output_backprops", out))
    add_kernel_launch(executor, OP_TYPE, run_kernel, block_dim=result.block_dim,
                      tiling_data=result.tiling_data.to_bytes(), workspace_size=result.workspace_size,
                      args=args, options={"dtype": grad.dtype_name},
                      padding=dict.fromkeys((name for name, _ in args), padding(result)))
    return out
