"""The ThresholdV2 arch35 DAGs (upstream threshold_dag.h), on the atvoss DAG language.

  ThresholdDag<T>            mask = x <= threshold in T; y = mask ? value : x
  ThresholdDagNoValue<T>     the same with value 0
  ThresholdCastDag<bf16>     x widened to float32 (exact), threshold / value widened by scalar
                             ops, compare and select in float32, the result back to bfloat16
                             with RINT (exact: it is one of the inputs)
  ThresholdCastDagNoValue    the same with value 0.0f

Inputs by index: 0 = x (a tensor), 1 = threshold, 2 = value (scalars: element 0 of their GM
tensor, re-read every tile). Built once at import; DAGs are immutable."""
from __future__ import annotations

from types import MappingProxyType

from opsnn.atvoss import CMP, Cast, Compare, Const, CopyIn, CopyOut, Dag, RoundMode, ScalarIn, Select, ToFloat

DTYPES = ("float16", "float32", "int8", "uint8", "int16", "int32", "int64", "bfloat16")
_CPP = {"float16": "half", "float32": "float", "int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t",
        "int32": "int32_t", "int64": "int64_t", "bfloat16": "bfloat16_t"}


def _native(t: str, has_value: bool) -> Dag:
    x = CopyIn(0, t)
    value = ScalarIn(2, t) if has_value else Const(0, t)
    y = Select(Compare(x, ScalarIn(1, t), CMP.LE), value, x)
    return Dag(f"ThresholdDag{'' if has_value else 'NoValue'}<{_CPP[t]}>", [CopyOut(y, 0)])


def _via_float(t: str, has_value: bool) -> Dag:
    xf = Cast(CopyIn(0, t), "float32", RoundMode.CAST_NONE)
    mask = Compare(xf, ToFloat(ScalarIn(1, t)), CMP.LE)
    value = ToFloat(ScalarIn(2, t)) if has_value else Const(0.0, "float32")
    y = Cast(Select(mask, value, xf), t, RoundMode.CAST_RINT)
    return Dag(f"ThresholdCastDag{'' if has_value else 'NoValue'}<{_CPP[t]}, float>", [CopyOut(y, 0)])


def _build(t: str, has_value: bool) -> Dag:
    return _via_float(t, has_value) if t == "bfloat16" else _native(t, has_value)


DAGS = MappingProxyType({(t, v): _build(t, v) for t in DTYPES for v in (True, False)})


def threshold_dag(dtype: str, has_value: bool) -> Dag:
    """The DAG for x's dtype name; KeyError for a dtype the op has no binary for."""
    return DAGS[(dtype, bool(has_value))]
