"""The l0 scaffolding of a kernel launch, the same for every operator: find the kernel (561003
when it is missing), run the host tiling (561002 when it fails), and record the launch in the
executor with the tiling's block dim, bytes, workspace and declared padding."""
from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping

from opsnn.aclnn import status as s
from opsnn.aclnn.executor import Executor
from opsnn.aclnn.l0_tensor import L0Tensor
from opsnn.aclnn.steps import KernelLaunchStep
from opsnn.ascendc import Padding


def find_kernel(op_type: str, family: str, supported: bool, module: str) -> Callable:
    """The `run_kernel` of `module`, or 561003 when the SoC family has no kernel for `op_type`."""
    if not supported:
        raise s.AclnnError(s.ACLNN_ERR_INNER_FIND_KERNEL, s.KIND_INNER,
                           f"{op_type} has no kernel for SoC family {family}")
    try:
        return importlib.import_module(module).run_kernel
    except (ImportError, AttributeError) as e:
        raise s.AclnnError(s.ACLNN_ERR_INNER_FIND_KERNEL, s.KIND_INNER, f"{op_type} kernel not found: {e}") from e


def run_tiling(op_type: str, tiling: Callable, *args, **kwargs):
    """`tiling(*args, **kwargs)`; its ValueError (every TilingError is one) becomes 561002."""
    try:
        return tiling(*args, **kwargs)
    except ValueError as e:
        raise s.AclnnError(s.ACLNN_ERR_INNER_TILING, s.KIND_TILING, f"{op_type} tiling failed: {e}") from e


def add_kernel_launch(executor: Executor, op_type: str, run_kernel: Callable, *, block_dim: int,
                      tiling_data: bytes, workspace_size: int, args: tuple[tuple[str, L0Tensor], ...],
                      options: Mapping | None = None, padding: Mapping[str, tuple[Padding, ...]] | None = None,
                      ) -> None:
    executor.add_step(KernelLaunchStep(op_type, run_kernel, block_dim, bytes(tiling_data), args,
                                       dict(options or {}), dict(padding or {})),
                      kernel_workspace=workspace_size)
