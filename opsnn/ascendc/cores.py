"""How a launch runs its cores so that SyncAll holds: one core at a time, each on a thread of its
own once it has to wait.

A core runs until it ends or calls SyncAll. Blocked at the barrier, it hands the run on: to the
next core not started yet (on another thread: a core's frames, Python and C++ alike, stay on the
stack of the thread that runs it), or, once every core has arrived, back to the waiting cores in
core order, each running until its next barrier or its end. A core that ends takes the next
unstarted core on its own thread, so a kernel that never calls SyncAll runs its cores one after
another on the launching thread, as if there were no scheduler at all.

Only one core ever runs (the others wait on a lock, the GIL free): the order, and so every finding,
is the same from run to run, and the per-instruction Python pays for no contention. The
emulator's cores are not parallel; the device's are, which is why a SyncAll that can never
complete -- a core ended while others wait -- is a finding (sync_all_missing_core) rather than
the hang it would be on the device: the waiting cores are stopped instead.

CrossCoreSetFlag / CrossCoreWaitFlag (mode 0: every vector core of the launch) are the same
scheduling with a counter per flag id: a core's k-th wait on a flag returns once every core has
set that flag k times. A wait that can never return (every other core ended or waits) is the
finding cross_core_flag_never_set, and the waiting cores are stopped.

Threads are kept in a pool across launches (a thread is ~100 us to start, a hand-over ~10 us)."""
from __future__ import annotations

import contextvars
import threading
from collections import deque
from collections.abc import Callable

from .core import CoreContext
from .errors import CoreAborted, EmulatorError

_STACK_BYTES = 64 << 20  # a core's C++ frames live on its thread's stack (kernels keep arrays there)


class _Worker:
    """A thread that runs cores: `go` is held while it waits for its turn."""

    __slots__ = ("go", "job")

    def __init__(self):
        self.go = threading.Lock()
        self.go.acquire()
        self.job: tuple | None = None  # (scheduler, first core) handed to a pooled thread


_POOL: list[_Worker] = []
_POOL_LOCK = threading.Lock()


def _serve(worker: _Worker) -> None:
    while True:
        worker.go.acquire()
        job, worker.job = worker.job, None
        if job is not None:
            scheduler, core = job
            scheduler._work(worker, core)
        with _POOL_LOCK:
            _POOL.append(worker)


def _spare_worker() -> _Worker:
    with _POOL_LOCK:
        if _POOL:
            return _POOL.pop()
    worker = _Worker()
    with _POOL_LOCK:  # threading.stack_size is process-wide: set it only around this thread's start
        old = threading.stack_size(_STACK_BYTES)
        try:
            threading.Thread(target=_serve, args=(worker,), name="opsnn-aiv-core", daemon=True).start()
        finally:
            threading.stack_size(old)
    return worker


