"""ThresholdV2 operator definition (docs/threshold-v2.md §2), as data: the op behind aclnnThreshold.

Upstream registers it for ascend950 only; on Ascend910B the same op type is a built-in TBE
kernel outside ops-nn (our l0 runs a functional model of it there, see op_api/threshold.py)."""
from opsnn.opdef import OpDef, elementwise_aicore, nd_tensor, register

# One binary per dtype, every tensor of the same dtype (index-wise combinations).
DTYPES = ("int64", "int32", "int16", "float32", "float16", "bfloat16", "int8", "uint8")


THRESHOLD_V2 = register(OpDef(
    op_type="ThresholdV2",
    inputs=(nd_tensor("x", DTYPES), nd_tensor("threshold", DTYPES), nd_tensor("value", DTYPES, "OPTIONAL")),
    outputs=(nd_tensor("y", DTYPES),),
    attrs=(),
    aicore={
        "ascend950": elementwise_aicore(),
    },
))
