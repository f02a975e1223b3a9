"""The Python side of the C ABI: what src/capi.cpp calls, one function per C entry point.

Each function calls the public Python layer (opsnn.acl, opsnn.aclnn, the operators' op_api) and
hands back its status unchanged, so a C program gets exactly the codes a Python caller gets. A
failure's message is kept per thread for the shim to take (`take_message`), which stacks it for
aclGetRecentErrMsg. C handles (aclTensor*, aclrtStream, aclOpExecutor*, ...) are integers naming
Python objects in `HANDLES`; nothing C holds is ever dereferenced as a pointer."""
from __future__ import annotations

import dataclasses
import itertools
import os
import re
import sys
import threading
import warnings
from collections import OrderedDict, deque
from dataclasses import dataclass

import numpy as np

from opsnn import acl, aclnn, registry
from opsnn.acl import context as acl_context
from opsnn.acl.constants import DATA_TYPES
from opsnn.aclnn import checks
from opsnn.aclnn import signature as sig
from opsnn.aclnn.executor import Executor
from opsnn.aclnn.steps import KernelLaunchStep

from . import device_mode

SANITIZE_ENV = "OPSNN_SANITIZE"  # read at aclInit: 1 runs every kernel under the sanitizer
RETIRED_KEPT = 4096  # destroyed/run handles remembered, so reuse is a status, not a crash
_HANDLE_BASE = 0x0AC1_0000_0000  # handles look like addresses; 0 stays NULL


@dataclass(eq=False)
class Array:
    """aclIntArray / aclFloatArray / aclBoolArray / aclTensorList / aclScalarList."""
    kind: str  # "int" | "float" | "bool" | "tensor" | "scalar"
    values: tuple
    destroyed: bool = False


@dataclass(frozen=True)
class Dangling:
    """What an unknown non-null handle resolves to: the Python layer refuses it (161002)."""
    handle: int


class Handles:
    def __init__(self):
        self._lock = threading.RLock()  # replace's check-then-store (a finalizer may run inside it)
        self.live: dict[int, object] = {}  # read without the lock (dict.get is atomic)
        self._retired: dict[int, object] = {}  # the last RETIRED_KEPT, oldest first in _retired_order
        self._retired_order: deque[int] = deque()  # (an OrderedDict's popitem cost ~0.5 us a launch)
        self._next = itertools.count(1)

    def add(self, obj) -> int:
        handle = _HANDLE_BASE + 16 * next(self._next)  # no lock: next() and a dict store are atomic
        self.live[handle] = obj
        return handle

    def get(self, handle: int):
        if handle == 0:
            return None
        obj = self.live.get(handle)
        if obj is None:
            obj = self._retired.get(handle)
        return Dangling(handle) if obj is None else obj

    def replace(self, handle: int, obj) -> bool:
        with self._lock:
            if handle not in self.live:
                return False
            self.live[handle] = obj
            return True

    def retire(self, handle: int) -> None:
        """The handle is kept among the retired (get still answers it, a second run is a status).
        No lock: each step is one atomic operation, and a race only trims one more or one less."""
        obj = self.live.pop(handle, None)
        if obj is None:
            return
        self._retired[handle] = obj
        order = self._retired_order
        order.append(handle)
        if len(order) > RETIRED_KEPT:
            try:
                self._retired.pop(order.popleft(), None)
            except IndexError:  # another thread trimmed it meanwhile
                pass


HANDLES = Handles()
_local = threading.local()
_sanitize = False
_mode = device_mode.DEFAULT_MODE  # read at aclInit (OPSNN_DEVICE_MODE); the emulator under the sanitizer
MEMO = device_mode.Memo()
_MEMO_SIZE = 512  # phase-1 arguments remembered as having no C plan (the C library keeps as many plans)
_C_PLAN_TRIES = 3  # calls without a C plan before its arguments are not asked again (the first run teaches)
_DESTROYED: OrderedDict[int, None] = OrderedDict()  # executors aclDestroyAclOpExecutor freed (the last 4096)
_PENDING: dict = {}  # stream handle (0: default) -> [(lo, hi, writes, api)]: what its queued launches touch
_memory = [0]  # allocations and frees through the C ABI: the fast mode's device views are kept while unchanged
_pending_lock = threading.Lock()

