"""The one piece of process state: a thread pool, created on first parallel call."""
from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_parallel(task, parts: list) -> None:
    """task(part) for every part; the calling thread runs the first, the pool the rest."""
    global _pool
    if len(parts) > 1:
        with _lock:
            if _pool is None:
                _pool = ThreadPoolExecutor(max_workers=max(cpu_count() - 1, 1), thread_name_prefix="opsnn")
        futures = [_pool.submit(task, part) for part in parts[1:]]
    else:
        futures = []
    try:
        task(parts[0])
    finally:
        for fut in futures:
            fut.result()
