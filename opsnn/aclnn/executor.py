"""aclOpExecutor: the work phase 1 plans and phase 2 runs.

Phase 1 records steps (l0 ops) and reserves workspace for their intermediates; nothing touches
device memory. Phase 2 runs the steps once, in order, on a stream, with the intermediates placed
in the workspace the caller allocated. An executor is single-use, as upstream's is, and belongs
to the runtime and init epoch whose device phase 1 ran on (its `context`): the addresses it
recorded mean nothing anywhere else."""
from __future__ import annotations

import math
from typing import Protocol

from opsnn.acl.context import Context
from opsnn.acl.tensor import contiguous_strides
from opsnn.platform import Platform

from .l0_tensor import L0Tensor
from .run_context import RunContext
from .workspace import WorkspacePlan


class Step(Protocol):
    name: str

    def run(self, ctx: RunContext) -> None: ...


class Executor:
    def __init__(self, platform: Platform, op_name: str = "", context: Context | None = None):
        self.platform = platform
        self.op_name = op_name
        self.context = context  # the device context of phase 1; None: made outside phase 1, never runs
        self.plan = WorkspacePlan()
        self.steps: list[Step] = []
        self._unrun = {None}  # consume() pops it: set.pop is atomic, so a run needs no lock

    def new_tensor(self, dtype_name: str, dtype, shape: tuple[int, ...], label: str) -> L0Tensor:
        """A dense tensor in a fresh workspace slot."""
        shape = tuple(shape)
        slot = self.plan.reserve(math.prod(shape) * dtype.itemsize, label)
        return L0Tensor(dtype_name, dtype, shape, contiguous_strides(shape), 0, slot)

    def add_step(self, step: Step, kernel_workspace: int = 0) -> None:
        self.steps.append(step)
        if kernel_workspace:
            self.plan.need_kernel_workspace(kernel_workspace)

    @property
    def workspace_size(self) -> int:
        return self.plan.size

    def consume(self) -> bool:
        """Mark the executor used; False if it already was."""
        try:
            self._unrun.pop()
        except KeyError:
            return False
        return True

    def release(self) -> None:
        """Undo consume(): the launch it was for did not happen."""
        self._unrun.add(None)

    @property
    def has_run(self) -> bool:
        return not self._unrun

    def run(self, ctx: RunContext) -> None:
        for step in self.steps:
            step.run(ctx)

    def __repr__(self) -> str:
        return (f"<aclOpExecutor {self.op_name} steps={[s.name for s in self.steps]} "
                f"workspace={self.workspace_size}>")