# Python's words in the runtime's messages, as a C programmer reads them
_C_WORDS = (("any live array from numpy_to_ptr", "any host memory the program passed"),
            ("None is not", "NULL is not"), ("(double free?)", "(freed already, or never allocated?)"))


def _fail(message: str) -> None:
    for python, c in _C_WORDS:
        message = message.replace(python, c)
    _local.message = message


def _after_fork_in_child() -> None:
    """The child of a fork() (the C library's handlers made the interpreter ready): the locks
    another thread may have held at the fork are made anew; that thread does not exist here."""
    HANDLES._lock = threading.RLock()
    globals()["_pending_lock"] = threading.Lock()
    MEMO._lock = threading.Lock()
    runtime = acl.rt.DEFAULT_RUNTIME
    runtime._lock = threading.RLock()
    if runtime.gm is not None:
        runtime.gm._lock = threading.RLock()
    for stream in (*runtime._streams, runtime._default_stream):
        if stream is not None:
            stream._run_lock, stream._draining = threading.Lock(), 0


os.register_at_fork(after_in_child=_after_fork_in_child)


def take_message() -> str:
    message, _local.message = getattr(_local, "message", ""), ""
    return message


def _acl(status: int) -> int:
    """A runtime status: on failure keep the runtime's message for aclGetRecentErrMsg."""
    if status:
        _fail(acl.get_recent_err_msg())
    return status


def _aclnn(status: int) -> int:
    if status:
        _fail(aclnn.get_recent_err_msg())
    return status


# ---- runtime -------------------------------------------------------------------------------

def init() -> int:
    global _sanitize, _mode
    flag = os.environ.get(SANITIZE_ENV, "").strip().lower()
    if flag not in ("", "0", "1", "off", "on", "false", "true"):
        _fail(f"aclInit: {SANITIZE_ENV}={flag!r}: use 1 or 0")
        return acl.ACL_ERROR_INVALID_PARAM
    try:
        mode = device_mode.mode_from_environment()
    except ValueError as e:
        _fail(f"aclInit: {e}")
        return acl.ACL_ERROR_INVALID_PARAM
    status = _acl(acl.init())
    if status == acl.ACL_SUCCESS:
        _sanitize = flag in ("1", "on", "true")
        _mode = "emulator" if _sanitize else mode
        MEMO.clear()
        _log_info(f"aclInit: SoC {acl.rt.get_soc_name()}, device mode {_mode} ({_mode_reason(mode)})")
    return status


def device_mode_name() -> str:
    """What an aclnn launch runs on now: "fast" or "emulator" (OPSNN_SANITIZE=1 forces it)."""
    return _mode


def device_mode_query() -> str | None:
    """opsnnGetDeviceMode: the mode of the last aclInit; None (and why) before one."""
    if not acl.rt.DEFAULT_RUNTIME.initialized:
        _fail("opsnnGetDeviceMode: aclInit has not been called")
        return None
    return _mode


def _mode_reason(asked: str) -> str:
    if _sanitize:
        return f"{SANITIZE_ENV}=1 runs the emulated AscendC kernels"
    if asked == "emulator":
        return f"{device_mode.MODE_VARIABLE}=emulator: the emulated AscendC kernels"
    return f"opsnn's fast engine, bit for bit the kernels'; {device_mode.MODE_VARIABLE}=emulator runs the kernels"


# CANN's switches for its logs on the screen: ASCEND_SLOG_PRINT_TO_STDOUT=1, and ASCEND_GLOBAL_LOG_LEVEL
# 0 (debug) or 1 (info) for more than errors. A CANN user looks there for what the runtime chose.
LOG_TO_STDOUT_ENV, LOG_LEVEL_ENV = "ASCEND_SLOG_PRINT_TO_STDOUT", "ASCEND_GLOBAL_LOG_LEVEL"


