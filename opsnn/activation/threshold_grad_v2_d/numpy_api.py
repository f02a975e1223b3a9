"""opsnn.threshold_backward: torch's threshold_backward, and what aclnnThresholdBackward returns on
each SoC, on numpy arrays; built by opsnn.op_common.elementwise from this declaration and its
rules (the threshold as each semantics reads it, the kept set as one range of the feature's bits:
backends/)."""
from __future__ import annotations

import numpy as np

from opsnn.op_common import elementwise as ew

from .backends import express, fast
from .backends.plan import plan_backward


def _plan(call):
    (grad, feature), (threshold,) = call.tensors, call.scalars
    return plan_backward(grad, feature, threshold, call.semantics)


def _run(call, plan):
    grad, feature = call.tensors
    if call.backend in ("auto", "fast"):
        return fast.threshold_backward(grad, feature, plan, call.out)
    if call.backend == "reference":
        from .backends import reference
        return call.deliver(reference.threshold_backward(grad, feature, plan))
    from .backends.emulator import threshold_backward as emulated
    return call.deliver(np.asarray(emulated(grad, feature, call.scalars[0], call.semantics)))


threshold_backward = ew.build(ew.Elementwise(
    name="threshold_backward", tensors=("grad", "feature"), scalars=(ew.Scalar("threshold"),),
    torch=ew.Rule(_plan, _run), ascend=ew.Rule(_plan, _run, emulator=True, fold=False),
    express=express.threshold_backward, keywords=("out", "semantics", "backend"),
    doc="""out = grad where feature > threshold else 0, under `semantics` (see the spec, §9).

    grad, feature: anything np.asarray takes (bfloat16 as ml_dtypes.bfloat16), broadcast together.
    threshold: a real number (Python or numpy scalar, or a 0-d array); required, as in torch.
    semantics: "torch" (torch.ops.aten.threshold_backward, CPU eager, with its type promotion),
    "ascend910b" or "ascend950" (the NPU kernels: same-dtype inputs, ReluGrad at |t| <= FLT_EPSILON).
    backend: "fast" (= "auto"), "reference" (plain formula) or "emulator" (ascend semantics only).
    out: an array of the result shape and dtype to write into; it may be `grad` itself.
    """))
