"""ReluGrad operator definition, as data: backprops = gradients * (features > 0).

On Ascend910B ReluGrad is a built-in kernel of CANN (not shipped as AscendC in ops-nn);
opsnn models it as an AscendC kernel in the style of ThresholdGradV2D, over the dtypes
aclnnThresholdBackward hands it."""
from opsnn.opdef import OpDef, elementwise_aicore, nd_tensor, register

DTYPES = ("float16", "float32", "bfloat16", "int32", "int8", "uint8")


RELU_GRAD = register(OpDef(
    op_type="ReluGrad",
    inputs=(nd_tensor("gradients", DTYPES), nd_tensor("features", DTYPES)),
    outputs=(nd_tensor("backprops", DTYPES),),
    attrs=(),
    aicore={
        "ascend910b": elementwise_aicore("relu_grad"),
    },
))