def _log_info(message: str) -> None:
    """An INFO line on stdout, in the shape of CANN's log lines, when those switches ask for one."""
    level = os.environ.get(LOG_LEVEL_ENV, "").strip()
    if os.environ.get(LOG_TO_STDOUT_ENV, "").strip() != "1" or level not in ("0", "1"):
        return
    import datetime
    try:
        program = os.path.basename(os.readlink("/proc/self/exe"))
    except OSError:
        program = "?"
    now = datetime.datetime.now()
    stamp = now.strftime("%Y-%m-%d-%H:%M:%S") + f".{now.microsecond // 1000:03d}.{now.microsecond % 1000:03d}"
    print(f"[INFO] OPSNN({os.getpid()},{program}):{stamp} {message}", flush=True)


def finalize() -> int:
    """acl.finalize; its leak report (a Python warning naming this file's line) goes to stderr as
    the C program's own lines: `opsnn: aclFinalize: ...`."""
    return _warned_as_stderr("aclFinalize", lambda: _acl(acl.finalize()))


def set_device(device_id: int) -> int:
    return _acl(acl.rt.set_device(device_id))


def reset_device(device_id: int) -> int:
    _memory[0] += 1  # the device's memory is reclaimed
    return _acl(acl.rt.reset_device(device_id))


def device_count() -> tuple[int, int]:
    count, status = acl.rt.get_device_count()
    return _acl(status), count


def soc_name() -> str | None:
    name = acl.rt.get_soc_name()
    if name is None:
        _fail("aclrtGetSocName: aclInit has not been called")
    return name


def create_stream() -> tuple[int, int]:
    stream, status = acl.rt.create_stream()
    if _acl(status):
        return status, 0
    return status, HANDLES.add(stream)


def _stream(handle: int):
    return None if handle == 0 else HANDLES.get(handle)


def destroy_stream(handle: int) -> int:
    """The stream's queued work runs first (a device finishes it; it is never dropped), then the
    stream goes. A fault of that work is the status, after the stream is destroyed."""
    stream = _stream(handle)
    ran = acl.ACL_SUCCESS
    if isinstance(stream, acl.Stream) and not stream.destroyed:
        ran = synchronize_stream(handle)
        message = take_message()
    status = _acl(acl.rt.destroy_stream(stream))
    if status == acl.ACL_SUCCESS:
        HANDLES.retire(handle)
        if ran:
            _fail(f"aclrtDestroyStream: the stream's queued work faulted: {message}")
            return ran
    return status


def synchronize_stream(handle: int) -> int:
    stream = _stream(handle)
    status = _acl(acl.rt.synchronize_stream(stream))
    if status and _sanitize:  # the sanitizer's findings, as `opsnn sanitize` prints them
        print(f"opsnn sanitizer: {acl.get_recent_err_msg()}", file=sys.stderr, flush=True)
    if _PENDING:
        with _pending_lock:
            _PENDING.pop(handle, None)
    return status


def _resolved(handle: int):
    """The live Stream a C handle names (0: this thread's device's default stream), or None."""
    runtime = acl.current_runtime()
    if runtime is None:
        return None
    target, status = runtime.resolve_stream(_stream(handle))
    return target if status == acl.ACL_SUCCESS else None


def _races(lo: int, hi: int, writing: bool) -> list:
    """The streams whose queued launches touch device bytes [lo, hi): ones that write there (and,
    when the copy writes, ones that read there too)."""
    found = []
    with _pending_lock:
        for handle, ranges in list(_PENDING.items()):
            stream = _resolved(handle)
            if stream is None or not stream._queue:  # drained meanwhile (synchronized elsewhere)
                del _PENDING[handle]
                continue
            names = [api for a, b, writes, api in ranges if a < hi and lo < b and (writes or writing)]
            if names:
                found.append((handle, stream, names))
    return found


