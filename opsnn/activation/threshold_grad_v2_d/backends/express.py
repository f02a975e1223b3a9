"""The express lane: the common call straight to the C engine, with as little Python as possible.

Below ~64 K elements a call is almost all overhead (the loop takes 0.1-1 us), so the lane skips
the Plan and the Selection lookup: one memo lookup keyed by what decides the kernel (semantics,
dtype, the threshold's type and value) gives a lane, the C engine's Lane
(opsnn/engine/_select.c): lane(a, b, out) checks the operands in C and runs any layout of
operands of its dtype, or declines with None. Everything a lane declines (operands of other dtypes,
shapes that do not broadcast, an out of the wrong shape or dtype...) goes the general way through
plan.py and fast.py, which also raises every error: a lane never raises on its own and never answers
a call the general way would refuse (a memo entry exists only for a (semantics, dtype, threshold)
that planned cleanly). So the API's argument checks (api.py) run only where the lane declines: a
memo keyed by the scalars' types only hits for types those checks accept. Without the C engine
(no compiler at install, OPSNN_FAST_ENGINE=numpy) every memo entry is False: the general way.
"""
from __future__ import annotations

import math

import numpy as np

from opsnn.engine import lanes

from . import ascend_rules, fast
from .keep_range import selection
from .plan import MEMO_SCALAR_TYPES, memo_store, plan_backward, plan_forward

# The memos also remember the engine (fast.compiled_lane(), resolved once per process): whoever
# re-resolves it (tests) must give the lane fresh memos too.
_BACKWARD: dict = {}  # (semantics, dtype, type(t), t) -> a lane, or False: not for the lane
_FORWARD: dict = {}   # (semantics, dtype, type(t), t, type(v), v, v is a negative zero) -> a lane, or False


def _make_lane(dtype: np.dtype, sel, max_rank: int, arrays: int):
    """The C engine's Lane where it was built (and the engine allows it), else False."""
    compiled = fast.compiled_lane()
    return False if compiled is None else lanes.lane(dtype, tuple(sel.params.tolist()), arrays, max_rank,
                                                      module=compiled)


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
        max_rank = lanes.ANY_RANK if plan.semantics == "torch" else ascend_rules.MAX_RANK
        lane = _make_lane(plan.dtype, sel, max_rank, arrays)
    if all(x == x for x in key):
        memo_store(memo, key, lane)
    return lane


def threshold_backward(grad: np.ndarray, feature: np.ndarray, threshold, semantics: str, out):
    """opsnn.threshold_backward for numpy arrays, or None where the general way must answer."""
    if type(grad) is not np.ndarray or type(feature) is not np.ndarray:
        return None
    try:  # free unless it raises: an unhashable argument (a list, an array) is not for the lane
        lane = _BACKWARD.get(key := (semantics, grad.dtype, type(threshold), threshold))
    except TypeError:
        return None
    if lane is None:
        if type(threshold) not in MEMO_SCALAR_TYPES or feature.dtype != grad.dtype:
            return None
        lane = _learn(_BACKWARD, key, grad.dtype, plan_backward, (grad, feature, threshold, semantics), 3)
    return lane(grad, feature, out) if lane else None


def _backward_lane(grad: np.ndarray, feature: np.ndarray, threshold, semantics: str):
    """The Lane threshold_backward's express entry answers this call with, where it has learnt one
    (the C ABI replays such a launch without Python: device_mode.FastApi.c_plan), else None."""
    try:
        return _BACKWARD.get((semantics, grad.dtype, type(threshold), threshold)) or None
    except TypeError:
        return None


threshold_backward.lane_of = _backward_lane


def _forward_key(semantics: str, x: np.ndarray, threshold, value):
    """The forward's memo key, or None: an array `value` fails in the sign test (ValueError), a
    complex one in copysign (TypeError)."""
    try:
        return (semantics, x.dtype, type(threshold), threshold, type(value), value,
                value == 0 and math.copysign(1.0, value) < 0)
    except (TypeError, ValueError):
        return None


def threshold(x: np.ndarray, threshold, value, semantics: str, out):
    """opsnn.threshold for a numpy array, or None where the general way must answer. Torch
    semantics plan a key's first call here; the ascend ones are learnt after the general way
    answered (learn_ascend)."""
    if type(x) is not np.ndarray:
        return None
    key = _forward_key(semantics, x, threshold, value)
    try:  # free unless it raises: an unhashable argument is not for the lane
        lane = key is not None and _FORWARD.get(key)
    except TypeError:
        return None
    if lane is None:
        if semantics != "torch" or type(threshold) not in MEMO_SCALAR_TYPES or type(value) not in MEMO_SCALAR_TYPES:
            return None
        lane = _learn(_FORWARD, key, x.dtype, plan_forward, (x, threshold, value), 2)
    return lane(x, x, out) if lane else None


def learn_ascend(x: np.ndarray, threshold, value, semantics: str) -> None:
    """After the general way answered an ascend forward (its checks passed): remember its lane."""
    key = _forward_key(semantics, x, threshold, value)
    if (key is not None and type(threshold) in MEMO_SCALAR_TYPES and type(value) in MEMO_SCALAR_TYPES
            and threshold == threshold and value == value):
        memo_store(_FORWARD, key, fast.ascend_forward_lane(x.dtype, threshold, value, semantics) or False)
