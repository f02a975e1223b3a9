"""opsnn.threshold: torch.nn.functional.threshold, and what aclnnThreshold returns on each SoC, on
numpy arrays; built by opsnn.op_common.elementwise from this declaration and its rules (torch's:
threshold_grad_v2_d/backends' kept range; the ascend ones: ascend_semantics.py, on the engine where it is built)."""
from __future__ import annotations

import numpy as np

from opsnn.activation.threshold_grad_v2_d.backends import express
from opsnn.activation.threshold_grad_v2_d.backends.plan import plan_forward
from opsnn.op_common import elementwise as ew


def _torch_plan(call):
    (x,), (threshold, value) = call.tensors, call.scalars
    return plan_forward(x, threshold, value)


def _torch_run(call, plan):
    (x,) = call.tensors
    if call.backend == "reference":
        from opsnn.activation.threshold_grad_v2_d.backends import reference
        return call.deliver(reference.threshold(x, plan))
    from opsnn.activation.threshold_grad_v2_d.backends import fast
    return fast.threshold(x, plan, call.out)


def _ascend_plan(call):
    from . import ascend_semantics
    (x,), (threshold, value) = call.tensors, call.scalars
    ascend_semantics.check_call(x, threshold, value, call.semantics)
    return x  # the result has x's dtype and shape


def _ascend_run(call, plan):
    from . import ascend_semantics
    (x,), (threshold, value), semantics, out = call.tensors, call.scalars, call.semantics, call.out
    if call.backend == "emulator":
        from opsnn.activation.threshold_grad_v2_d.backends.emulator import threshold as emulated
        return call.deliver(np.asarray(emulated(x, threshold, value, semantics)))
    if call.backend in ("auto", "fast"):
        from opsnn.activation.threshold_grad_v2_d.backends import fast
        result = fast.threshold_ascend(x, threshold, value, semantics, out)
        if result is not None:
            if call.backend == "auto":
                express.learn_ascend(x, threshold, value, semantics)
            return result
    return call.deliver(ascend_semantics.threshold(x, threshold, value, semantics))


threshold = ew.build(ew.Elementwise(
    name="threshold", tensors=("x",), scalars=(ew.Scalar("threshold"), ew.Scalar("value", read=ew.read_real)),
    torch=ew.Rule(_torch_plan, _torch_run, fold=False), ascend=ew.Rule(_ascend_plan, _ascend_run, emulator=True),
    express=express.threshold, keywords=("out", "semantics", "backend"),
    doc="""torch.nn.functional.threshold: x where x > threshold, else value, in x's dtype.

    semantics: "torch" (torch's scalar checks and rounding; halves compared in float32) or
    "ascend910b" / "ascend950" (aclnnThreshold: scalars converted to x's dtype as the host does,
    compared in x's dtype; 910B computes int8/uint8/int32/bfloat16 through float32, so int32
    beyond 2**24 rounds). backend: "fast" (= "auto"), "reference", or "emulator" (ascend
    semantics only: aclnnThreshold on the emulated device). out: an array of x's shape and
    dtype to write into; it may be x itself. threshold, value: real numbers (Python or numpy
    scalars, or 0-d arrays).
    """))
