"""Running cases: one case (generate, run, compare), and many, in this process or a pool of
spawned ones, skipping what the limits refuse."""
from __future__ import annotations

import time

from opsnn.atk import oracle
from opsnn.atk.cases import Case
from opsnn.atk.compare import Verdict, call, compare, short, standard_for
from opsnn.atk.inputs import input_digest, make_inputs
from opsnn.atk.limits import (
    DEFAULT_MAX_ELEMENTS,
    DEFAULT_MAX_ELEMENTS_EMULATOR,
    MEMORY_SHARE,
    available_memory,
    skip_reason,
)
from opsnn.atk.progress import Progress
from opsnn.atk.result import Result, base_result


def run_case(case: Case, seed: int, semantics: str, backend: str, loose_nan: bool = False,
             surface=None) -> Result:
    """Generate the case's inputs, run them, compare; never raises for what the operator does.
    loose_nan: in the comparison with torch, any NaN equals any NaN (the reference's stays bitwise).
    surface: a C++ operator folder (cpp_surface.CppSurface) run instead of opsnn's `backend`,
    under `semantics` (its SoC's family), compared with opsnn's reference where opsnn declares the
    API and with torch, the file's golden."""
    import opsnn
    start = time.perf_counter()
    result = base_result(case, "passed")
    ours_in, torch_in, notes = make_inputs(case, seed)
    result.notes = notes
    result.digest = input_digest(ours_in)
    twin = surface.twin(case.api.name) if surface is not None else case.api
    fn = getattr(opsnn, twin.numpy_api, None) if twin is not None else None
    if fn is None and surface is None:
        result.status, result.reason = "failed", f"opsnn has no function {case.api.numpy_api}"
        return result
    if surface is not None:
        ours = call(surface.function(case.api), ours_in)
    else:
        ours = call(fn, ours_in, {"semantics": semantics, "backend": backend})
    failures, refusals = [], []
    if input_digest(ours_in) != result.digest:
        failures.append(f"the {surface.label if surface else f'{backend} backend'} changed its inputs")
    if fn is None:
        result.checks["reference"] = {"status": "skipped", "detail": f"opsnn declares no {case.api.name}"}
    elif backend != "reference" or surface is not None:
        ref = call(fn, ours_in, {"semantics": semantics, "backend": "reference"})
        result.checks["reference"] = _check(compare(ours, ref, "the reference",
                                                    standard=standard_for(case, "reference"),
                                                    refusals_match=surface.refusal_matches if surface else None))
    else:
        result.checks["reference"] = {"status": "skipped", "detail": "the backend is the reference"}
    if semantics == "torch" or surface is not None:
        theirs, why = oracle.run_torch(case, torch_in)
        if theirs is None:
            result.checks["torch"] = {"status": "skipped", "detail": why}
        else:
            if why:
                result.notes.append(why)
            verdict = compare(ours, theirs, "torch", torch_side=True,
                              standard=standard_for(case, "torch", loose_nan),
                              refusals_match=surface.refusal_matches if surface else None)
            if verdict.status == "equal" and verdict.detail:
                result.notes.append(verdict.detail)
            result.checks["torch"] = _check(verdict)
    if backend == "reference" and (semantics != "torch" or result.checks["torch"]["status"] == "skipped"):
        # nothing to compare with: the reference's own refusal is still a result worth naming
        if ours.error is not None:
            refusals.append(f"refused: {type(ours.error).__name__}: {short(str(ours.error), 120)}")
    for against, check in result.checks.items():
        if check["status"] == "mismatch":
            failures.append(f"{against}: {check['detail']}")
        elif check["status"] == "refused":
            refusals.append(check["detail"])
    if failures:
        result.status, result.reason = "failed", "; ".join(failures)
    elif refusals or ours.error is not None:
        result.refused = True
        result.reason = refusals[0] if refusals else f"refused: {type(ours.error).__name__}"
    result.seconds = time.perf_counter() - start
    return result


