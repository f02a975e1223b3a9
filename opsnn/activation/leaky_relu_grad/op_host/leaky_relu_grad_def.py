"""LeakyReluGrad's operator definition (docs/leaky-relu-grad.md §2), as data.

Upstream registers the AscendC kernel for ascend950 only; on Ascend910B the op type is a CANN
built-in TBE kernel outside ops-nn (our l0 runs its functional model there, op_api/leaky_relu_grad.py).
The three tensors share one dtype (index-wise lists); no AutoContiguous, unlike ThresholdGradV2D."""
from opsnn.opdef import AttrDef, OpDef, elementwise_aicore, nd_tensor, register

DTYPES = ("bfloat16", "float16", "float32")
DEFAULT_NEGATIVE_SLOPE = 0.0

LEAKY_RELU_GRAD = register(OpDef(
    op_type="LeakyReluGrad",
    inputs=(nd_tensor("gradients", DTYPES), nd_tensor("features", DTYPES)),
    outputs=(nd_tensor("backprops", DTYPES),),
    attrs=(AttrDef("negative_slope", "OPTIONAL", "Float", DEFAULT_NEGATIVE_SLOPE),),
    aicore={
        "ascend950": elementwise_aicore("leaky_relu_grad_apt"),
    },
))
