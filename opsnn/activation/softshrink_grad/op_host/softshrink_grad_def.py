"""SoftShrinkGrad's definition (upstream op_host/soft_shrink_grad_def.cpp) as data: inputs
input_grad and input_x, output output_y, one dtype for all three, ND; the optional attr lambd
(default 0.5); an AICore config for ascend950 only (no precision reduce)."""
from __future__ import annotations

from dataclasses import replace

from opsnn.opdef import AttrDef, OpDef, elementwise_aicore, nd_tensor, register

DTYPES = ("float16", "float32", "bfloat16")

SOFT_SHRINK_GRAD = register(OpDef(
    op_type="SoftShrinkGrad",
    inputs=(nd_tensor("input_grad", DTYPES), nd_tensor("input_x", DTYPES)),
    outputs=(nd_tensor("output_y", DTYPES),),
    attrs=(AttrDef("lambd", "OPTIONAL", "Float", 0.5),),
    aicore={"ascend950": replace(elementwise_aicore("soft_shrink_grad"), precision_reduce=False)},
))