def _copy_races(dst: int, src: int, count: int, kind: int) -> int:
    """A copy touching device memory that queued work writes (or reads, for a copy into it) is a
    race: aclrtMemcpy is synchronous to the host, not ordered after any stream's work. Under the
    sanitizer a finding (the copy refused: 507015, the finding on stderr); otherwise a warning
    (stderr and aclGetRecentErrMsg) and the queued work runs first, so the copy never reads
    stale data (what a device that had finished the work would give)."""
    if not _PENDING or count <= 0:
        return acl.ACL_SUCCESS
    runtime = acl.current_runtime()
    if runtime is None:
        return acl.ACL_SUCCESS
    races = []
    for ptr, writing in ((src, False), (dst, True)):
        if runtime.is_device_pointer(ptr):
            races += _races(int(ptr), int(ptr) + count, writing)
    if not races:
        return acl.ACL_SUCCESS
    which = "; ".join(f"{', '.join(sorted(set(names)))} on {'the default stream' if stream.is_default else 'a stream'}"
                      for _, stream, names in races)
    what = (f"aclrtMemcpy (kind {kind}) of {count} bytes races work still queued ({which}): "
            "aclrtSynchronizeStream before copying its data")
    if _sanitize:
        print(f"opsnn sanitizer: {what}", file=sys.stderr, flush=True)
        _fail(f"opsnn sanitizer: {what}")
        return acl.ACL_ERROR_RT_AICORE_EXCEPTION
    print(f"opsnn: warning: {what}; the queued work ran first", file=sys.stderr, flush=True)
    for handle, stream, _ in races:
        runtime.synchronize_stream(stream)  # a fault stays the stream's: its synchronize reports it
        with _pending_lock:
            _PENDING.pop(handle, None)
    _fail(f"opsnn: warning: {what}; the queued work ran first")  # aclGetRecentErrMsg: the copy succeeded
    return acl.ACL_SUCCESS


def malloc(size: int, policy: int) -> tuple[int, int]:
    _memory[0] += 1
    ptr, status = acl.rt.malloc(size, policy)
    return _acl(status), ptr


def free(ptr: int) -> int:
    _memory[0] += 1
    return _acl(acl.rt.free(ptr))



_HOST_SIDES = {  # kind -> (source may be host, destination may be host)
    acl.ACL_MEMCPY_HOST_TO_HOST: (True, True), acl.ACL_MEMCPY_HOST_TO_DEVICE: (True, False),
    acl.ACL_MEMCPY_DEVICE_TO_HOST: (False, True), acl.ACL_MEMCPY_DEFAULT: (True, True),
}


def memcpy(dst: int, dst_max: int, src: int, count: int, kind: int, dst_view, src_view) -> int:
    """The runtime's memcpy, with the C program's host ranges made known to it for this call. A
    copy racing queued work: see _copy_races (its warning is the message of a successful copy)."""
    keep = []  # host arrays registered for the call (the registry holds them weakly)
    src_host, dst_host = _HOST_SIDES.get(kind, (False, False))
    runtime = acl.rt.DEFAULT_RUNTIME
    for may_be_host, addr, view in ((src_host, src, src_view), (dst_host, dst, dst_view)):
        if may_be_host and view is not None and not runtime.is_device_pointer(addr):
            array = np.frombuffer(view, dtype=np.uint8)
            acl.util.numpy_to_ptr(array)
            keep.append(array)
    if count <= dst_max and (status := _copy_races(dst, src, count, kind)):
        return status
    return _acl(acl.rt.memcpy(dst, dst_max, src, count, kind))


