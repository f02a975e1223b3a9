"""One call, validated and resolved: output dtype and shape, the rule, the threshold as the kernel sees it.

Both backends start from a Plan, so validation (and its error types) is written once; what they do
with it (formula vs fused tiles) is theirs.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from opsnn.backends import SEMANTICS, ascend_rules, torch_rules

_F32 = np.dtype(np.float32)


class Plan(NamedTuple):  # a NamedTuple: built on every call, so cheap to build
    semantics: str       # "torch", "ascend910b", "ascend950" ("torch" also for the forward)
    dtype: np.dtype      # compute and output dtype; inputs are cast to it (torch promotion)
    shape: tuple         # broadcast shape of the output
    threshold: object    # numpy scalar: torch -> compare type; ascend -> float32
    relu: bool = False   # ascend, |t| <= FLT_EPSILON: out = grad * (feature > 0)
    fill: object = None  # forward only: the value written where x <= threshold


def broadcast_shape(*shapes) -> tuple:
    if shapes[0] == shapes[-1]:
        return shapes[0]
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        raise ValueError(f"shapes {' and '.join(map(str, shapes))} are not broadcastable") from None


def plan_backward(grad: np.ndarray, feature: np.ndarray, threshold, semantics: str) -> Plan:
    if semantics == "torch":
        dtype = torch_rules.result_dtype(grad, feature)
        if type(threshold) is float and dtype == _F32:  # the common case, kept cheap for small calls
            t = torch_rules.float32_threshold(threshold)
            return Plan("torch", dtype, broadcast_shape(grad.shape, feature.shape), t)
        compare_type = _F32 if dtype in torch_rules.REDUCED_FLOATS else dtype
        t = torch_rules.scalar_to(threshold, compare_type)
        return Plan("torch", dtype, broadcast_shape(grad.shape, feature.shape), t)
    if semantics not in SEMANTICS:
        raise ValueError(f"unknown semantics {semantics!r}; known: {', '.join(SEMANTICS)}")
    t32 = ascend_rules.threshold_float32(threshold)
    relu = ascend_rules.is_relu_threshold(t32)
    ascend_rules.check_dtypes(semantics, grad.dtype, feature.dtype, relu)
    ascend_rules.check_rank(semantics, grad, feature)
    return Plan(semantics, feature.dtype, broadcast_shape(grad.shape, feature.shape), t32, relu)


def plan_forward(x: np.ndarray, threshold, value) -> Plan:
    torch_rules.check_known(x.dtype)
    if x.dtype not in torch_rules.KERNEL_DTYPES:
        raise TypeError(f"threshold is not implemented for {x.dtype} (torch: threshold_cpu)")
    reduced = x.dtype in torch_rules.REDUCED_FLOATS
    t = torch_rules.scalar_to(threshold, _F32 if reduced else x.dtype)
    fill = torch_rules.scalar_to(value, x.dtype, what="value")
    return Plan("torch", x.dtype, x.shape, t, fill=fill)