class Cores:
    """The cores of one launch and the SyncAll barrier between them.

    Parameters
    ----------
    block_dim : int
        How many cores.
    run_core : callable
        ``run_core(i)`` runs core i to its end (launch's body: builds the core's context, calls
        the kernel, records how it ended). It may call `sync_all` from inside the kernel.
    missing : callable
        ``missing(waiting, absent, barrier, expected)``: told when the barrier numbered `barrier`
        (1 = the first SyncAll) can never complete -- the cores in `absent` ended while those in
        `waiting` wait for them (`expected`: the soft SyncAll's core count, or None: every core);
        the waiting cores are then stopped (their SyncAll raises CoreAborted).
    never_set : callable or None
        ``never_set(waits, unset)``: told when cores wait on flags no core can set any more --
        `waits` maps each waiting core to its (flag, k): its k-th CrossCoreWaitFlag(flag), `unset`
        the cores that set that flag fewer than k times; the waiting cores are then stopped.
    """

    def __init__(self, block_dim: int, run_core: Callable[[int], None],
                 missing: Callable[[list[int], list[int], int, int | None], None],
                 never_set: Callable[[dict[int, tuple[int, int]], list[int]], None] | None = None):
        self.block_dim = block_dim
        self._run_core = run_core
        self._missing = missing
        self._context = contextvars.copy_context()  # the launcher's (numpy's errstate lives in one)
        self._next_core = 0
        self._worker_of: dict[int, _Worker] = {}
        self._waiting: list[int] = []  # cores at the barrier, in arrival order
        self._expected: int | None = None  # the soft SyncAll's core count; None: every core
        self._resume: deque[int] = deque()  # released cores, in core order
        self._ended: list[int] = []
        self._stopped: set[int] = set()  # waiting cores whose barrier never completes
        self._barriers = 0  # barriers completed so far
        self._never_set = never_set
        self._flag_sets: dict[int, list[int]] = {}  # CrossCoreSetFlag calls, per flag id, per core
        self._flag_waits: dict[int, list[int]] = {}  # CrossCoreWaitFlag calls, per flag id, per core
        self._flag_blocked: dict[int, tuple[int, int]] = {}  # core -> (flag, k) it waits on
        self._home = _Worker()  # the launching thread
        self._escaped: BaseException | None = None  # what run_core itself raised (it should not)

    def run(self) -> None:
        """Run every core; return when all have ended."""
        first = self._take_new()
        if first is None:
            return
        if not self._work(self._home, first):
            self._home.go.acquire()  # other threads still run cores: the last one to end wakes us
        if self._escaped is not None:
            raise self._escaped

    def sync_all(self, ctx: CoreContext, expected: int | None = None) -> None:
        """SyncAll on core `ctx`: return once every core (or `expected` cores: the soft form's
        count) has arrived; ctx.phase counts the barriers passed."""
        core = ctx.block_idx
        if self._worker_of.get(core) is None:
            raise EmulatorError(f"core {core}: SyncAll from a thread that is not running this launch's core")
        self._waiting.append(core)
        if expected is not None:
            self._expected = expected if self._expected is None else min(self._expected, expected)
        me = self._worker_of[core]
        if self._dispatch(me, free=False) is not me:
            me.go.acquire()  # until the barrier releases this core (or it never will)
        if core in self._stopped:
            raise CoreAborted(f"core {core}: SyncAll #{ctx.phase + 1} can never complete")
        ctx.phase += 1

    def cross_core_set(self, ctx: CoreContext, flag: int) -> None:
        """CrossCoreSetFlag (mode 0) on core `ctx`: one more set of `flag`; the cores whose wait
        that completes resume when this core next waits or ends."""
        sets = self._flag_sets.setdefault(flag, [0] * self.block_dim)
        sets[ctx.block_idx] += 1
        ready = sorted(c for c, (f, k) in self._flag_blocked.items() if f == flag and min(sets) >= k)
        for c in ready:
            del self._flag_blocked[c]
        self._resume.extend(ready)

    def cross_core_wait(self, ctx: CoreContext, flag: int) -> None:
        """CrossCoreWaitFlag on core `ctx`: its k-th wait on `flag` returns once every core has
        set the flag k times; ctx.phase counts it as a barrier passed."""
        core = ctx.block_idx
        if self._worker_of.get(core) is None:
            raise EmulatorError(f"core {core}: CrossCoreWaitFlag from a thread that is not running this launch's core")
        waits = self._flag_waits.setdefault(flag, [0] * self.block_dim)
        waits[core] += 1
        if min(self._flag_sets.get(flag, [0])) < waits[core]:
            self._flag_blocked[core] = (flag, waits[core])
            me = self._worker_of[core]
            if self._dispatch(me, free=False) is not me:
                me.go.acquire()  # until the flag's sets are all in (or never will be)
            if core in self._stopped:
                raise CoreAborted(f"core {core}: CrossCoreWaitFlag({flag}) #{waits[core]} can never return")
        ctx.phase += 1

    def _stop_flag_waits(self) -> None:
        """No core can run and some wait on flags: nobody is left to set them."""
        blocked, self._flag_blocked = dict(sorted(self._flag_blocked.items())), {}
        flag, k = next(iter(blocked.values()))
        unset = [c for c, n in enumerate(self._flag_sets.get(flag, [0] * self.block_dim)) if n < k]
        if self._never_set is not None:
            self._never_set(blocked, unset)
        self._stopped.update(blocked)
        self._resume.extend(blocked)

    # ---- the run, passed from core to core ----
    def _take_new(self) -> int | None:
        if self._next_core >= self.block_dim:
            return None
        self._next_core += 1
        return self._next_core - 1

    def _work(self, worker: _Worker, core: int) -> bool:
        """Run `core` on this thread, then whatever the run hands this thread next. True when
        the last core of the launch ended here."""
        last = False
        while core is not None:
            self._worker_of[core] = worker
            try:
                self._context.copy().run(self._run_core, core)
            except BaseException as e:  # noqa: BLE001 - carried to the launching thread, raised there
                self._escaped = self._escaped or e
            self._worker_of[core] = None
            self._ended.append(core)
            # decided while this thread holds the run, so exactly one thread sees the last end
            last = len(self._ended) == self.block_dim
            nxt = self._dispatch(worker, free=True)
            core = nxt if isinstance(nxt, int) else None
        if last and worker is not self._home:
            self._home.go.release()  # the launching thread returns
        return last

    def _dispatch(self, me: _Worker, free: bool):
        """Hand the run on from `me` (its core ended: free; or waits at the barrier). Returns a new
        core for `me` to run, `me` itself when its own core resumes at once, or None."""
        while True:
            if self._resume:
                core = self._resume.popleft()
                worker = self._worker_of[core]
                if worker is me:
                    return me
                worker.go.release()
                return None
            core = self._take_new()
            if core is not None:
                if free:
                    return core
                worker = _spare_worker()
                worker.job = (self, core)
                worker.go.release()
                return None
            if self._flag_blocked:  # before a SyncAll: cores waiting on flags never reach it
                self._stop_flag_waits()
                continue
            if not self._waiting:
                return None  # every core ended
            self._release_barrier()

    def _release_barrier(self) -> None:
        """Every core still running waits at the barrier: release it, or stop its cores when a
        core that ended can never arrive."""
        waiting, self._waiting = sorted(self._waiting), []
        expected, self._expected = self._expected, None
        self._barriers += 1
        complete = len(waiting) >= expected if expected is not None else not self._ended
        if not complete:
            self._missing(waiting, sorted(set(range(self.block_dim)) - set(waiting)), self._barriers, expected)
            self._stopped.update(waiting)
        self._resume.extend(waiting)


