"""opsnn.backends.pool: every part runs once, errors reach the caller, and a call made from inside
another call's task (as a finalizer the collector runs there would) finishes, on the caller's
thread and on a helper's."""
from __future__ import annotations

import threading

import pytest

from opsnn.backends import pool


def test_every_part_runs_once_and_states_are_per_thread():
    seen, states = [], set()
    lock = threading.Lock()

    def task(part, state):
        with lock:
            seen.append(part)
            states.add((threading.get_ident(), id(state)))

    pool.run_parallel(task, list(range(500)), 4, make_state=object)
    assert sorted(seen) == list(range(500))
    threads = {t for t, _ in states}
    assert len(states) == len(threads)  # one state per thread that took a part


def test_a_task_error_reaches_the_caller_after_every_helper_is_done():
    running = []

    def task(part, _):
        running.append(part)
        if part == 3:
            raise KeyError("part 3")

    with pytest.raises(KeyError, match="part 3"):
        pool.run_parallel(task, list(range(64)), 3)
    assert 3 in running


def test_calls_nested_in_tasks_finish_on_every_thread():
    """Each part of the outer call runs a whole parallel call of its own; with a pool of one or two
    threads, nested jobs queue behind the outer ones, and the nested caller must not wait for a
    helper that never starts (the deadlock concurrent.futures gave when a finalizer re-entered)."""
    totals = []
    lock = threading.Lock()

    def inner(part, _):
        with lock:
            totals.append(part)

    def outer(part, _):
        pool.run_parallel(inner, [part * 10 + i for i in range(10)], 4)

    done = threading.Event()

    def run():
        pool.run_parallel(outer, list(range(20)), 4)
        done.set()

    t = threading.Thread(target=run, daemon=True)
    t.start()
    assert done.wait(60), "nested run_parallel calls deadlocked"
    assert sorted(totals) == list(range(200))
