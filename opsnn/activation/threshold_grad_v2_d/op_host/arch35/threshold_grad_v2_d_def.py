"""The arch35 operator definition (upstream threshold_grad_v2_d_def.cpp, ascend950 only). It
differs from the 910B record: inputs gradOutput / self, output out, and an OPTIONAL threshold
attr defaulting to 1.0. Kept as data beside the 910B record, not registered twice."""
from opsnn.opdef import AICoreConfig, AttrDef, OpDef, TensorDef

DTYPES = ("float16", "float32", "bfloat16", "int32", "int8", "uint8")
_ND = ("ND",) * len(DTYPES)


def _tensor(name: str) -> TensorDef:
    return TensorDef(name, "REQUIRED", DTYPES, _ND, _ND)


THRESHOLD_GRAD_V2D_ARCH35 = OpDef(
    op_type="ThresholdGradV2D",
    inputs=(_tensor("gradOutput"), _tensor("self")),
    outputs=(_tensor("out"),),
    attrs=(AttrDef("threshold", "OPTIONAL", "Float", 1.0),),
    aicore={
        "ascend950": AICoreConfig(
            dynamic_compile_static=True,
            dynamic_format=False,
            dynamic_rank=True,
            dynamic_shape=True,
            need_check_support=False,
            precision_reduce=True,
            extend_cfg_info=(("opFile.value", "threshold_grad_v2_d"),),
        ),
    },
)
