"""A stream: an ordered queue of device tasks.

Tasks run when the stream is synchronized, in the order they were enqueued, on the synchronizing
thread. So work launched on a stream is really asynchronous to the host: its results are in
device memory only after `synchronize_stream`, as on hardware."""
from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable


class SelfSynchronize(Exception):
    pass


class TaskFault(Exception):
    def __init__(self, task: str, cause: BaseException):
        super().__init__(f"task {task!r} faulted: {type(cause).__name__}: {cause}")
        self.task = task
        self.cause = cause


class Stream:
    def __init__(self, runtime, device_id: int, is_default: bool = False):  # runtime: its opsnn.acl Runtime
        self.runtime = runtime
        self.device_id = device_id
        self.is_default = is_default
        self.destroyed = False
        # (name, run) per task, run() raising on a device fault: a plain tuple, made at every launch
        # (a dataclass or NamedTuple cost 0.2-0.4 us to build); append/popleft/clear are atomic,
        # so the queue needs no lock
        self._queue: deque[tuple[str, Callable[[], None]]] = deque()
        self._run_lock = threading.Lock()  # one synchronizer drains the queue at a time
        self._draining = 0  # the thread draining now (0: none)

    def __repr__(self) -> str:
        state = "destroyed" if self.destroyed else f"{len(self._queue)} pending"
        return f"<Stream device={self.device_id}{' default' if self.is_default else ''} {state}>"

    def enqueue(self, name: str, run: Callable[[], None]) -> None:
        self._queue.append((name, run))

    def drop_pending(self) -> int:
        n = len(self._queue)  # a count for the caller's message; a task queued meanwhile goes too
        self._queue.clear()
        return n

    def drain(self) -> None:
        """Run every queued task. On a fault the rest of the queue is discarded (the stream is
        in error, as a device stream is after an exception) and TaskFault is raised.

        A drain asked for by the thread that is draining (a finalizer or weakref callback the
        collector ran inside a task) raises SelfSynchronize: it could only wait for itself."""
        me = threading.get_ident()
        if self._draining == me:
            raise SelfSynchronize("the stream is being synchronized by this same thread (a finalizer or "
                                  "callback running inside one of its tasks?)")
        with self._run_lock:
            self._draining = me
            try:
                queue = self._queue
                while queue:  # tested first: an IndexError at every synchronize costs more than the test
                    try:
                        name, run = queue.popleft()
                    except IndexError:  # a destroy or finalize cleared it meanwhile
                        return
                    try:
                        run()
                    except Exception as e:  # any fault of the emulated device
                        self.drop_pending()
                        raise TaskFault(name, e) from e
            finally:
                self._draining = 0
