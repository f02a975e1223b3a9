"""SeluGrad's arch35 kernel as an atvoss DAG (upstream op_kernel/arch35/selu_grad.h computes
SeluGradSelectFp32 on float32 tiles): per dtype U, inputs 0 = gradients, 1 = outputs,

    g, o = float32(gradients), float32(outputs)       exact (no node for float32)
    y    = U(o <= 0 ? g * (o + SCALE * ALPHA) : g * SCALE)   CompareScalar LE, Adds, Mul, Muls,
                                                             Select; narrowed with CAST_RINT

so a zero output takes the negative branch (g * 1.7580993...), a NaN one the positive. Run by
atvoss's ElementwiseSch (upstream's one-dim mode; aclnn never broadcasts here)."""
from __future__ import annotations

from functools import cache

import numpy as np

from opsnn.atvoss import (
    CMP,
    Add,
    Cast,
    Compare,
    Const,
    CopyIn,
    CopyOut,
    Dag,
    Mul,
    RoundMode,
    Select,
)
from opsnn.op_common.kernel_entry import dag_runner

DAG_DTYPES = ("float16", "float32", "bfloat16")
SCALE = float(np.float32(1.0507009873554804934193349852946))
SCALE_ALPHA = float(np.float32(1.7580993408473768599402175208123))


@cache
def selu_grad_dag(dtype: str) -> Dag:
    if dtype not in DAG_DTYPES:
        raise KeyError(dtype)
    g = Cast(CopyIn(0, dtype), "float32", RoundMode.CAST_NONE)
    o = Cast(CopyIn(1, dtype), "float32", RoundMode.CAST_NONE)
    negative = Mul(g, Add(o, Const(SCALE_ALPHA, "float32")))
    y = Select(Compare(o, Const(0.0, "float32"), CMP.LE), negative, Mul(g, Const(SCALE, "float32")))
    return Dag(f"SeluGradDag<{dtype}>", [CopyOut(Cast(y, dtype, RoundMode.CAST_RINT), 0)])


run_kernel = dag_runner(selu_grad_dag, ("gradients", "outputs"), ("y",), lambda dtype: 0, "SeluGrad")  # key 0: one-dim
