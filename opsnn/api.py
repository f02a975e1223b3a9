"""Public numpy API: threshold_backward and its forward, threshold."""
from __future__ import annotations

from typing import Literal, TypeAlias

import numpy as np
import numpy.typing as npt

from opsnn.backends import express
from opsnn.backends.plan import plan_backward, plan_forward
from opsnn.op_common.api_args import check_names, check_out, deliver, real_scalar
from opsnn.op_common.operands import fold_rank, operand

BACKENDS = ("auto", "fast", "emulator", "reference")

# the public signatures' types (annotations only)
Semantics: TypeAlias = Literal["torch", "ascend910b", "ascend950"]
Backend: TypeAlias = Literal["auto", "fast", "emulator", "reference"]
Scalar: TypeAlias = "int | float | bool | np.number | np.bool_"


def threshold_backward(grad: npt.ArrayLike, feature: npt.ArrayLike, threshold: Scalar, *,
                       out: np.ndarray | None = None, semantics: Semantics = "torch",
                       backend: Backend = "auto") -> np.ndarray:
    """out = grad where feature > threshold else 0, under `semantics` (see the spec, §9).

    grad, feature: anything np.asarray takes (bfloat16 as ml_dtypes.bfloat16), broadcast together.
    threshold: a real number (Python or numpy scalar, or a 0-d array); required, as in torch.
    semantics: "torch" (torch.ops.aten.threshold_backward, CPU eager, with its type promotion),
    "ascend910b" or "ascend950" (the NPU kernels: same-dtype inputs, ReluGrad at |t| <= FLT_EPSILON).
    backend: "fast" (= "auto"), "reference" (plain formula) or "emulator" (ascend semantics only).
    out: an array of the result shape and dtype to write into; it may be `grad` itself.
    """
    if backend == "auto" and type(grad) is np.ndarray and type(feature) is np.ndarray:
        result = express.threshold_backward(grad, feature, threshold, semantics, out)
        if result is not None:
            return result
    check_names(semantics, backend, BACKENDS)  # every check below runs before any backend or plan memo sees a value
    threshold = real_scalar(threshold)
    grad, feature = operand(grad, "grad"), operand(feature, "feature")
    if semantics == "torch" and (wide := fold_rank((grad, feature), out)) is not None:
        (grad, feature), folded_out, shape = wide
        result = threshold_backward(grad, feature, threshold, out=folded_out, semantics=semantics, backend=backend)
        return out if out is not None else result.reshape(shape)
    plan = plan_backward(grad, feature, threshold, semantics)
    check_out(out, plan.dtype, plan.shape)
    if backend in ("auto", "fast"):
        from opsnn.backends import fast
        return fast.threshold_backward(grad, feature, plan, out)
    if backend == "reference":
        from opsnn.backends import reference
        return deliver(reference.threshold_backward(grad, feature, plan), out)
    if semantics == "torch":
        raise ValueError('backend="emulator" runs the ascend semantics only')
    from opsnn.backends.emulator import threshold_backward as emulated
    result = np.asarray(emulated(grad, feature, threshold, semantics))
    return deliver(result, out)


def threshold(x: npt.ArrayLike, threshold: Scalar, value: Scalar, *, out: np.ndarray | None = None,
              semantics: Semantics = "torch", backend: Backend = "auto") -> np.ndarray:
    """torch.nn.functional.threshold: x where x > threshold, else value, in x's dtype.

    semantics: "torch" (torch's scalar checks and rounding; halves compared in float32) or
    "ascend910b" / "ascend950" (aclnnThreshold: scalars converted to x's dtype as the host does,
    compared in x's dtype; 910B computes int8/uint8/int32/bfloat16 through float32, so int32
    beyond 2**24 rounds). backend: "fast" (= "auto"), "reference", or "emulator" (ascend
    semantics only: aclnnThreshold on the emulated device). out: an array of x's shape and
    dtype to write into; it may be x itself. threshold, value: real numbers (Python or numpy
    scalars, or 0-d arrays).
    """
    if backend == "auto" and type(x) is np.ndarray:
        result = express.threshold(x, threshold, value, semantics, out)
        if result is not None:
            return result
    check_names(semantics, backend, BACKENDS)
    threshold, value = real_scalar(threshold), real_scalar(value, "value")
    x = operand(x, "x")
    if semantics != "torch":
        from opsnn.activation.threshold_v2 import ascend_semantics
        ascend_semantics.check_call(x, threshold, value, semantics)
        check_out(out, x.dtype, x.shape)
        if backend == "emulator":
            from opsnn.backends.emulator import threshold as emulated
            return deliver(np.asarray(emulated(x, threshold, value, semantics)), out)
        if backend in ("auto", "fast"):
            from opsnn.backends import fast
            result = fast.threshold_ascend(x, threshold, value, semantics, out)
            if result is not None:
                if backend == "auto":
                    express.learn_ascend(x, threshold, value, semantics)
                return result
        return deliver(ascend_semantics.threshold(x, threshold, value, semantics), out)
    if backend == "emulator":
        raise ValueError('backend="emulator" runs the ascend semantics only')
    plan = plan_forward(x, threshold, value)
    check_out(out, plan.dtype, plan.shape)
    if backend == "reference":
        from opsnn.backends import reference
        return deliver(reference.threshold(x, plan), out)
    from opsnn.backends import fast
    return fast.threshold(x, plan, out)
