"""The C ABI's device modes: what an aclnn launch from C runs on.

- "fast" (the default): the launch computes with opsnn's numpy API (the fast engine: numpy and
  the C lane, which releases the GIL on large calls) under the SoC's semantics, writing into the
  output's device memory. The fuzz holds it bit for bit equal to the emulated kernel; the checks
  and statuses are the aclnn layer's, unchanged (phase 1 and phase 2 run as in the emulator mode).
- "emulator": the launch runs the emulated AscendC kernel (tiling, UB, queues, blocks), for
  kernel-level work. OPSNN_SANITIZE=1 always runs it, whatever the mode.

A CANN program using opsnn as its CPU device wants results at CPU speed, and gets the same bits
either way: hence fast by default; the emulator is one setting away (OPSNN_DEVICE_MODE=emulator).

Phase 1 in fast mode is remembered: a call with the same arguments (the same live handle objects,
scalars and attributes) on the same device context gets a fresh copy of the executor planned the
first time, not a second planning. Phase 1 is a pure function of those, so its status and
workspace are the same; a failing phase 1 is never remembered."""
from __future__ import annotations

import os
import threading

import numpy as np

import opsnn
from opsnn.acl import context as acl_context
from opsnn.acl.tensor import AclScalar, AclTensor
from opsnn.aclnn import signature as sig
from opsnn.aclnn.executor import Executor
from opsnn.engine import lanes

MODE_VARIABLE = "OPSNN_DEVICE_MODE"
MODES = ("fast", "emulator")
DEFAULT_MODE = "fast"
_MEMO_SIZE = 512  # remembered phase-1 plans (all APIs together); the oldest half goes when full


def mode_from_environment() -> str:
    """$OPSNN_DEVICE_MODE (fast | emulator; empty: the default); ValueError for anything else."""
    value = os.environ.get(MODE_VARIABLE, "").strip().lower()
    if value == "":
        return DEFAULT_MODE
    if value not in MODES:
        raise ValueError(f"{MODE_VARIABLE}={value!r}: use fast or emulator")
    return value


def _numpy_function(api: sig.AclnnApi, declared: dict[str, sig.AclnnApi]):
    """(numpy API function, in place) for `api`, or None. An in-place API with no numpy API of its
    own (aclnnInplaceX, one REF tensor) computes with aclnnX's, into the REF tensor."""
    if api.numpy_api:
        return getattr(opsnn, api.numpy_api, None), False
    if api.name.startswith("aclnnInplace") and [p.kind for p in api.params].count(sig.REF) == 1:
        base = declared.get("aclnn" + api.name.removeprefix("aclnnInplace"))
        if base is not None and base.numpy_api and len(base.inputs) == len(api.params):
            return getattr(opsnn, base.numpy_api, None), True
    return None


def device_array(runtime, tensor: AclTensor) -> np.ndarray:
    """A numpy view of `tensor` in its runtime's device memory (strides and offset in elements)."""
    dtype = tensor.numpy_dtype
    storage = runtime.device_bytes(tensor.data_ptr, tensor.storage_nbytes)
    return np.ndarray(tensor.view_dims, dtype, buffer=storage, offset=tensor.offset * dtype.itemsize,
                      strides=tuple(s * dtype.itemsize for s in tensor.strides))


