"""The one piece of process state: a thread pool, created on first parallel call.

Work is handed out dynamically (each worker takes the next part when it is done with its last),
not split statically: on a shared machine a core can vanish for a scheduler time slice, and a
static split then waits for the unlucky thread."""
from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None
_pool_pid = 0  # a forked child inherits the executor but not its threads: it needs its own


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _executor() -> ThreadPoolExecutor:
    global _pool, _pool_pid
    with _lock:
        if _pool is None or _pool_pid != os.getpid():
            _pool = ThreadPoolExecutor(max_workers=max(cpu_count() - 1, 1), thread_name_prefix="opsnn")
            _pool_pid = os.getpid()
        return _pool


def run_parallel(task, parts: list, workers: int, make_state=lambda: None) -> None:
    """task(part, state) for every part, on `workers` threads (the caller's included); each worker
    makes its own state (scratch buffers) once."""
    if workers <= 1 or len(parts) <= 1:
        state = make_state()
        for part in parts:
            task(part, state)
        return
    remaining = iter(parts)
    taking = threading.Lock()

    def worker():
        state = make_state()
        while True:
            with taking:
                part = next(remaining, None)
            if part is None:
                return
            task(part, state)

    futures = [_executor().submit(worker) for _ in range(min(workers, len(parts)) - 1)]
    try:
        worker()
    finally:
        for fut in futures:
            fut.result()
