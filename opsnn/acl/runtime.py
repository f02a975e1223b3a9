"""The emulated device runtime: one object holding what a process's ACL runtime holds.

Everything mutable sits behind one lock; every call returns a status instead of raising, and a
refused call changes nothing (so misuse can never corrupt device memory). The emulated machine has
one device (id 0) whose memory is an `opsnn.ascendc.GlobalMemory` arena.

Each init (of any Runtime in the process) gets an arena at its own base address, so a pointer,
tensor or executor from an earlier init, or from another runtime, never names live memory."""
from __future__ import annotations

import itertools
import os
import threading
import warnings
from collections.abc import Callable

import numpy as np

from opsnn.ascendc.gm import BASE_ADDRESS, GlobalMemory, GMError, padded_size
from opsnn.platform import Platform, get_platform

from . import constants as c
from . import context as ctx_mod
from .args import is_enum, is_int
from .host_memory import HOST, HostMemoryError
from .recent_error import fail
from .stream import SelfSynchronize, Stream, TaskFault

DEVICE_COUNT = 1
DEFAULT_MEMORY_LIMIT = 8 * 1024**3  # bytes of device memory (padded) one runtime may hold
SOC_ENV = "OPSNN_SOC"
# Arena k of the process starts at BASE_ADDRESS + (k mod ARENA_SLOTS) * ARENA_STRIDE: 1 TiB of
# address space per init (addresses are never reused within an arena), below 2**63 in all.
ARENA_STRIDE = 2**40
ARENA_SLOTS = 2**16
_arenas = itertools.count()  # next() is atomic under the GIL: no two inits share a slot


class AclLeakWarning(UserWarning):
    """finalize found device memory or streams that were never released."""


