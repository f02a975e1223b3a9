"""The two-phase protocol every aclnn operator follows, operator-agnostic.

Phase 1, `get_workspace_size(op_name, plan)`: create the executor (bound to the SoC of this
thread's device), let the operator check its parameters and record its steps, report the
workspace the steps need. Phase 2, `run(...)`: no re-validation of the parameters; check the
workspace and the executor's state, then queue the steps on the stream. They run when the
stream is synchronized (acl.rt.synchronize_stream), as device work does.

Phase-2 statuses (the C API leaves them to the framework; ours):
  161001 executor is None
  561103 ACLNN_ERR_INNER_NULLPTR: the executor was already run (upstream frees it after its
         run, so a second run uses a dangling executor). Any phase-2 call consumes it.
  361001 ACLNN_ERR_RUNTIME_ERROR: workspace_size below what phase 1 asked, a workspace pointer
         that is null or does not hold workspace_size bytes, or a stream the runtime refuses."""
from __future__ import annotations

import operator
from collections.abc import Callable

from opsnn import acl
from opsnn.ascendc.gm import GMError

from . import recent_error
from . import status as s
from .executor import Executor
from .run_context import RunContext


def get_workspace_size(op_name: str, plan: Callable[[Executor], None]) -> tuple[int, Executor | None, int]:
    """(workspace_size, executor, status) in pyACL order."""
    recent_error.clear()
    runtime = acl.current_runtime()
    if runtime is None:  # the executor is made for the current device's SoC: there must be one
        return 0, None, recent_error.record(
            s.ACLNN_ERR_INNER_CREATE_EXECUTOR, s.KIND_INNER,
            f"{op_name}: cannot create an executor: no device is set on this thread (acl.rt.set_device)")
    executor = Executor(runtime.platform, op_name)
    try:
        plan(executor)
    except s.AclnnError as e:
        return 0, None, recent_error.record(e.status, e.kind, f"{op_name}: {e.message}")
    return executor.workspace_size, executor, s.ACLNN_SUCCESS


def run(op_name: str, workspace, workspace_size, executor, stream) -> int:
    recent_error.clear()

    def refuse(status: int, kind: str, message: str) -> int:
        return recent_error.record(status, kind, f"{op_name}: {message}")

    if executor is None:
        return refuse(s.ACLNN_ERR_PARAM_NULLPTR, s.KIND_NULLPTR, "executor is nullptr")
    if not isinstance(executor, Executor):
        return refuse(s.ACLNN_ERR_PARAM_INVALID, s.KIND_INNER, f"not an executor: {type(executor).__name__}")
    if not executor.consume():
        return refuse(s.ACLNN_ERR_INNER_NULLPTR, s.KIND_INNER,
                      "the executor has already been run; an executor runs once (call phase 1 again)")
    needed = executor.workspace_size
    try:
        workspace_size = operator.index(workspace_size)
    except TypeError:
        workspace_size = -1
    if workspace_size < needed:
        return refuse(s.ACLNN_ERR_RUNTIME_ERROR, s.KIND_RUNTIME,
                      f"workspace_size {workspace_size!r} is smaller than the {needed} bytes phase 1 asked for")
    if not executor.steps:  # empty tensors: nothing to launch
        return s.ACLNN_SUCCESS
    runtime = stream.runtime if isinstance(stream, acl.Stream) else acl.current_runtime()
    if runtime is None:
        return refuse(s.ACLNN_ERR_RUNTIME_ERROR, s.KIND_RUNTIME, "no device is set on this thread")
    if needed:
        try:
            runtime.device_bytes(workspace or 0, workspace_size)
        except GMError:
            return refuse(s.ACLNN_ERR_RUNTIME_ERROR, s.KIND_RUNTIME,
                          f"workspace {workspace!r} does not hold {workspace_size} bytes of device memory")
    ctx = RunContext(runtime, executor.platform, workspace or 0, workspace_size, executor.plan.kernel_workspace_offset)
    ret = runtime.launch(stream, op_name, lambda: executor.run(ctx))
    if ret != acl.ACL_SUCCESS:
        return refuse(s.ACLNN_ERR_RUNTIME_ERROR, s.KIND_RUNTIME,
                      f"cannot launch on stream {stream!r}: {acl.get_recent_err_msg()} (acl status {ret})")
    return s.ACLNN_SUCCESS