def memset(ptr: int, max_count: int, value: int, count: int) -> int:
    """aclrtMemset: `count` bytes of `value` (its low byte) copied onto the device, so the runtime
    checks the range (count <= max_count, inside one allocation) as for any copy."""
    if count > max_count:
        return _acl(acl.rt.memcpy(ptr, max_count, 0, count, acl.ACL_MEMCPY_HOST_TO_DEVICE))
    fill = np.full(count, value & 0xFF, dtype=np.uint8)
    return _acl(acl.rt.memcpy(ptr, max_count, acl.util.numpy_to_ptr(fill) if count else 0, count,
                              acl.ACL_MEMCPY_HOST_TO_DEVICE))


# ---- meta ----------------------------------------------------------------------------------

def _warned_as_stderr(what: str, call):
    """call(); a Python warning it gives goes to stderr as the C program's own line (`opsnn: what: ...`)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    for w in caught:
        print(f"opsnn: {what}: {str(w.message).removeprefix(what + ': ')}", file=sys.stderr)
    if caught:
        sys.stderr.flush()
    return result


def create_tensor(dims, data_type, strides, offset, fmt, storage, ptr) -> int:
    tensor = _warned_as_stderr("aclCreateTensor",
                               lambda: acl.create_tensor(dims, data_type, strides, offset, fmt, storage, ptr))
    if tensor is None:
        why = acl.get_recent_err_msg().removeprefix("create_tensor: ")
        _fail(f"aclCreateTensor: {why} (view {list(dims)} strides {strides} offset {offset} dtype {data_type} "
              f"format {fmt} on storage {list(storage)})")
        return 0
    return HANDLES.add(tensor)


def init_tensor(handle: int, description: tuple) -> int:
    tensor = _warned_as_stderr("aclInitTensor", lambda: acl.create_tensor(*description))
    if tensor is None:
        _fail(f"aclInitTensor: refused description {description}")
        return aclnn.ACLNN_ERR_PARAM_INVALID
    if not isinstance(HANDLES.get(handle), acl.AclTensor) or not HANDLES.replace(handle, tensor):
        _fail("aclInitTensor: not a live tensor")
        return aclnn.ACLNN_ERR_PARAM_NULLPTR
    return aclnn.ACLNN_SUCCESS


def create_scalar(raw: bytes, data_type: int) -> int:
    known = DATA_TYPES.get(data_type)
    if known is None or len(raw) != known[1].itemsize:
        _fail(f"aclCreateScalar: data type {data_type} is not supported")
        return 0
    value = bool(raw[0]) if known[1] == np.bool_ else np.frombuffer(raw, dtype=known[1])[0]
    scalar = acl.create_scalar(value, data_type)
    if scalar is None:
        _fail(f"aclCreateScalar: {value!r} is not a {known[0]}")
        return 0
    return HANDLES.add(scalar)


def create_array(kind: str, values: tuple) -> int:
    if kind in ("tensor", "scalar"):
        values = tuple(HANDLES.get(h) for h in values)
    return HANDLES.add(Array(kind, values))


def destroy(kind: str, handle: int) -> int:
    obj = HANDLES.get(handle)
    if kind == "tensor" and not isinstance(obj, Array):
        status = acl.destroy_tensor(obj)
    elif kind == "scalar" and not isinstance(obj, Array):
        status = acl.destroy_scalar(obj)
    elif isinstance(obj, Array) and obj.kind == kind and not obj.destroyed:
        obj.destroyed, status = True, acl.ACL_SUCCESS
    else:
        status = acl.ACL_ERROR_INVALID_PARAM
    if status:
        _fail(f"destroy: {handle:#x} is not a live {kind} handle (destroyed twice?)")
    else:
        HANDLES.retire(handle)
    return status


_TENSOR_FIELDS = {"view_dims": "view_dims", "strides": "strides", "storage_dims": "storage_dims",
                  "offset": "offset", "format": "format", "data_type": "data_type"}


def tensor_info(handle: int, what: str):
    tensor = HANDLES.get(handle)
    try:
        checks.check_not_null(tensor, "tensor")
    except aclnn.AclnnError as e:
        _fail(e.message)
        return e.status, None
    return aclnn.ACLNN_SUCCESS, getattr(tensor, _TENSOR_FIELDS[what])


def destroy_executor(handle: int) -> int:
    """The executor is gone: a later launch of it is refused (561103), as upstream's freed one."""
    if isinstance(HANDLES.get(handle), Executor):
        _DESTROYED[handle] = None
        while len(_DESTROYED) > RETIRED_KEPT:
            _DESTROYED.popitem(last=False)
    HANDLES.retire(handle)
    return aclnn.ACLNN_SUCCESS


