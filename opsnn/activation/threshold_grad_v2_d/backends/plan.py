"""One call, validated and resolved: output dtype and shape, the rule, the threshold as the kernel sees it.

Both backends start from a Plan, so validation (and its error types) is written once; what they do
with it (formula vs fused tiles) is theirs.
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from opsnn.op_common import operands
from opsnn.op_common.api_args import SEMANTICS

from . import ascend_rules, torch_rules

_F32 = np.dtype(np.float32)
_tuple_new = tuple.__new__  # builds a Plan without NamedTuple.__new__'s Python frame (memo hits)


class Plan(NamedTuple):  # a NamedTuple: built on every call, so cheap to build
    semantics: str       # "torch", "ascend910b", "ascend950" ("torch" also for the forward)
    dtype: np.dtype      # compute and output dtype; inputs are cast to it (torch promotion)
    shape: tuple         # broadcast shape of the output
    threshold: object    # numpy scalar: torch -> compare type; ascend -> float32
    relu: bool = False   # ascend, |t| <= FLT_EPSILON: out = grad * (feature > 0)
    fill: object = None  # forward only: the value written where x <= threshold


def broadcast_shape(*shapes) -> tuple:
    return shapes[0] if shapes[0] == shapes[-1] else operands.broadcast_shape(*shapes)


# Memos of the per-call scalar work (dtype rules, threshold conversion and checks), which is most of
# a small call's cost: pure functions of the key, so concurrent writers store equal values.
# Keys hold the scalar's type and value; NaN and signed zeros (where the sign would be lost by
# value equality) are recomputed every time, as are all failures.
_MEMO_MAX = 4096
MEMO_SCALAR_TYPES = frozenset((float, int, np.float64, np.float32, np.float16, np.int64, np.int32, np.int16,
                               np.int8, np.uint8))
_BACKWARD: dict = {}  # (semantics, grad dtype, feature dtype, type(t), t) -> (dtype, threshold, relu)
_FORWARD: dict = {}   # (dtype, type(t), t, type(v), v, sign of a zero v) -> (threshold, fill)


def memo_store(memo: dict, key, value):
    """memo[key] = value, the memo emptied first when full (also the express lane's memos)."""
    if len(memo) >= _MEMO_MAX:
        memo.clear()
    memo[key] = value
    return value


def plan_backward(grad: np.ndarray, feature: np.ndarray, threshold, semantics: str) -> Plan:
    gd, fd = grad.dtype, feature.dtype
    key = None
    if gd == fd and type(threshold) in MEMO_SCALAR_TYPES and threshold == threshold and threshold != 0:
        key = (semantics, gd, type(threshold), threshold)
        hit = _BACKWARD.get(key)
        if hit is not None:
            if semantics != "torch":
                ascend_rules.check_rank(semantics, grad, feature)
            gs, fs = grad.shape, feature.shape
            return _tuple_new(Plan, (semantics, hit[0], gs if gs == fs else broadcast_shape(gs, fs), hit[1], hit[2],
                                     None))
    if semantics == "torch":
        dtype = torch_rules.result_dtype(grad, feature)
        if type(threshold) is float and dtype == _F32:  # the common case, kept cheap for small calls
            t = torch_rules.float32_threshold(threshold)
        else:
            compare_type = _F32 if dtype in torch_rules.REDUCED_FLOATS else dtype
            t = torch_rules.scalar_to(threshold, compare_type)
        if key is not None:
            memo_store(_BACKWARD, key, (dtype, t, False))
        return Plan("torch", dtype, broadcast_shape(grad.shape, feature.shape), t)
    if semantics not in SEMANTICS:
        raise ValueError(f"unknown semantics {semantics!r}; known: {', '.join(SEMANTICS)}")
    t32 = ascend_rules.threshold_float32(threshold)
    relu = ascend_rules.is_relu_threshold(t32)
    ascend_rules.check_dtypes(semantics, grad.dtype, feature.dtype, relu)
    ascend_rules.check_rank(semantics, grad, feature)
    if key is not None:
        memo_store(_BACKWARD, key, (feature.dtype, t32, relu))
    return Plan(semantics, feature.dtype, broadcast_shape(grad.shape, feature.shape), t32, relu)


def plan_forward(x: np.ndarray, threshold, value) -> Plan:
    key = None
    if (type(threshold) in MEMO_SCALAR_TYPES and type(value) in MEMO_SCALAR_TYPES and threshold == threshold
            and threshold != 0 and value == value):
        key = (x.dtype, type(threshold), threshold, type(value), value, value == 0 and math.copysign(1.0, value))
        hit = _FORWARD.get(key)
        if hit is not None:
            return _tuple_new(Plan, ("torch", x.dtype, x.shape, hit[0], False, hit[1]))
    torch_rules.check_known(x.dtype)
    if x.dtype not in torch_rules.KERNEL_DTYPES:
        raise TypeError(f"threshold is not implemented for {x.dtype} (torch: threshold_cpu)")
    reduced = x.dtype in torch_rules.REDUCED_FLOATS
    t = torch_rules.scalar_to(threshold, _F32 if reduced else x.dtype)
    fill = torch_rules.scalar_to(value, x.dtype, what="value")
    if key is not None:
        memo_store(_FORWARD, key, (t, fill))
    return Plan("torch", x.dtype, x.shape, t, fill=fill)
