"""The oracle: each semantics as its plain formula on whole (broadcast) arrays, readable over fast.

torch semantics: PyTorch's CPU rule, stated here. The NPU semantics: the operators' functional
models (each rule stated once, beside its operator). Nothing here is shared with the fast path,
which derives its own loops (keep_range), so the two check each other. Results are fresh arrays
of plan.shape and plan.dtype."""
from __future__ import annotations

import numpy as np

from opsnn.activation.relu_grad.functional_models import relu_grad
from opsnn.activation.threshold_grad_v2_d.functional_models import a2_threshold_grad, arch35_threshold_grad
from opsnn.dtypes import bfloat16

from .plan import Plan

_F32 = np.dtype(np.float32)
_HALVES = (np.dtype(np.float16), bfloat16)
_KERNEL_MODEL = {"ascend910b": a2_threshold_grad, "ascend950": arch35_threshold_grad}


def threshold_backward(grad: np.ndarray, feature: np.ndarray, plan: Plan) -> np.ndarray:
    with np.errstate(over="ignore", invalid="ignore"):  # torch's promotion casts overflow to inf too
        g, f = np.broadcast_arrays(np.asarray(grad, plan.dtype), np.asarray(feature, plan.dtype))
    if plan.semantics == "torch":
        return torch_rule(g, f, plan.threshold, np.zeros((), plan.dtype))
    if plan.relu:
        return relu_grad(g, f)
    return _KERNEL_MODEL[plan.semantics](g, f, plan.threshold)


def threshold(x: np.ndarray, plan: Plan) -> np.ndarray:
    return torch_rule(np.asarray(x), np.asarray(x), plan.threshold, plan.fill)


def torch_rule(g, f, t, fill):
    """torch: feature <= t -> fill, else grad (NaN feature keeps grad); halves compared in float32."""
    if f.dtype in _HALVES:
        f = f.astype(_F32)
    return np.where(f <= t, fill, g).astype(g.dtype, copy=False)
