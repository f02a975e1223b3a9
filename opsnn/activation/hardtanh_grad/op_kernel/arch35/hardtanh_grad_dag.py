"""The HardtanhGrad arch35 DAG (upstream op_kernel/arch35/hardtanh_grad_dag.h), on atvoss.

    x    = float32(result)                      Cast, exact (dropped for float32)
    keep = (x < max_val AND x > min_val)        two CompareScalar against the tiling's Vars, And
           OR (x != x)                          the NaN test, Or
    y    = keep ? grad : +0                     Select in the tensor's own type: grad's bits move

Inputs by index: 0 = result (the forward input, aclnn's self), 1 = grad (gradOutput). Var 0 is
min_val, Var 1 max_val (float32, from the bytes after the 80-byte base struct). One DAG per
dtype; the buffer accounting gives 10 buffers for float16/bfloat16 and 9 for float32.

And, Or and the unordered NE (the NaN test) are atvoss's and the emulator's own (opsnn.atvoss,
opsnn.ascendc.mask_logic, compare_tensor)."""
from __future__ import annotations

from types import MappingProxyType

from opsnn.atvoss import CMP, And, Cast, Compare, Const, CopyIn, CopyOut, Dag, Or, RoundMode, Select, Var

DTYPES = ("bfloat16", "float16", "float32")
MIN_VAR, MAX_VAR = 0, 1  # scalar_data slots
RESULT, GRAD = 0, 1  # input indices
_CPP = {"float16": "half", "bfloat16": "bfloat16_t", "float32": "float"}


def _build(t: str) -> Dag:
    x = Cast(CopyIn(RESULT, t), "float32", RoundMode.CAST_NONE)
    below_max = Compare(x, Var(MAX_VAR), CMP.LT)
    above_min = Compare(x, Var(MIN_VAR), CMP.GT)
    keep = Or(And(below_max, above_min), Compare(x, x, CMP.NE))
    y = Select(keep, CopyIn(GRAD, t), Const(0.0, t))
    return Dag(f"HardtanhGradDag<{_CPP[t]}, float>", [CopyOut(y, 0)])


DAGS = MappingProxyType({t: _build(t) for t in DTYPES})


def hardtanh_grad_dag(dtype: str) -> Dag:
    """The DAG for a dtype name; KeyError for one the op has no binary for."""
    return DAGS[dtype]
