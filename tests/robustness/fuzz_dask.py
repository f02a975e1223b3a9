"""The fuzz's dask surface (tests/robustness/fuzz.py runs it on a share of its cases): the same case
through opsnn.dask, its arrays chunked at random, computed on dask's synchronous scheduler, must
give the numpy API's bits on the whole C-contiguous arrays, or the same exception type (raised
when the graph is built, before anything is computed)."""
from __future__ import annotations

import importlib.util

AVAILABLE = importlib.util.find_spec("dask") is not None
MAX_BLOCKS_PER_AXIS = 4  # the graph stays small: a case is a few dozen tasks at most


def _chunks(rng, shape):
    return tuple(max(1, -(-n // int(rng.integers(1, MAX_BLOCKS_PER_AXIS + 1)))) if n else 1 for n in shape)


def _call(case):
    """(numpy function, dask function, arguments, tensor positions) of a fuzz case."""
    import opsnn
    import opsnn.dask as odask
    if "api" in case:
        from opsnn.aclnn.declarations import all_apis
        api = next(a for a in all_apis() if a.numpy_api == case["api"])
        tensors = [i for i, p in enumerate(api.inputs) if p.kind in ("tensor", "ref")]
        return getattr(opsnn, case["api"]), getattr(odask, case["api"]), list(case["args"]), tensors
    if case["forward"]:
        return opsnn.threshold, odask.threshold, [case["grad"], case["threshold"], case["value"]], [0]
    args = [case["grad"], case["feature"], case["threshold"]]
    return opsnn.threshold_backward, odask.threshold_backward, args, [0, 1]


def _outcome(thunk):
    import numpy as np
    try:
        result = np.asarray(thunk())
    except Exception as e:  # noqa: BLE001 (compared across surfaces)
        return type(e).__name__
    return result.dtype.str, result.shape, np.ascontiguousarray(result).view(np.uint8).tobytes()


def check(case, rng) -> str | None:
    """None where opsnn.dask agrees with the numpy API on the case; else what differs."""
    if not AVAILABLE:
        return None
    import dask.array as da
    import numpy as np
    function, lazy, args, tensors = _call(case)
    whole = [np.array(a, order="C", copy=True) if i in tensors else a for i, a in enumerate(args)]
    kw = {"semantics": case["semantics"]}
    want = _outcome(lambda: function(*whole, **kw))
    chunked = [da.from_array(a, chunks=_chunks(rng, a.shape)) if i in tensors and rng.random() < 0.9 else a
               for i, a in enumerate(whole)]  # now and then a numpy operand, wrapped by opsnn.dask

    def run():
        built = lazy(*chunked, **kw)  # errors here, at graph build
        return built.compute(scheduler="sync")
    got = _outcome(run)
    if got == want:
        return None
    if isinstance(got, str) or isinstance(want, str):
        shown = [x if isinstance(x, str) else "a result" for x in (got, want)]
        return f"dask: {shown[0]}, numpy API: {shown[1]}"
    if got[:2] != want[:2]:
        return f"dask: {got[:2]}, numpy API: {want[:2]}"
    a, b = np.frombuffer(got[2], np.uint8), np.frombuffer(want[2], np.uint8)
    chunks = [c.chunks for c in chunked if hasattr(c, "chunks")]
    return f"dask (chunks {chunks}): {int(np.count_nonzero(a != b))} bytes differ from the numpy API"
