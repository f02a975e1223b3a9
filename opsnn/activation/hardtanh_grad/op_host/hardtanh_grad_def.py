"""HardtanhGrad operator definition (upstream op_host/hardtanh_grad_def.cpp), as data.

Inputs `result` (the forward's input: aclnn passes self here) and `grad` (aclnn's gradOutput),
output `y`; one binary per dtype, all three tensors of that dtype; ND only, no AutoContiguous.
Attrs min_val / max_val: REQUIRED floats with defaults -1.0 / 1.0. Upstream registers the
AscendC kernel for ascend950 only; on Ascend910B the same op type is CANN's built-in TBE kernel
(functional_models.hardtanh_grad_910b stands in for it)."""
from opsnn.opdef import AttrDef, OpDef, elementwise_aicore, nd_tensor, register

DTYPES = ("bfloat16", "float16", "float32")
MIN_VAL_DEFAULT = -1.0
MAX_VAL_DEFAULT = 1.0

HARDTANH_GRAD = register(OpDef(
    op_type="HardtanhGrad",
    inputs=(nd_tensor("result", DTYPES), nd_tensor("grad", DTYPES)),
    outputs=(nd_tensor("y", DTYPES),),
    attrs=(AttrDef("min_val", "REQUIRED", "Float", MIN_VAL_DEFAULT),
           AttrDef("max_val", "REQUIRED", "Float", MAX_VAL_DEFAULT)),
    aicore={
        "ascend950": elementwise_aicore("hardtanh_grad_apt"),
    },
))
