"""ThresholdV2 operator definition (docs/threshold-v2.md §2), as data: the op behind aclnnThreshold.

Upstream registers it for ascend950 only; on Ascend910B the same op type is a built-in TBE
kernel outside ops-nn (our l0 runs a functional model of it there, see op_api/threshold.py)."""
from opsnn.opdef import AICoreConfig, OpDef, TensorDef, register

# One binary per dtype, every tensor of the same dtype (index-wise combinations).
DTYPES = ("int64", "int32", "int16", "float32", "float16", "bfloat16", "int8", "uint8")
_ND = ("ND",) * len(DTYPES)


def _tensor(name: str, param_type: str = "REQUIRED") -> TensorDef:
    return TensorDef(name, param_type, DTYPES, _ND, _ND)


THRESHOLD_V2 = register(OpDef(
    op_type="ThresholdV2",
    inputs=(_tensor("x"), _tensor("threshold"), _tensor("value", "OPTIONAL")),
    outputs=(_tensor("y"),),
    attrs=(),
    aicore={
        "ascend950": AICoreConfig(
            dynamic_compile_static=True,
            dynamic_format=False,
            dynamic_rank=True,
            dynamic_shape=True,
            need_check_support=False,
            precision_reduce=True,
            extend_cfg_info=(),
        ),
    },
))
