"""ReluGrad's arch35 DAG: out = gradients * (features > 0 ? 1 : 0), a multiply (so an inf or
NaN gradient where the feature is not positive gives NaN, a negative one -0.0).

float32 / float16 / int32 / int64 compute in their own type; bfloat16 in float32 and int8 /
uint8 in half (the widening and the narrowing of a product by 0 or 1 are exact). A NaN feature
compares false, so its gradient is multiplied by 0: the project's ReluGrad model (see
docs/arch35-atvoss.md for why this is an assumption about upstream's compare)."""
from __future__ import annotations

from functools import cache

from opsnn.atvoss import CMP, Cast, Compare, Const, CopyInBrc, CopyOut, Dag, Mul, RoundMode, Select

GRADIENTS, FEATURES = 0, 1
DAG_DTYPES = ("float32", "float16", "bfloat16", "int32", "int8", "uint8", "int64")
_COMPUTE = {"bfloat16": "float32", "int8": "float16", "uint8": "float16"}


@cache
def relu_grad_dag(dtype: str) -> Dag:
    if dtype not in DAG_DTYPES:
        raise ValueError(f"ReluGrad (arch35) has no DAG for {dtype}; supported: {', '.join(DAG_DTYPES)}")
    ct = _COMPUTE.get(dtype, dtype)
    features = Cast(CopyInBrc(FEATURES, dtype), ct)  # no-op Casts vanish from the DAG
    gradients = Cast(CopyInBrc(GRADIENTS, dtype), ct)
    positive = Compare(features, Const(0, ct), CMP.GT)
    product = Mul(gradients, Select(positive, Const(1, ct), Const(0, ct)))
    return Dag(f"ReluGradDag<{dtype}>", [CopyOut(Cast(product, dtype, RoundMode.CAST_RINT), 0)])
