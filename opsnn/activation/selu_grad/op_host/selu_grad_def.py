"""SeluGrad's definition (upstream op_host/selu_grad_def.cpp; the experimental one registers
ascend910b and ascend910_93) as data: inputs gradients and outputs (SELU's forward result),
output y, each binary one dtype for all three, ND, AutoContiguous. Upstream lists int32, int8 and
uint8 too; opsnn's kernels are built for the floating dtypes only (KERNEL_DTYPES)."""
from __future__ import annotations

from opsnn.op_common.infershape import infer_elementwise
from opsnn.opdef import OpDef, elementwise_aicore, nd_tensor, register

DTYPES = ("float16", "float32", "bfloat16", "int32", "int8", "uint8")
KERNEL_DTYPES = ("float16", "float32", "bfloat16")

SELU_GRAD = register(OpDef(
    op_type="SeluGrad",
    inputs=(nd_tensor("gradients", DTYPES), nd_tensor("outputs", DTYPES)),
    outputs=(nd_tensor("y", DTYPES),),
    attrs=(),
    aicore={family: elementwise_aicore() for family in ("ascend910b", "ascend950")},
))

infer_shape = infer_elementwise  # InferShape4Elewise: input 0's shape