def _check(verdict: Verdict) -> dict:
    """A comparison as the reports keep it; "nan_only" only where it is true (a mismatch confined to
    NaN bits), so that the summary can say what --loose-nan would do."""
    check = {"status": verdict.status, "detail": verdict.detail}
    if verdict.nan_only:
        check["nan_only"] = True
    return check


def _run_one(payload) -> Result:
    """A worker's entry (module level, for the process pool)."""
    case, seed, semantics, backend, loose_nan, *surface = payload
    try:
        return run_case(case, seed, semantics, backend, loose_nan, *surface)
    except MemoryError:
        result = base_result(case, "failed", "out of memory")
    except Exception as e:  # a defect in the runner itself still reports the case
        result = base_result(case, "failed", f"runner error {type(e).__name__}: {short(str(e))}")
    return result



def run_cases(cases: list[Case], *, seed: int = 0, semantics: str = "torch", backend: str = "fast",
              jobs: int = 1, max_elements: int | None = None, progress: Progress | None = None,
              memory: int | None = None, loose_nan: bool = False, surface=None) -> list[Result]:
    """Every case's result, in the cases' order (skipped ones with their reason). A surface (a C++
    operator loaded into this process) runs its cases here, one after another."""
    if max_elements is None:
        max_elements = DEFAULT_MAX_ELEMENTS_EMULATOR if backend == "emulator" else DEFAULT_MAX_ELEMENTS
    memory = int((available_memory() if memory is None else memory) * MEMORY_SHARE) // max(jobs, 1)
    results: dict[int, Result] = {}
    todo = []
    for case in cases:
        why = skip_reason(case, max_elements, memory)
        if why:
            results[case.id] = base_result(case, "skipped", why)
            if progress:
                progress.update(results[case.id])
        else:
            todo.append(case)
    if jobs <= 1 or len(todo) <= 1 or surface is not None:
        if (semantics == "torch" or surface is not None) and todo:
            oracle.torch_module()  # imported once here, so that no case's time counts it
        for case in todo:
            results[case.id] = _run_one((case, seed, semantics, backend, loose_nan, surface))
            if progress:
                progress.update(results[case.id])
    else:
        _run_pool(todo, (seed, semantics, backend, loose_nan), jobs, results, progress)
    return [results[c.id] for c in cases]


THREAD_VARIABLES = ("OPSNN_NUM_THREADS", "OMP_NUM_THREADS")  # opsnn's engine; torch's intra-op pool


def worker_threads(workers: int) -> int:
    """Threads each of `workers` processes may use: the usable cores shared out. Without this every
    worker's fast engine and torch take every core, and on 2 cores --jobs 2 ran 1.5x slower than one job
    (docs/atk.md, "--jobs")."""
    from opsnn.engine.machine import usable_cpus
    return max(1, len(usable_cpus()) // max(workers, 1))


def _share_cores(threads: int) -> None:
    """A worker's initializer, before anything in it reads a thread count: the share, unless the user
    set the variable (theirs stands)."""
    import os
    for name in THREAD_VARIABLES:
        os.environ.setdefault(name, str(threads))


def _run_pool(todo, settings, jobs, results, progress) -> None:
    import concurrent.futures as cf
    import multiprocessing
    # spawn: a fork of a process whose fast engine already started threads could deadlock
    context = multiprocessing.get_context("spawn")
    workers = min(jobs, len(todo))
    with cf.ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_share_cores,
                                initargs=(worker_threads(workers),)) as pool:
        # the largest first, so that no big case starts last and runs alone
        order = sorted(todo, key=lambda c: -c.max_elements)
        futures = {pool.submit(_run_one, (case, *settings)): case for case in order}
        try:
            for future in cf.as_completed(futures):
                case = futures[future]
                try:
                    results[case.id] = future.result()
                except Exception as e:  # a worker died (killed for memory, crashed): the pool is gone
                    results[case.id] = base_result(case, "failed", "a worker process died, this case "
                                                    f"unfinished ({type(e).__name__}: {short(str(e))}); "
                                                    "run it alone with --cases to see which")
                if progress:
                    progress.update(results[case.id])
        except KeyboardInterrupt:
            pool.shutdown(wait=False, cancel_futures=True)
            raise

