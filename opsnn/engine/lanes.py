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

from opsnn.dtypes import float_layout

ENGINES = ("auto", "c", "numpy")  # "c": the C engine required
ENGINE_VARIABLE = "OPSNN_FAST_ENGINE"
MODULE = "opsnn.engine._select"
ANY_RANK = 1 << 30  # a Lane's max_rank where the semantics set no limit
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
    engine = engine_name(engine)
    if engine == "numpy":
        return None
    try:
        return importlib.import_module(MODULE)
    except ImportError:
        if engine == "c":
            raise ImportError(MISSING) from None
        return None


@functools.cache
def compiled():
    """engine_module() for the environment's engine, resolved once per process (cache_clear() to re-read)."""
    return engine_module(None)


def new_lane(module, dtype: np.dtype, params, max_rank: int = ANY_RANK, arrays: int = 3,
             threads: int | None = None):
    """A Lane of `module` with this machine's crossovers (machine.tuning())."""
    from opsnn.engine import machine
    tuned = machine.tuning()
    return module.Lane(dtype, [int(v) for v in params], max_rank, arrays, tuned.parallel_min, tuned.stream_min,
                       threads or tuned.threads)


_LANES: dict = {}  # (dtype, params, arrays, max_rank, threads, module) -> Lane: a pure function of the key
_MEMO_MAX = 1024


def lane(dtype: np.dtype, params: tuple, arrays: int = 3, max_rank: int = ANY_RANK, threads: int | None = None,
         module=None):
    """The memoised Lane for an element rule (of `module`, else the environment's engine), or None
    where the C engine is not in use."""
    module = module or compiled()
    if module is None:
        return None
    key = (dtype, params, arrays, max_rank, threads, module)
    found = _LANES.get(key)
    if found is None:
        found = new_lane(module, dtype, params, max_rank, arrays, threads)
        remember(_LANES, key, found)
    return found


def run(lane_, grad: np.ndarray, x: np.ndarray, dtype: np.dtype, out):
    """lane_(grad, x, out), or lane_.cast() where an operand is of another dtype than the lane's
    (numpy's casts; an overflow to inf is the promotion's answer, as torch's, not a warning)."""
    if grad.dtype == dtype and x.dtype == dtype:
        return lane_(grad, x, out)
    with np.errstate(over="ignore", invalid="ignore"):
        return lane_.cast(grad, x, out)


def has_nan(a: np.ndarray) -> bool:
    """Any NaN in a float array: the engine's one pass where it is in use and a is C-contiguous,
    else one numpy reduction (float16 / bfloat16 on their bits: numpy has no fast min for them)."""
    if a.size == 0 or a.dtype.kind in "biu":  # integers and bools hold no NaN
        return False
    layout = float_layout(a.dtype)
    module = compiled()
    if module is not None and a.flags.c_contiguous and a.flags.aligned and a.dtype.isnative:
        return module.any_nan(a, int(layout.exponent))
    if a.dtype.itemsize == 2:
        return int((a.view(np.uint16) & np.uint16(0x7FFF)).max()) > int(layout.exponent)
    return bool(np.isnan(a.min()))


def memo_key(semantics: str, grad: np.ndarray, x: np.ndarray, *scalars) -> tuple | None:
    """An operator's express-entry key for a call (the Lane that answered a call of these
    semantics, dtypes and Python scalars answers the next one): the semantics, both dtypes, the
    scalars' values and their types; None where a scalar cannot be part of a key: a NaN (never
    equal to itself), a negative zero (equal to 0.0 as a key, but not the same call: such a call
    goes the general way), anything but a Python float, int or bool."""
    key = [semantics, grad.dtype, x.dtype]
    for value in scalars:
        kind = type(value)
        if kind is float:
            if value != value or (not value and math.copysign(1.0, value) < 0.0):
                return None
        elif kind is not int and kind is not bool:
            return None
        key += (kind, value)
    return tuple(key)


def remember(memo: dict, key, lane_) -> None:
    """memo[key] = lane_, the memo emptied first when full."""
    if len(memo) >= _MEMO_MAX:
        memo.clear()
    memo[key] = lane_


def express(memo: dict, semantics: str, grad: np.ndarray, x: np.ndarray, out, *scalars):
    """An operator's express entry: what answered an earlier call of the same memo_key answers
    this one where grad and x are one shape (the general way decides everything else, and raises
    every error); None otherwise."""
    if type(grad) is not np.ndarray or type(x) is not np.ndarray or grad.shape != x.shape:
        return None
    key = memo_key(semantics, grad, x, *scalars)
    try:  # free unless it raises: an unhashable semantics (a list) goes the general way, whose checks refuse it
        answer = key is not None and memo.get(key)
    except TypeError:
        return None
    return answer(grad, x, out) if answer else None