class FastApi:
    """One API's fast launch and phase-1 memo."""

    def __init__(self, api: sig.AclnnApi, declared: dict[str, sig.AclnnApi]):
        self._api, self._declared = api, declared
        self.kinds = tuple(p.kind for p in api.params)
        self.out_index = next((i for i, k in enumerate(self.kinds) if k in (sig.OUT, sig.REF)), None)
        self.available: bool | None = None  # found by usable(): importing a numpy API costs time
        self.function, self.in_place = None, False

    def usable(self) -> bool:
        """Whether the API has a fast launch; its numpy API is found (imported) at the first ask."""
        if self.available is None:
            found = _numpy_function(self._api, self._declared)
            if found is not None and found[0] is not None:
                self.function, self.in_place = found
            self.available = self.function is not None and self.out_index is not None
        return self.available

    def launcher(self, executor: Executor, objects: tuple, memory_epoch):
        """What phase 2 runs instead of the kernel: the numpy API into the output's memory; the
        emulated kernel where the numpy API refuses (never a different answer, only a slower one).
        The device views are made once and kept while `memory_epoch()` (the C ABI's count of
        allocations and frees) and the runtime's memory are unchanged."""
        function, out_index, in_place = self.function, self.out_index, self.in_place
        semantics = executor.platform.family
        emulate = Executor.run.__get__(executor)
        views: list = [None, None, None, None]  # epoch, gm, args, (out, same dtype and shape as the result)

        def bind(runtime) -> None:
            args = self.numpy_args(runtime, objects)
            out = args[out_index] if in_place else device_array(runtime, objects[out_index])
            views[:] = [memory_epoch(), runtime.gm, args, out]

        def run(ctx) -> None:
            runtime = ctx.runtime
            if views[0] != memory_epoch() or views[1] is not runtime.gm:
                bind(runtime)
            args, out = views[2], views[3]
            try:
                result = function(*args, semantics=semantics, out=out)
            except (TypeError, ValueError):
                try:  # out's dtype is not the result's (a cast the kernel does on the way out)
                    result = function(*args, semantics=semantics)
                except (TypeError, ValueError):  # a case the numpy API does not take: the kernel's answer
                    emulate(ctx)
                    return
                out[...] = result

        return run

    def numpy_args(self, runtime, objects: tuple) -> list:
        """The numpy API's positional arguments for the C arguments `objects`: each tensor a view of
        its device memory, each scalar its value (the output left out)."""
        return [device_array(runtime, obj) if isinstance(obj, AclTensor) else
                obj.value if isinstance(obj, AclScalar) else obj
                for kind, obj in zip(self.kinds, objects, strict=True) if kind != sig.OUT]

    def c_plan(self, executor: Executor, objects: tuple):
        """(lane, a, b, out, n): what this launch is, where its numpy API answers it through its express
        entry with one Lane running flat over device memory (lanes.express: the memo's answer for the
        call's key; an operator's own entry: its lane_of; Lane.flat: contiguous operands of its dtype
        and one shape) -- then the C ABI may replay it without Python (Lane's _flat_run on these
        addresses, bit for bit that call). None otherwise."""
        spec = getattr(self.function, "spec", None)
        if self.in_place or spec is None or spec.express is None or len(spec.tensors) != 2:
            return None
        module = lanes.compiled()
        runtime = executor.context.runtime if executor.context is not None else None
        if module is None or runtime is None:
            return None
        args = self.numpy_args(runtime, objects)
        a, b, scalars = args[0], args[1], args[2:]
        if not isinstance(a, np.ndarray) or not isinstance(b, np.ndarray) or a.shape != b.shape:
            return None
        semantics = executor.platform.family
        if spec.express == "memo":  # lanes.express's memo, by its key
            key = lanes.memo_key(semantics, a, b, *scalars)
            lane = spec.memo.get(key) if key is not None else None
        else:  # an operator's own express entry says which Lane it answers with (lane_of), if it does
            lane_of = getattr(spec.express, "lane_of", None)
            lane = lane_of(a, b, *scalars, semantics) if lane_of is not None else None
        out = device_array(runtime, objects[self.out_index])
        if type(lane) is not module.Lane or not lane.flat(a, b, out):
            return None
        return lane, a.ctypes.data, b.ctypes.data, out.ctypes.data, a.size


class Memo:
    """Phase-1 results by argument identity (see the module's doc). Thread-safe."""

    def __init__(self):
        self._lock = threading.Lock()
        self._plans: dict[tuple, tuple] = {}

    def get(self, key: tuple, args: tuple, live: dict) -> Executor | None:
        """A fresh executor copied from the plan remembered for `key`, if the C arguments `args`
        still name (`live`: handle -> live object) the same live tensors and scalars and this
        thread is on the same device context; else None (the caller plans again, and its checks
        decide: a handle no longer live is never answered from here)."""
        entry = self._plans.get(key)
        if entry is None:
            return None
        plan, kept, fields = entry
        context = plan.context
        if context is not acl_context.current() or not context.runtime.initialized \
                or context.epoch != context.runtime.epoch:
            return None
        for i, was in kept:  # plain values: the key holds them
            if live.get(args[i]) is not was or was.destroyed:
                return None
        fresh = object.__new__(Executor)
        fresh.__dict__.update(fields)
        fresh._unrun = {None}  # its own run
        return fresh

    def put(self, key: tuple, executor: Executor, objects: tuple) -> None:
        if not all(isinstance(o, (AclTensor, AclScalar, int, float, bool, tuple, list, type(None)))
                   for o in objects):
            return  # an array handle or a dangling one: plan each time
        kept = tuple((i, o) for i, o in enumerate(objects) if isinstance(o, (AclTensor, AclScalar)))
        fields = dict(executor.__dict__)  # as planned; each copy gets its own run (get)
        with self._lock:
            if len(self._plans) >= _MEMO_SIZE:
                for old in list(self._plans)[:_MEMO_SIZE // 2]:
                    del self._plans[old]
            self._plans[key] = (executor, kept, fields)

    def clear(self) -> None:
        with self._lock:
            self._plans.clear()