def SyncAll(ctx: CoreContext, used_cores: int | None = None) -> None:  # noqa: N802 - AscendC name
    """AscendC's SyncAll(): wait until every core of the launch has arrived here. The soft form
    (SyncAll(gmWorkspace, ubWorkspace, usedCores)) waits for `used_cores` cores; its GM and UB
    workspaces, which the device counts arrivals in, are not touched.

    Parameters
    ----------
    ctx : CoreContext
        The calling core.
    used_cores : int or None
        The soft form's core count; None: every core of the launch.
    """
    ctx.counters.issue("SyncAll")
    if used_cores is not None and not 1 <= int(used_cores) <= ctx.block_num:
        raise EmulatorError(f"SyncAll for {used_cores} cores in a launch of {ctx.block_num}")
    cores = _launch_cores(ctx, "SyncAll")
    if cores is None:  # a lone core arrives alone
        ctx.phase += 1
        return
    cores.sync_all(ctx, None if used_cores is None else int(used_cores))


def _launch_cores(ctx: CoreContext, what: str) -> Cores | None:
    if ctx.barrier is None:
        if ctx.block_num == 1:  # a lone core (outside a launch) waits for nobody
            return None
        raise EmulatorError(f"core {ctx.block_idx}: {what} on a core no launch runs")
    return ctx.barrier


def _flag_call(ctx: CoreContext, what: str, flag_id: int, mode: int) -> tuple[Cores | None, int]:
    """A cross-core flag call counted and checked: (the launch's cores or None for a lone core, the flag)."""
    ctx.counters.issue(what)
    if int(mode) != 0:
        raise EmulatorError(f"{what} mode {int(mode)}: only mode 0 (every vector core of the launch) is modelled; "
                            "modes 1, 2 and 4 pair the cores of one AI Core or a vector core with the cube core, "
                            "which the emulator does not run")
    if not 0 <= int(flag_id) <= 15:
        raise EmulatorError(f"{what} flag id {int(flag_id)}: 0..15")
    return _launch_cores(ctx, what), int(flag_id)


def CrossCoreSetFlag(ctx: CoreContext, flag_id: int, mode: int = 0) -> None:  # noqa: N802 - AscendC name
    """AscendC's ``CrossCoreSetFlag<modeId, pipe>(flagId)``: this core has done its work before the
    flag (the pipe's instructions are complete in the emulator's in-order model).

    Parameters
    ----------
    ctx : CoreContext
        The calling core.
    flag_id : int
        The flag (0..15 on Atlas A2).
    mode : int
        modeId; only 0 (all vector cores of the launch) is modelled.
    """
    cores, flag = _flag_call(ctx, "CrossCoreSetFlag", flag_id, mode)
    if cores is not None:
        cores.cross_core_set(ctx, flag)


def CrossCoreWaitFlag(ctx: CoreContext, flag_id: int, mode: int = 0) -> None:  # noqa: N802 - AscendC name
    """AscendC's ``CrossCoreWaitFlag(flagId)``: wait until every core of the launch has set the flag
    (its k-th wait, k times): the accesses after it are ordered after theirs before the sets."""
    cores, flag = _flag_call(ctx, "CrossCoreWaitFlag", flag_id, mode)
    if cores is None:
        ctx.phase += 1
        return
    cores.cross_core_wait(ctx, flag)
