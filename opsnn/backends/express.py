"""The express lane: the common call (same dtype, same shape, C-contiguous, aligned) straight to a
compiled loop, with as little Python as possible.

Below ~64 K elements a call is almost all overhead (the loop takes 0.1-1 us), so the lane skips
the Plan and the Selection lookup: one memo lookup keyed by what decides the kernel (semantics,
dtype, the threshold's type and value) gives a lane, a callable lane(a, b, out) that checks the
operands and runs, or declines with None. Two kinds of lane, the same contract:
- the C lane (opsnn/backends/_select.c, built at install where a C compiler is): checks in C,
  its own small thread pool, no numba in the process at all;
- the numba lane (_NumbaLane below), where the C lane was not built or OPSNN_FAST_ENGINE=numba.
Everything a lane declines goes the general way through plan.py and fast.py, which also raises
every error: a lane never raises on its own and never answers a call the general way would refuse
(a memo entry exists only for a (semantics, dtype, threshold) that planned cleanly). So the API's
argument checks (api.py) run only where the lane declines: a memo keyed by the scalars' types only
hits for types those checks accept.
"""
from __future__ import annotations

import math

import numpy as np

from opsnn.backends import ascend_rules, fast
from opsnn.backends.keep_range import selection
from opsnn.backends.plan import MEMO_SCALAR_TYPES, memo_store, plan_backward, plan_forward

_RANK_UNLIMITED = 1 << 30
# The memos also remember the engine (fast.compiled_lane() and fast.default_kernels(), resolved once
# per process): whoever re-resolves them (tests) must give the lane fresh memos too.
_BACKWARD: dict = {}  # (semantics, dtype, type(t), t) -> a lane, or False: not for the lane
_FORWARD: dict = {}   # (dtype, type(t), t, type(v), v, v is a negative zero) -> a lane, or False


class _NumbaLane:
    """The lane on numba's compiled entries (the selection's parameters, the result dtype)."""

    __slots__ = ("dtype", "itemsize", "params", "serial", "entry_dtype", "kernels", "_parallel", "lock", "threads",
                 "max_rank", "streams_moved")

    def __init__(self, kernels, dtype: np.dtype, sel, max_rank: int, arrays: int):
        # float16/bfloat16 (and bool) run on the entry of their unsigned width: numba unboxes an
        # array by its item size, so they need no per-call .view()
        entry_dtype = dtype if sel.builtin else sel.bits
        self.dtype, self.itemsize, self.params, self.max_rank = dtype, dtype.itemsize, sel.params, max_rank
        self.serial = kernels.serial_entry(entry_dtype)
        self.kernels, self.entry_dtype, self._parallel = kernels, entry_dtype, None
        self.lock, self.threads = kernels.launch_lock, fast.thread_limit()
        self.streams_moved = arrays  # arrays moved per element: 3 backward, 2 forward (x read once)

    @property
    def parallel(self):
        """run_parallel's entry, loaded at the first big call (a cold process pays for what it uses)."""
        if self._parallel is None:
            self._parallel = self.kernels.parallel_entry(self.entry_dtype)
        return self._parallel

    def __call__(self, a, b, out):
        """out = select(a, b), allocating out if None; None where the call is not for the lane."""
        dtype, shape = self.dtype, a.shape
        if (a.dtype is not dtype and a.dtype != dtype) or (b.dtype is not dtype and b.dtype != dtype) \
                or b.shape != shape or a.ndim > self.max_rank:
            return None
        af, bf = a.flags, b.flags
        if not (af.c_contiguous and bf.c_contiguous and af.aligned and bf.aligned):
            return None
        if out is None:
            out = np.empty(shape, dtype)
        elif type(out) is not np.ndarray or (out.dtype is not dtype and out.dtype != dtype) or out.shape != shape:
            return None
        else:
            flags = out.flags
            if not (flags.c_contiguous and flags.aligned and flags.writeable):
                return None
        if a.ndim != 1:
            a, b, o = a.reshape(-1), b.reshape(-1), out.reshape(-1)
        else:
            o = out
        nbytes = a.shape[0] * self.itemsize
        # fast.numba_workers' rule, written out: a call costs more than this comparison on small calls
        if nbytes < 2 * fast.PARALLEL_MIN or fast.in_forked_child:
            clobbered = self.serial(a, b, o, self.params, False)
        else:
            workers = min(self.threads, nbytes // fast.PARALLEL_MIN)
            with self.lock:
                clobbered = self.parallel(a, b, o, self.params, workers, fast.streams(nbytes, self.streams_moved))
        return None if clobbered else out  # a shifted alias of an input: the general way copies first


def _make_lane(dtype: np.dtype, sel, max_rank: int, arrays: int):
    """The C lane where it was built (and the engine allows it), else the numba lane, else False."""
    compiled = fast.compiled_lane()
    if compiled is not None:
        return compiled.Lane(dtype, [int(v) for v in sel.params], max_rank, arrays, fast.C_PARALLEL_MIN,
                             fast.stream_moved_min(), fast.threads_allowed())
    kernels = fast.default_kernels()
    return False if kernels is None else _NumbaLane(kernels, dtype, sel, max_rank, arrays)


def _learn(memo: dict, key, dtype: np.dtype, planner, planner_args: tuple, arrays: int):
    """The lane for a key seen for the first time, or False (planner(*planner_args): no closure in the
    callers, whose every variable would otherwise become a cell, ~0.6 us a call). Thresholds that compare unequal to
    themselves (NaN) would never hit, so they are not stored."""
    try:
        plan = planner(*planner_args)
    except (TypeError, ValueError, OverflowError):
        return False  # the general way raises it, with its message
    sel = selection(plan)
    lane = False
    if not sel.empty and plan.dtype == dtype:
        max_rank = _RANK_UNLIMITED if plan.semantics == "torch" else ascend_rules.MAX_RANK
        lane = _make_lane(plan.dtype, sel, max_rank, arrays)
    if all(x == x for x in key):
        memo_store(memo, key, lane)
    return lane


def threshold_backward(grad: np.ndarray, feature: np.ndarray, threshold, semantics: str, out):
    """opsnn.threshold_backward for numpy arrays, or None where the general way must answer."""
    try:  # free unless it raises: an unhashable argument (a list, an array) is not for the lane
        lane = _BACKWARD.get(key := (semantics, grad.dtype, type(threshold), threshold))
    except TypeError:
        return None
    if lane is None:
        if type(threshold) not in MEMO_SCALAR_TYPES or feature.dtype != grad.dtype:
            return None
        lane = _learn(_BACKWARD, key, grad.dtype, plan_backward, (grad, feature, threshold, semantics), 3)
    return lane(grad, feature, out) if lane else None


def threshold(x: np.ndarray, threshold, value, out):
    """opsnn.threshold (torch semantics) for a numpy array, or None where the general way must answer."""
    try:  # as above; an array `value` also fails in the sign test (ValueError), a complex one in copysign
        key = (x.dtype, type(threshold), threshold, type(value), value, value == 0 and math.copysign(1.0, value) < 0)
        lane = _FORWARD.get(key)
    except (TypeError, ValueError):
        return None
    if lane is None:
        if type(threshold) not in MEMO_SCALAR_TYPES or type(value) not in MEMO_SCALAR_TYPES:
            return None
        lane = _learn(_FORWARD, key, x.dtype, plan_forward, (x, threshold, value), 2)
    return lane(x, x, out) if lane else None
