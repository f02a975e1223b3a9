"""SigmoidGrad's definition (upstream op_host/sigmoid_grad_def.cpp, and the experimental 910B
one) and its shape inference, as data: inputs y (the forward's output) and dy, output z, one
binary per dtype with all three of it, ND. Upstream registers the arch35 kernel
(sigmoid_grad_apt) for ascend950 and the experimental block-split kernel for ascend910b."""
from __future__ import annotations

from opsnn.op_common.infershape import infer_elementwise
from opsnn.opdef import OpDef, elementwise_aicore, nd_tensor, register

DTYPES = ("float16", "bfloat16", "float32")

SIGMOID_GRAD = register(OpDef(
    op_type="SigmoidGrad",
    inputs=(nd_tensor("y", DTYPES), nd_tensor("dy", DTYPES)),
    outputs=(nd_tensor("z", DTYPES),),
    attrs=(),
    aicore={"ascend910b": elementwise_aicore("sigmoid_grad"), "ascend950": elementwise_aicore("sigmoid_grad_apt")},
))

infer_shape = infer_elementwise  # InferShape4Elewise: input 0's shape
