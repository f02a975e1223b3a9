"""The arch35 operator definition (upstream threshold_grad_v2_d_def.cpp, ascend950 only). It
differs from the 910B record: inputs gradOutput / self, output out, and an OPTIONAL threshold
attr defaulting to 1.0. Kept as data beside the 910B record, not registered twice."""
from opsnn.opdef import AttrDef, OpDef, elementwise_aicore, nd_tensor

DTYPES = ("float16", "float32", "bfloat16", "int32", "int8", "uint8")


THRESHOLD_GRAD_V2D_ARCH35 = OpDef(
    op_type="ThresholdGradV2D",
    inputs=(nd_tensor("gradOutput", DTYPES), nd_tensor("self", DTYPES)),
    outputs=(nd_tensor("out", DTYPES),),
    attrs=(AttrDef("threshold", "OPTIONAL", "Float", 1.0),),
    aicore={
        "ascend950": elementwise_aicore("threshold_grad_v2_d"),
    },
)
