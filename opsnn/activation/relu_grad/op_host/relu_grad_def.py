"""ReluGrad operator definition, as data: backprops = gradients * (features > 0).

On Ascend910B ReluGrad is a built-in kernel of CANN (not shipped as AscendC in ops-nn);
opsnn models it as an AscendC kernel in the style of ThresholdGradV2D, over the dtypes
aclnnThresholdBackward hands it."""
from opsnn.opdef import AICoreConfig, OpDef, TensorDef, register

DTYPES = ("float16", "float32", "bfloat16", "int32", "int8", "uint8")
_ND = ("ND",) * len(DTYPES)


def _tensor(name: str) -> TensorDef:
    return TensorDef(name, "REQUIRED", DTYPES, _ND, _ND)


RELU_GRAD = register(OpDef(
    op_type="ReluGrad",
    inputs=(_tensor("gradients"), _tensor("features")),
    outputs=(_tensor("backprops"),),
    attrs=(),
    aicore={
        "ascend910b": AICoreConfig(
            dynamic_compile_static=True,
            dynamic_format=False,
            dynamic_rank=True,
            dynamic_shape=True,
            need_check_support=False,
            precision_reduce=True,
            extend_cfg_info=(("opFile.value", "relu_grad"),),
        ),
    },
))
