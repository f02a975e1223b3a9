"""ThresholdGradV2D operator definition (docs/threshold-grad-v2d.md §2), as data."""
from opsnn.opdef import AttrDef, OpDef, elementwise_aicore, nd_tensor, register

DTYPES = ("float16", "float32", "bfloat16", "int32", "int8", "uint8")


THRESHOLD_GRAD_V2D = register(OpDef(
    op_type="ThresholdGradV2D",
    inputs=(nd_tensor("input_gradient", DTYPES), nd_tensor("input_feature", DTYPES)),
    outputs=(nd_tensor("output_backprops", DTYPES),),
    attrs=(AttrDef("threshold", "REQUIRED", "Float", 1.0),),
    aicore={
        "ascend910b": elementwise_aicore("threshold_grad_v2_d"),
    },
))
