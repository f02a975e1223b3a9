"""The one piece of process state: a thread pool, started on first parallel call.

Work is handed out dynamically (each worker takes the next part when it is done with its last),
not split statically: on a shared machine a core can vanish for a scheduler time slice, and a
static split then waits for the unlucky thread.

Any allocation may run the cyclic collector, and a finalizer or weakref callback it runs may call
opsnn again, on whatever thread allocated (issue 20). So nothing here waits on a lock that code
able to allocate may hold: jobs go through a `queue.SimpleQueue` (whose put is reentrant), a
call's locks guard only steps that allocate no collectable object, and a caller never waits for a
helper that has not started its work (it takes every part left itself): a nested call cannot wait
on the call it interrupted. concurrent.futures' pool is not used because its submit() holds a
plain lock while it allocates (a finalizer that submits again hangs there)."""
from __future__ import annotations

import _thread
import os
import queue
import threading

_lock = threading.Lock()  # taken without blocking: whoever loses works alone this time
_jobs: queue.SimpleQueue | None = None
_jobs_pid = 0  # a forked child inherits the queue but not its threads: it needs its own
_END = object()


def _after_fork_in_child() -> None:
    global _lock
    _lock = threading.Lock()  # another thread may have held it at the fork


os.register_at_fork(after_in_child=_after_fork_in_child)


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _serve(jobs: queue.SimpleQueue) -> None:
    while True:
        jobs.get()()


def _job_queue() -> queue.SimpleQueue | None:
    """The pool's queue; None while another call (this thread's, interrupted, or another's) starts it."""
    global _jobs, _jobs_pid
    pid = os.getpid()
    if _jobs_pid == pid:
        return _jobs
    if not _lock.acquire(blocking=False):
        return None
    try:
        if _jobs_pid != pid:
            jobs = queue.SimpleQueue()
            for i in range(max(cpu_count() - 1, 1)):
                # daemon: idle workers block in get() and must not hold up the interpreter's exit
                threading.Thread(target=_serve, args=(jobs,), name=f"opsnn_{i}", daemon=True).start()
            _jobs, _jobs_pid = jobs, pid
        return _jobs
    finally:
        _lock.release()


class _Call:
    """One run_parallel call: its parts, and the helpers inside one of them."""

    def __init__(self, task, parts: list, make_state):
        self.task, self.make_state = task, make_state
        self.remaining = iter(parts)
        self.taking = _thread.allocate_lock()  # guards remaining, active and closed
        self.active = 0  # helpers running a part
        self.closed = False  # the caller has no more parts to give: late helpers just return
        self.idle = _thread.allocate_lock()  # held while active > 0; the caller waits on it
        self.errors: list[BaseException] = []

    def _take(self, helper: bool):
        with self.taking:  # nothing in here allocates a collectable object (no collection can start)
            part = _END if self.closed else next(self.remaining, _END)
            if helper and part is not _END:
                if self.active == 0:
                    self.idle.acquire()
                self.active += 1
            return part

    def _done(self) -> None:
        with self.taking:
            self.active -= 1
            if self.active == 0:
                self.idle.release()

    def help(self) -> None:
        state = _END
        while (part := self._take(helper=True)) is not _END:
            try:
                if state is _END:
                    state = self.make_state()
                self.task(part, state)
            except BaseException as e:  # noqa: BLE001 (re-raised in the caller's thread)
                self.errors.append(e)
                self.closed = True
            finally:
                self._done()

    def work(self) -> None:
        """The caller's share: parts until none is left, then the helpers still inside one."""
        try:
            state = _END
            while (part := self._take(helper=False)) is not _END:
                if state is _END:
                    state = self.make_state()
                self.task(part, state)
        finally:
            with self.taking:
                self.closed = True
                busy = self.active > 0
            if busy:
                self.idle.acquire()  # released by the last helper to finish its part
                self.idle.release()
        if self.errors:
            raise self.errors[0]


def run_parallel(task, parts: list, workers: int, make_state=lambda: None) -> None:
    """task(part, state) for every part, on `workers` threads (the caller's included); each worker
    makes its own state (scratch buffers) once, at its first part."""
    if workers <= 1 or len(parts) <= 1:
        state = make_state()
        for part in parts:
            task(part, state)
        return
    call = _Call(task, parts, make_state)
    jobs = _job_queue()
    if jobs is not None:
        for _ in range(min(workers, len(parts)) - 1):
            jobs.put(call.help)
    call.work()
