"""The two-phase protocol every aclnn operator follows, operator-agnostic.

Phase 1, `get_workspace_size(op_name, plan)`: create the executor (bound to this thread's device
context: its runtime, init epoch and SoC), let the operator check its parameters and record its
steps, report the workspace the steps need. Phase 2, `run(...)`: no re-validation of the
parameters; check the executor, the arguments and the workspace, then queue the steps on the
stream. They run when the stream is synchronized (acl.rt.synchronize_stream), as device work does.

Phase-2 statuses, in the order checked (the C API leaves them to the framework; ours, in upstream's
vocabulary, which has no "not initialized" aclnn code):
  161001 ACLNN_ERR_PARAM_NULLPTR: executor is None
  161002 ACLNN_ERR_PARAM_INVALID: not an executor, or one made outside phase 1
  361001 ACLNN_ERR_RUNTIME_ERROR: the executor's runtime is not initialized (finalized): a
         runtime call failing, as upstream reports one; the message names ACL_ERROR_UNINITIALIZE
  561103 ACLNN_ERR_INNER_NULLPTR: the executor is dangling: planned before its runtime's last
         finalize (another init epoch), or already run (upstream frees it after its run). Only a
         call that launches consumes the executor: a refused one (any status here) leaves it
         usable, so the caller may fix the workspace or stream and call again.
  161002 workspace_size not an unsigned 64-bit integer, workspace neither None nor one
  361001 workspace_size below what phase 1 asked, a workspace pointer that is null or does not
         hold workspace_size bytes, no device set on this thread, a stream or current device of
         another runtime than the executor's, or a stream the runtime refuses."""
from __future__ import annotations

from collections.abc import Callable

from opsnn import acl
from opsnn.acl.args import UINT64_MAX as _UINT64_MAX
from opsnn.acl.args import is_uint64
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
    context, _ = acl.rt.get_context()
    executor = Executor(runtime.platform, op_name, context)
    try:
        plan(executor)
    except s.AclnnError as e:
        return 0, None, recent_error.record(e.status, e.kind, f"{op_name}: {e.message}")
    return executor.workspace_size, executor, s.ACLNN_SUCCESS


class _Refused(Exception):
    def __init__(self, status: int, kind: str, message: str):
        super().__init__(message)
        self.status, self.kind, self.message = status, kind, message


def run(op_name: str, workspace, workspace_size, executor, stream) -> int:
    recent_error.clear()
    try:
        owner = _owner(executor)
        needed = executor.workspace_size
        _check_arguments(workspace, workspace_size, needed)
        target = stream.runtime if isinstance(stream, acl.Stream) else acl.current_runtime()
        if target is None:
            raise _Refused(s.ACLNN_ERR_RUNTIME_ERROR, s.KIND_RUNTIME, "no device is set on this thread")
        if target is not owner:
            where = "the stream" if isinstance(stream, acl.Stream) else "this thread's device"
            raise _Refused(s.ACLNN_ERR_RUNTIME_ERROR, s.KIND_RUNTIME,
                           f"the executor was planned on another runtime than {where} belongs to; "
                           "an executor runs on the runtime of its phase 1")
        if not executor.steps:  # empty tensors: nothing to launch
            return s.ACLNN_SUCCESS if executor.consume() else recent_error.record(
                _ALREADY_RUN[0], _ALREADY_RUN[1], f"{op_name}: {_ALREADY_RUN[2]}")
        if needed:
            try:
                owner.check_device_range(workspace or 0, workspace_size)
            except GMError:
                raise _Refused(s.ACLNN_ERR_RUNTIME_ERROR, s.KIND_RUNTIME,
                               f"workspace {_show_ptr(workspace)} does not hold {workspace_size} bytes of device "
                               "memory of this runtime") from None
        ctx = RunContext(owner, executor.platform, workspace or 0, workspace_size,
                         executor.plan.kernel_workspace_offset)
        if not executor.consume():  # another thread ran it since the check above
            raise _Refused(*_ALREADY_RUN)
        ret = owner.launch(stream, op_name, lambda: executor.run(ctx))
        if ret != acl.ACL_SUCCESS:
            executor.release()  # not launched: the caller may try again
            raise _Refused(s.ACLNN_ERR_RUNTIME_ERROR, s.KIND_RUNTIME,
                           f"cannot launch on stream {stream!r}: {acl.get_recent_err_msg()} (acl status {ret})")
    except _Refused as e:
        return recent_error.record(e.status, e.kind, f"{op_name}: {e.message}")
    return s.ACLNN_SUCCESS


_ALREADY_RUN = (s.ACLNN_ERR_INNER_NULLPTR, s.KIND_INNER,
                "the executor has already been run; an executor runs once (call phase 1 again)")


def _owner(executor):
    """The live runtime `executor` belongs to, where it has not run yet (it runs once; the caller
    consumes it when it launches)."""
    if executor is None:
        raise _Refused(s.ACLNN_ERR_PARAM_NULLPTR, s.KIND_NULLPTR, "executor is nullptr")
    if not isinstance(executor, Executor):
        raise _Refused(s.ACLNN_ERR_PARAM_INVALID, s.KIND_INNER, f"not an executor: {type(executor).__name__}")
    if executor.context is None:
        raise _Refused(s.ACLNN_ERR_PARAM_INVALID, s.KIND_INNER, "the executor was not made by a phase-1 call")
    owner = executor.context.runtime
    if not owner.initialized:
        raise _Refused(s.ACLNN_ERR_RUNTIME_ERROR, s.KIND_RUNTIME,
                       f"the executor's runtime is not initialized (acl.finalize was called; "
                       f"acl status {acl.ACL_ERROR_UNINITIALIZE} ACL_ERROR_UNINITIALIZE)")
    if executor.context.epoch != owner.epoch:
        raise _Refused(s.ACLNN_ERR_INNER_NULLPTR, s.KIND_INNER,
                       "the executor was planned before its runtime's last acl.finalize and died with it "
                       "(call phase 1 again)")
    if executor.has_run:
        raise _Refused(*_ALREADY_RUN)
    return owner


def _check_arguments(workspace, workspace_size, needed: int) -> None:
    """What the C signature's types would guarantee, then the size phase 1 asked for."""
    plain = type(workspace_size) is int and 0 <= workspace_size <= _UINT64_MAX and (
        workspace is None or (type(workspace) is int and 0 <= workspace <= _UINT64_MAX))  # the C ABI's: quick
    if not plain and not is_uint64(workspace_size):
        raise _Refused(s.ACLNN_ERR_PARAM_INVALID, s.KIND_RUNTIME,
                       f"workspace_size must be an unsigned 64-bit integer, got {workspace_size!r}")
    if not plain and workspace is not None and not is_uint64(workspace):
        raise _Refused(s.ACLNN_ERR_PARAM_INVALID, s.KIND_RUNTIME,
                       f"workspace must be a device pointer (an unsigned 64-bit integer) or None, got {workspace!r}")
    if workspace_size < needed:
        raise _Refused(s.ACLNN_ERR_RUNTIME_ERROR, s.KIND_RUNTIME,
                       f"workspace_size {int(workspace_size)} is smaller than the {needed} bytes "
                       "phase 1 asked for")


def _show_ptr(ptr) -> str:
    return "nullptr" if not ptr else f"{int(ptr):#x}"
