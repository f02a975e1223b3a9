"""The arch35 DAG of LeakyReluGrad (upstream leaky_relu_grad_dag.h), one per dtype U:

    mask = features > 0          compared in U itself, against a tile of U zeros (NaN: false)
    g    = float32(gradients)    exact widening (no node for float32)
    out  = U(mask ? g : g * negative_slope)   the product in float32 with the float32 attr
                                               (never rounded to U), narrowed once with RINT

so a -0.0 or NaN feature takes the product, and an inf or NaN grad there gives NaN whatever
the slope (a multiply, not a select). Inputs: 0 = gradients, 1 = features; Var 0 = the slope
from the tiling's scalar_data."""
from __future__ import annotations

from functools import cache

from opsnn.atvoss import CMP, Cast, Compare, Const, CopyInBrc, CopyOut, Dag, Duplicate, Mul, RoundMode, Select, Var

GRADIENTS, FEATURES = 0, 1
DAG_DTYPES = ("float16", "bfloat16", "float32")
_CPP = {"float16": "half", "bfloat16": "bfloat16_t", "float32": "float"}


@cache
def leaky_relu_grad_dag(dtype: str) -> Dag:
    """LeakyReluGradDag<U>; ValueError for a dtype without a binary."""
    if dtype not in DAG_DTYPES:
        raise ValueError(f"LeakyReluGrad (arch35) has no DAG for {dtype}; supported: {', '.join(DAG_DTYPES)}")
    features = CopyInBrc(FEATURES, dtype)
    mask = Compare(features, Duplicate(Const(0, dtype)), CMP.GT)
    grad = Cast(CopyInBrc(GRADIENTS, dtype), "float32", RoundMode.CAST_NONE)  # dropped for float32
    scaled = Mul(grad, Var(0, "float32"))  # Muls: the slope is a scalar, not a tile
    result = Cast(Select(mask, grad, scaled), dtype, RoundMode.CAST_RINT)  # dropped for float32
    return Dag(f"LeakyReluGradDag<{_CPP[dtype]}>", [CopyOut(result, 0)])
