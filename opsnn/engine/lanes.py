"""The engine's entry for any operator: a Lane for an element rule (mode, ranges, fill), with
this machine's crossovers, memoised; None where the C engine is not in use (the caller's numpy
path answers then).

A Lane runs lane(grad, feature, out) on operands of its dtype in any layout, and
lane.cast(grad, feature, out) on operands of other dtypes (numpy's casts on the way); both return
None where the call is not for it (shapes that do not broadcast, an out of another shape or
dtype...)."""
from __future__ import annotations

import functools
import importlib
import math
import os

import numpy as np

ENGINES = ("auto", "c", "numpy")  # "c": the C engine required
ENGINE_VARIABLE = "OPSNN_FAST_ENGINE"
MODULE = "opsnn.engine._select"
_RANK_UNLIMITED = 1 << 30
MISSING = (f"{ENGINE_VARIABLE}=c needs the C engine ({MODULE}), which this installation does not have: install "
           "a C compiler and the Python headers (e.g. apt install gcc python3-dev) and reinstall opsnn, or unset "
           f"{ENGINE_VARIABLE}")


def engine_name(engine: str | None) -> str:
    engine = engine or os.environ.get(ENGINE_VARIABLE, "auto")
    if engine not in ENGINES:
        raise ValueError(f"unknown fast engine {engine!r}; known: {', '.join(ENGINES)}")
    return engine


def engine_module(engine: str | None):
    """The C module, or None: with "numpy", or where it was not built (no C compiler at install;
    "c" then raises ImportError). import_module, not a sys.modules lookup: while another thread is
    still importing the module, it waits for that import instead of taking the half-built one."""
    if engine_name(engine) == "numpy":
        return None
    try:
        return importlib.import_module(MODULE)
    except ImportError:
        if engine_name(engine) == "c":
            raise ImportError(MISSING) from None
        return None


@functools.cache
def compiled():
    """engine_module() for the environment's engine, resolved once per process (cache_clear() to re-read)."""
    return engine_module(None)


def new_lane(module, dtype: np.dtype, params, max_rank: int = _RANK_UNLIMITED, arrays: int = 3,
             threads: int | None = None):
    """A Lane of `module` with this machine's crossovers (machine.tuning())."""
    from opsnn.engine import machine
    tuned = machine.tuning()
    return module.Lane(dtype, [int(v) for v in params], max_rank, arrays, tuned.parallel_min, tuned.stream_min,
                       threads or tuned.threads)


_LANES: dict = {}  # (dtype, params, arrays) -> Lane: a pure function of the key
_LANES_MAX = 1024


def lane(dtype: np.dtype, params: tuple, arrays: int = 3, max_rank: int = _RANK_UNLIMITED):
    """The memoised Lane for an element rule, or None where the C engine is not in use."""
    module = compiled()
    if module is None:
        return None
    key = (dtype, params, arrays, max_rank)
    found = _LANES.get(key)
    if found is None:
        if len(_LANES) >= _LANES_MAX:
            _LANES.clear()
        found = _LANES[key] = new_lane(module, dtype, params, max_rank, arrays)
    return found


def scalar_key(*scalars) -> tuple | None:
    """A call's Python scalars as part of a memo key (an operator's express entry: the Lane that
    answered a call of these scalars, semantics and dtype answers the next one): their types and
    values, a float's sign too (-0.0 is not 0.0); None where one cannot be a key (a NaN never
    equals itself, numpy scalars and arrays go the general way)."""
    key = []
    for value in scalars:
        kind = type(value)
        if kind is float:
            if value != value:
                return None
            key.append((kind, value, math.copysign(1.0, value)))
        elif kind is int or kind is bool:
            key.append((kind, value))
        else:
            return None
    return tuple(key)


def remember(memo: dict, key, lane_) -> None:
    """memo[key] = lane_, the memo emptied first when full."""
    if len(memo) >= _LANES_MAX:
        memo.clear()
    memo[key] = lane_


def express(memo: dict, semantics: str, grad: np.ndarray, x: np.ndarray, out, *scalars):
    """An operator's express entry: the Lane (or callable) that answered an earlier call of these
    Python scalars, semantics and dtypes answers this one where grad and x are one shape (the
    general way decides everything else, and raises every error); None otherwise."""
    if type(grad) is not np.ndarray or type(x) is not np.ndarray or grad.shape != x.shape:
        return None
    key = scalar_key(*scalars)
    answer = key is not None and memo.get((semantics, grad.dtype, x.dtype, key))
    return answer(grad, x, out) if answer else None