# ---- the operators -------------------------------------------------------------------------

def _converter(param: sig.Param):
    if param.kind == sig.ATTR:
        return sig.ATTR_TYPES[param.c_type][1]
    if param.kind in (sig.INT_ARRAY, sig.TENSOR_LIST):
        def unwrap(handle):
            obj = HANDLES.get(handle)
            return list(obj.values) if isinstance(obj, Array) and param.kind == sig.TENSOR_LIST else \
                obj.values if isinstance(obj, Array) else obj
        return unwrap
    return HANDLES.get


def _with_sanitizer(executor) -> None:
    """Each kernel launch of the executor runs under the sanitizer (OPSNN_SANITIZE=1)."""
    for i, step in enumerate(executor.steps):
        if isinstance(step, KernelLaunchStep):
            executor.steps[i] = dataclasses.replace(step, options={**step.options, "sanitize": True})


def _memory_epoch() -> int:
    return _memory[0]


def _touched(api: sig.AclnnApi, objects: tuple) -> list:
    """(lo, hi, writes, api) of each tensor's storage a launch reads or writes."""
    out = []
    for p, obj in zip(api.params, objects, strict=True):
        tensors = obj if isinstance(obj, list) else [obj]
        for t in tensors:
            if isinstance(t, acl.AclTensor) and t.data_ptr:
                out.append((t.data_ptr, t.data_ptr + t.storage_nbytes, p.kind in (sig.OUT, sig.REF), api.name))
    return out


def _api_pair(index: int, api: sig.AclnnApi, declared: dict):
    first, second = registry.aclnn_function(api.python_phase1), registry.aclnn_function(api.python)
    if first is None or second is None:
        return None
    converters = tuple(_converter(p) for p in api.params)
    fast = device_mode.FastApi(api, declared)

    declined: dict = {}  # phase-1 arguments -> how often they had no C plan (asked a few times at most)

    def c_plan(args: tuple, executor, objects: tuple | None):
        """The C library may remember this call and replay its launch without Python (see
        device_mode.FastApi.c_plan): asked until a few calls of these arguments had none (the
        express entry learns on the first run), and again whenever the library forgot its plan."""
        if declined.get(args, 0) >= _C_PLAN_TRIES:
            return None
        if objects is None:
            objects = tuple(c(a) for c, a in zip(converters, args, strict=True))
        plan = fast.c_plan(executor, objects)
        if plan is None:
            if len(declined) >= _MEMO_SIZE:
                declined.clear()
            declined[args] = declined.get(args, 0) + 1
        return plan

    def phase1(args: tuple) -> tuple:
        quick = _mode == "fast" and fast.usable()
        if quick and (executor := MEMO.get((index, args), args, HANDLES.live)) is not None:
            # its plan's capi_touched
            return aclnn.ACLNN_SUCCESS, executor.workspace_size, HANDLES.add(executor), c_plan(args, executor, None)
        objects = tuple(c(a) for c, a in zip(converters, args, strict=True))
        size, executor, status = first(*objects)
        if _aclnn(status):
            return status, 0, 0
        executor.capi_touched = _touched(api, objects)
        if _sanitize:
            _with_sanitizer(executor)
        elif quick:
            executor.run = fast.launcher(executor, objects, _memory_epoch)
            MEMO.put((index, args), executor, objects)
            return status, size, HANDLES.add(executor), c_plan(args, executor, objects)
        return status, size, HANDLES.add(executor)

    def phase2(workspace: int, size: int, handle: int, stream: int) -> int:
        if handle in _DESTROYED:
            _fail(f"{api.name}: the executor was destroyed (aclDestroyAclOpExecutor); call "
                  f"{api.phase1_name} again")
            return aclnn.ACLNN_ERR_INNER_NULLPTR
        executor, target = HANDLES.get(handle), _stream(stream)
        status = _aclnn(second(workspace, size, executor, target))
        if status == aclnn.ACLNN_SUCCESS:  # an executor runs once: upstream frees it after its run;
            HANDLES.retire(handle)         # a refused call leaves it to be called again
            if getattr(executor, "capi_touched", None):
                with _pending_lock:
                    _PENDING.setdefault(stream, []).extend(executor.capi_touched)
        return status

    return phase1, phase2


