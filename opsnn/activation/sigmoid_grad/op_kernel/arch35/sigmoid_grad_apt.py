"""SigmoidGrad's arch35 kernel (upstream op_kernel/sigmoid_grad_apt.cpp and arch35/sigmoid_grad_*.h)
as an atvoss DAG, one per dtype U, run by atvoss's ElementwiseSch:

    y32 = float32(y), dy32 = float32(dy)        Cast, exact (no node for float32)
    z   = U((dy32 * (1.0 - y32)) * y32)         Duplicate(1.0), Sub, Mul, Mul in float32; RINT

(upstream's register program: Duplicate, Sub(1, y), Mul(dy, .), Mul(., y)). Inputs by index:
0 = y, 1 = dy. The tiling key names the dtype: opKey (fp16 1, bf16 2, fp32 3) * 10^14 + 100."""
from __future__ import annotations

from functools import cache
from types import MappingProxyType

from opsnn.atvoss import Cast, Const, CopyIn, CopyOut, Dag, Duplicate, Mul, RoundMode, Sub
from opsnn.op_common.kernel_entry import dag_runner

DTYPES = ("float16", "bfloat16", "float32")
TILING_KEYS = MappingProxyType({t: (i + 1) * 10**14 + 100 for i, t in enumerate(DTYPES)})
ARG_NAMES = ("y", "dy", "z")
Y, DY = 0, 1


@cache
def sigmoid_grad_dag(dtype: str) -> Dag:
    """The DAG for a dtype name; KeyError for one without a binary."""
    if dtype not in DTYPES:
        raise KeyError(dtype)
    dy = Cast(CopyIn(DY, dtype), "float32", RoundMode.CAST_NONE)
    y = Cast(CopyIn(Y, dtype), "float32", RoundMode.CAST_NONE)
    z = Mul(Mul(dy, Sub(Duplicate(Const(1.0, "float32")), y)), y)
    return Dag(f"SigmoidGradDag<{dtype}>", [CopyOut(Cast(z, dtype, RoundMode.CAST_RINT), 0)])


run_kernel = dag_runner(sigmoid_grad_dag, ARG_NAMES[:2], ARG_NAMES[2:], TILING_KEYS.__getitem__, "SigmoidGrad")
