"""ThresholdGradV2D operator definition (spec §2), as data."""
from opsnn.opdef import AICoreConfig, AttrDef, OpDef, TensorDef, register

DTYPES = ("float16", "float32", "bfloat16", "int32", "int8", "uint8")
_ND = ("ND",) * len(DTYPES)


def _tensor(name: str) -> TensorDef:
    return TensorDef(name, "REQUIRED", DTYPES, _ND, _ND)


THRESHOLD_GRAD_V2D = register(OpDef(
    op_type="ThresholdGradV2D",
    inputs=(_tensor("input_gradient"), _tensor("input_feature")),
    outputs=(_tensor("output_backprops"),),
    attrs=(AttrDef("threshold", "REQUIRED", "Float", 1.0),),
    aicore={
        "ascend910b": AICoreConfig(
            dynamic_compile_static=True,
            dynamic_format=False,
            dynamic_rank=True,
            dynamic_shape=True,
            need_check_support=False,
            precision_reduce=True,
            extend_cfg_info=(("opFile.value", "threshold_grad_v2_d"),),
        ),
    },
))