def with_device(device_id: int, function, *args):
    """function(*args) on this thread as if `device_id` were its current device (the C library's
    replay of a remembered phase 1 or launch, on whichever thread settles it), the thread's own
    context restored after; on its own context where that is the device's already."""
    saved = acl_context.current()
    runtime = acl.rt.DEFAULT_RUNTIME
    if saved is not None and saved.device_id == device_id and runtime.is_current(saved):
        return function(*args)
    acl_context.bind(acl_context.Context(runtime, device_id, runtime.epoch))
    try:
        return function(*args)
    finally:
        acl_context.bind(saved)


def ran(handle: int) -> None:
    """The executor behind `handle` was launched by the C library itself: it has run (a second
    launch is then refused as any executor's)."""
    executor = HANDLES.get(handle)
    if isinstance(executor, Executor) and executor.consume():
        HANDLES.retire(handle)


def _declaration(name: str) -> tuple[sig.AclnnApi | None, dict]:
    """The declaration of the API `name` and its neighbours by name. The operator that registers
    its Python function by upstream's naming (aclnnFooBar: foo_bar) is asked first, so a call
    imports its own operator's op_api only; every operator's declarations where that fails."""
    from opsnn.aclnn.declarations import all_apis, operator_apis

    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", name.removeprefix("aclnn")).lower()
    op = registry.find(lambda op: snake in op.aclnn_functions)
    if op is not None:
        declared = {a.name: a for a in operator_apis(op)}
        if name in declared:
            return declared[name], declared
    declared = {a.name: a for a in all_apis()}
    return declared.get(name), declared


def _lazy_pair(index: int, name: str, table: list) -> tuple:
    """(phase1, phase2) of the API `name`, found at its first call: importing every operator's
    op_api when the library starts cost the first result ~45 ms. Once found, the API's own pair
    takes this one's place in `table` (the list the C library reads at every call), so later
    calls go there without this layer. An API no operator declares any more fails each call
    with 561000."""
    pair: list = []

    def resolve() -> list:
        if not pair:
            api, declared = _declaration(name)
            found = _api_pair(index, api, declared) if api is not None else None
            pair[:] = found if found is not None else (None, None)
            if found is not None:
                table[index] = tuple(found)
        return pair

    def phase1(args: tuple) -> tuple[int, int, int]:
        first = (pair or resolve())[0]
        if first is None:
            _fail(f"opsnn: {name} is declared but no operator provides it")
            return aclnn.ACLNN_ERR_INNER, 0, 0
        return first(args)

    def phase2(workspace: int, size: int, handle: int, stream: int) -> int:
        second = (pair or resolve())[1]
        if second is None:
            _fail(f"opsnn: {name} is declared but no operator provides it")
            return aclnn.ACLNN_ERR_INNER
        return second(workspace, size, handle, stream)

    return phase1, phase2


def apis(names: tuple[str, ...]) -> list:
    """(phase1, phase2) for each API name the library was generated with, each resolved at its
    first call (_lazy_pair, which then puts the API's own pair in its place in this list); one no
    operator declares any more fails with 561000."""
    table: list = [None] * len(names)
    for i, n in enumerate(names):
        table[i] = _lazy_pair(i, n, table)
    return table
