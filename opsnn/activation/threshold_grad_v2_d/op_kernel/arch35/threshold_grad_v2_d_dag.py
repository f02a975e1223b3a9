"""The three arch35 DAGs of ThresholdGradV2D (upstream threshold_grad_v2_d_dag.h), per dtype:

    out = (float(self) <= threshold) ? 0.0f : float(grad), back to the tensor type

compared in float32 against the float32 attr (never rounded to the tensor type). fp16 / bf16 /
fp32 widen exactly; int32 goes to float with round-to-nearest-even (inexact beyond 2^24, for the
comparison and for the grad); int8 / uint8 go through half (exact). The result is narrowed with
RINT, exact because it is a zero or a widened input."""
from __future__ import annotations

from functools import cache

from opsnn.atvoss import CMP, Cast, Compare, Const, CopyInBrc, CopyOut, Dag, Duplicate, RoundMode, Select, Var

GRAD, SELF = 0, 1  # input order: gradOutput, self
DAG_DTYPES = ("float16", "bfloat16", "float32", "int32", "int8", "uint8")
_VIA_HALF = ("int8", "uint8")


def _widen(node, dtype: str):
    if dtype in _VIA_HALF:
        return Cast(Cast(node, "float16", RoundMode.CAST_NONE), "float32", RoundMode.CAST_NONE)
    mode = RoundMode.CAST_RINT if dtype == "int32" else RoundMode.CAST_NONE
    return Cast(node, "float32", mode)  # a no-op Cast for float32: the DAG drops it


def _narrow(node, dtype: str):
    if dtype in _VIA_HALF:
        return Cast(Cast(node, "float16", RoundMode.CAST_RINT), dtype, RoundMode.CAST_RINT)
    return Cast(node, dtype, RoundMode.CAST_RINT)


@cache
def threshold_grad_v2_d_dag(dtype: str) -> Dag:
    """ThresholdGradV2DDag<T> / ThresholdGradV2DInt32Dag / ThresholdGradV2D8BDag for `dtype`."""
    if dtype not in DAG_DTYPES:
        raise ValueError(f"ThresholdGradV2D (arch35) has no DAG for {dtype}; supported: {', '.join(DAG_DTYPES)}")
    self_f = _widen(CopyInBrc(SELF, dtype), dtype)
    grad_f = _widen(CopyInBrc(GRAD, dtype), dtype)
    mask = Compare(self_f, Duplicate(Var(0, "float32")), CMP.LE)
    result = Select(mask, Duplicate(Const(0.0, "float32")), grad_f)
    name = {"int32": "ThresholdGradV2DInt32Dag", "int8": "ThresholdGradV2D8BDag",
            "uint8": "ThresholdGradV2D8BDag"}.get(dtype, "ThresholdGradV2DDag")
    return Dag(f"{name}<{dtype}>", [CopyOut(_narrow(result, dtype), 0)])