class Runtime:
    def __init__(self, memory_limit: int = DEFAULT_MEMORY_LIMIT):
        self.memory_limit = int(memory_limit)
        self._lock = threading.RLock()
        self._initialized = False
        self._ever_initialized = False
        self._epoch = 0
        self.platform: Platform | None = None
        self.gm: GlobalMemory | None = None
        self._device_refs = 0
        self._default_stream: Stream | None = None
        self._streams: set[Stream] = set()  # created by create_stream, not yet destroyed
        self._used = 0  # padded bytes allocated
        self._notes: list[str] = []  # resources reclaimed by reset_device, for the leak report
        self.leak_report: list[str] = []  # what the last finalize found unreleased

    # -- init / finalize ----------------------------------------------------------------------

    def init(self, soc: str | None = None) -> int:
        """Start the runtime for an emulated `soc` (argument, else $OPSNN_SOC, else Ascend910B2)."""
        with self._lock:
            if self._initialized:
                return fail(c.ACL_ERROR_REPEAT_INITIALIZE, "acl.init: already initialized")
            if soc is not None and not isinstance(soc, str):
                return fail(c.ACL_ERROR_INVALID_PARAM, f"acl.init: the SoC must be a name (str), got {soc!r}")
            name = soc if soc is not None else os.environ.get(SOC_ENV) or None
            try:
                platform = get_platform(name)
            except ValueError as e:
                return fail(c.ACL_ERROR_INVALID_PARAM, f"acl.init: {e}")
            self.platform = platform
            self.gm = GlobalMemory(BASE_ADDRESS + next(_arenas) % ARENA_SLOTS * ARENA_STRIDE)
            self._epoch += 1
            self._initialized = self._ever_initialized = True
            self._device_refs, self._default_stream, self._streams = 0, None, set()
            self._used, self._notes, self.leak_report = 0, [], []
            return c.ACL_SUCCESS

    def finalize(self, *, warn_stacklevel: int = 2) -> int:
        """Stop the runtime. Unreleased memory and streams are reported (AclLeakWarning and
        `leak_report`), then reclaimed; the status is still success, as in ACL."""
        with self._lock:
            if not self._initialized:
                if self._ever_initialized:
                    return fail(c.ACL_ERROR_REPEAT_FINALIZE, "acl.finalize: already finalized")
                return fail(c.ACL_ERROR_UNINITIALIZE, "acl.finalize: acl.init was never called")
            leaks = list(self._notes)
            for alloc in self.gm.live():
                leaks.append(f"device memory {alloc.base:#x} ({alloc.size} bytes) was not freed")
            leaks += [f"{s!r} was not destroyed" for s in self._streams]
            if self._device_refs:
                leaks.append(f"device 0 was set {self._device_refs} more time(s) than reset")
            for s in self._streams | ({self._default_stream} if self._default_stream else set()):
                s.drop_pending()
                s.destroyed = True
            self.leak_report = leaks
            self._initialized = False
            self.gm, self._default_stream, self._streams, self._device_refs = None, None, set(), 0
            current = ctx_mod.current()
            if current is not None and current.runtime is self:
                ctx_mod.bind(None)
        if leaks:
            warnings.warn("acl.finalize: leaked resources:\n  " + "\n  ".join(leaks), AclLeakWarning,
                          stacklevel=warn_stacklevel)
        return c.ACL_SUCCESS

    # -- device / context ---------------------------------------------------------------------

    def set_device(self, device_id: int) -> int:
        with self._lock:
            if not self._initialized:
                return fail(c.ACL_ERROR_UNINITIALIZE, "set_device before acl.init")
            if not _is_device_id(device_id):
                return fail(c.ACL_ERROR_RT_INVALID_DEVICEID,
                            f"set_device: invalid device id {device_id!r} (this machine has {DEVICE_COUNT})")
            if self._device_refs == 0:
                self._default_stream = Stream(self, device_id, is_default=True)
            self._device_refs += 1
            ctx_mod.bind(ctx_mod.Context(self, device_id, self._epoch))
            return c.ACL_SUCCESS

    def reset_device(self, device_id: int) -> int:
        with self._lock:
            if not self._initialized:
                return fail(c.ACL_ERROR_UNINITIALIZE, "reset_device before acl.init")
            if not _is_device_id(device_id) or self._device_refs == 0:
                return fail(c.ACL_ERROR_RT_INVALID_DEVICEID, f"reset_device: device {device_id!r} is not set")
            self._device_refs -= 1
            current = ctx_mod.current()
            if current is not None and current.runtime is self:
                ctx_mod.bind(None)
            if self._device_refs == 0:
                # The last reset releases the device's streams, as ACL does; the ones the caller
                # forgot are noted for finalize's report.
                for s in self._streams:
                    self._notes.append(f"{s!r} was not destroyed before the last reset_device")
                    s.drop_pending()
                    s.destroyed = True
                self._streams = set()
                self._default_stream.drop_pending()
                self._default_stream.destroyed = True
                self._default_stream = None
            return c.ACL_SUCCESS

    def get_device_count(self) -> tuple[int, int]:
        with self._lock:
            if not self._initialized:
                return 0, fail(c.ACL_ERROR_UNINITIALIZE, "get_device_count before acl.init")
            return DEVICE_COUNT, c.ACL_SUCCESS

    @property
    def initialized(self) -> bool:
        return self._initialized

    @property
    def epoch(self) -> int:
        """The init generation: contexts (and what was made under them) of another one are dead."""
        return self._epoch

    def get_soc_name(self) -> str | None:
        with self._lock:
            return self.platform.name if self._initialized else None

    def _check_context(self, what: str) -> int:
        """ACL_SUCCESS when this thread may use this runtime's device, else the failure status."""
        if not self._initialized:
            return fail(c.ACL_ERROR_UNINITIALIZE, f"{what} before acl.init")
        current = ctx_mod.current()
        if current is None or current.runtime is not self or current.epoch != self._epoch:
            return fail(c.ACL_ERROR_RT_CONTEXT_NULL, f"{what}: no device set on this thread (call set_device)")
        return c.ACL_SUCCESS

    def is_current(self, context: ctx_mod.Context | None) -> bool:
        """Whether `context` is live on this runtime (initialized, same init generation). No lock:
        each read is atomic, and a locked answer would be as old by the time the caller reads it."""
        return (context is not None and context.runtime is self and self._initialized
                and context.epoch == self._epoch and self._device_refs > 0)

    # -- streams ------------------------------------------------------------------------------

    def create_stream(self) -> tuple[Stream | None, int]:
        with self._lock:
            if (ret := self._check_context("create_stream")) != c.ACL_SUCCESS:
                return None, ret
            stream = Stream(self, ctx_mod.current().device_id)
            self._streams.add(stream)
            return stream, c.ACL_SUCCESS

    def destroy_stream(self, stream) -> int:
        """Destroy a stream; tasks still queued on it are discarded (sync first, as ACL requires)."""
        with self._lock:
            if not self._initialized:
                return fail(c.ACL_ERROR_UNINITIALIZE, "destroy_stream before acl.init")
            if not _is_stream_of(stream, self._streams):
                return fail(c.ACL_ERROR_RT_INVALID_HANDLE,
                            f"destroy_stream: {stream!r} is not a live stream created by this runtime")
            self._streams.discard(stream)
            stream.drop_pending()
            stream.destroyed = True
            return c.ACL_SUCCESS

    def resolve_stream(self, stream) -> tuple[Stream | None, int]:
        """The live stream `stream` names (None or 0: the device's default stream)."""
        if stream is None:  # every launch and synchronize of most programs: no set to search, no lock
            default = self._default_stream
            if (ret := self._check_context("stream use")) != c.ACL_SUCCESS:
                return None, ret
            if default is not None and default is self._default_stream:  # not a finalize in between
                return default, c.ACL_SUCCESS
        with self._lock:
            if (ret := self._check_context("stream use")) != c.ACL_SUCCESS:
                return None, ret
            if stream is None or (is_int(stream) and stream == 0):
                return self._default_stream, c.ACL_SUCCESS
            if not _is_stream_of(stream, self._streams):
                return None, fail(c.ACL_ERROR_RT_INVALID_HANDLE,
                                  f"{stream!r} is not a live stream of this runtime (destroyed or foreign)")
            return stream, c.ACL_SUCCESS

    def launch(self, stream, name: str, run: Callable[[], None]) -> int:
        """Queue a device task on `stream`; it runs at the stream's synchronization."""
        target, ret = self.resolve_stream(stream)
        if ret != c.ACL_SUCCESS:
            return ret
        target.enqueue(name, run)
        return c.ACL_SUCCESS

    def synchronize_stream(self, stream) -> int:
        target, ret = self.resolve_stream(stream)
        if ret != c.ACL_SUCCESS:
            return ret
        try:
            target.drain()  # outside the runtime lock: other threads' streams run meanwhile
        except TaskFault as e:
            return fail(c.ACL_ERROR_RT_AICORE_EXCEPTION, f"synchronize_stream: {e}")
        except SelfSynchronize as e:
            return fail(c.ACL_ERROR_RT_PARAM_INVALID, f"synchronize_stream: {e}")
        return c.ACL_SUCCESS

    # -- memory -------------------------------------------------------------------------------

    def malloc(self, size: int, policy: int) -> tuple[int, int]:
        with self._lock:
            if (ret := self._check_context("malloc")) != c.ACL_SUCCESS:
                return 0, ret
            if not is_int(size) or size <= 0:
                return 0, fail(c.ACL_ERROR_INVALID_PARAM, f"malloc: size must be a positive integer, got {size!r}")
            if not is_enum(policy, c.MALLOC_POLICIES):
                return 0, fail(c.ACL_ERROR_INVALID_PARAM, f"malloc: unknown memory policy {policy!r}")
            padded = padded_size(int(size))
            if self._used + padded > self.memory_limit:
                return 0, fail(c.ACL_ERROR_RT_MEMORY_ALLOCATION,
                               f"malloc: {size} bytes do not fit ({self._used} of {self.memory_limit} in use)")
            ptr = self.gm.malloc(int(size))
            self._used += padded
            return ptr, c.ACL_SUCCESS

    def free(self, ptr: int) -> int:
        with self._lock:
            if (ret := self._check_context("free")) != c.ACL_SUCCESS:
                return ret
            if not is_int(ptr):
                return fail(c.ACL_ERROR_RT_PARAM_INVALID, f"free: {ptr!r} is not a device pointer")
            try:
                alloc = self.gm.allocation(int(ptr))
                self.gm.free(int(ptr))
            except GMError:
                return fail(c.ACL_ERROR_RT_PARAM_INVALID,
                            f"free: {int(ptr):#x} is not the start of a live allocation (double free?)")
            self._used -= alloc.padded
            return c.ACL_SUCCESS

    def device_bytes(self, ptr: int, nbytes: int) -> np.ndarray:
        """uint8 view of device bytes [ptr, ptr+nbytes), which must lie within one allocation's
        requested size (its 512-byte padding is not the caller's). Raises GMError otherwise."""
        alloc = self._allocation_holding(int(ptr), nbytes)
        off = int(ptr) - alloc.base
        return alloc.data[off:off + nbytes]

    def check_device_range(self, ptr: int, nbytes: int) -> None:
        """device_bytes' check without its view (phase 2 checks the workspace at every launch)."""
        self._allocation_holding(int(ptr), nbytes)

    def _allocation_holding(self, ptr: int, nbytes: int):
        gm = self.gm
        if gm is None:
            raise GMError("the runtime is not initialized")
        alloc = gm.find(ptr)
        if alloc is None or ptr + nbytes > alloc.base + alloc.size:
            raise GMError(f"device range [{ptr:#x}, +{nbytes}) is not inside one live allocation")
        return alloc

    def is_device_pointer(self, ptr: int) -> bool:
        gm = self.gm
        return gm is not None and is_int(ptr) and gm.find(int(ptr)) is not None

    def memcpy(self, dst: int, dst_max: int, src: int, count: int, kind: int) -> int:
        """Synchronous copy of `count` bytes. Both ranges are checked before a byte moves."""
        with self._lock:
            if (ret := self._check_context("memcpy")) != c.ACL_SUCCESS:
                return ret
        if not all(is_int(v) for v in (dst, dst_max, src, count)) or count < 0 or dst_max < 0:
            return fail(c.ACL_ERROR_INVALID_PARAM, "memcpy: pointers and sizes must be non-negative integers")
        if count > dst_max:
            return fail(c.ACL_ERROR_INVALID_PARAM, f"memcpy: count {count} exceeds dst_max {dst_max}")
        if is_enum(kind, (c.ACL_MEMCPY_DEFAULT,)):
            src_dev, dst_dev = self.is_device_pointer(src), self.is_device_pointer(dst)
        elif is_enum(kind, _KINDS):
            src_dev, dst_dev = _KINDS[kind]
        else:
            return fail(c.ACL_ERROR_INVALID_PARAM, f"memcpy: unknown copy kind {kind!r}")
        if count == 0:
            return c.ACL_SUCCESS
        try:
            source = self.device_bytes(src, count) if src_dev else HOST.bytes_at(src, count, writable=False)
        except (GMError, HostMemoryError) as e:
            return fail(c.ACL_ERROR_RT_PARAM_INVALID, f"memcpy source: {e}")
        try:
            target = self.device_bytes(dst, count) if dst_dev else HOST.bytes_at(dst, count, writable=True)
        except (GMError, HostMemoryError) as e:
            return fail(c.ACL_ERROR_RT_PARAM_INVALID, f"memcpy destination: {e}")
        target[...] = source  # numpy copies through a temporary when the ranges overlap
        return c.ACL_SUCCESS


_KINDS = {  # kind -> (source on device, destination on device)
    c.ACL_MEMCPY_HOST_TO_HOST: (False, False),
    c.ACL_MEMCPY_HOST_TO_DEVICE: (False, True),
    c.ACL_MEMCPY_DEVICE_TO_HOST: (True, False),
    c.ACL_MEMCPY_DEVICE_TO_DEVICE: (True, True),
    c.ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: (False, True),
    c.ACL_MEMCPY_INNER_DEVICE_TO_DEVICE: (True, True),
    c.ACL_MEMCPY_INTER_DEVICE_TO_DEVICE: (True, True),
}


def _is_stream_of(stream, streams: set[Stream]) -> bool:
    return isinstance(stream, Stream) and stream in streams


def _is_device_id(v) -> bool:
    return is_int(v) and 0 <= int(v) < DEVICE_COUNT
