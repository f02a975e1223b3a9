"""SigmoidGrad's arch35 kernel (upstream op_kernel/sigmoid_grad_apt.cpp and arch35/sigmoid_grad_*.h)
as an atvoss DAG, one per dtype U, run by atvoss's ElementwiseSch:

    y32 = float32(y), dy32 = float32(dy)        Cast, exact (no node for float32)
    z   = U((dy32 * (1.0 - y32)) * y32)         Duplicate(1.0), Sub, Mul, Mul in float32; RINT

(upstream's register program: Duplicate, Sub(1, y), Mul(dy, .), Mul(., y)). Inputs by index:
0 = y, 1 = dy. The tiling key names the dtype: opKey (fp16 1, bf16 2, fp32 3) * 10^14 + 100."""
from __future__ import annotations

from functools import cache
from types import MappingProxyType

from opsnn.ascendc import EmulatorError, GlobalMemory, KernelArg, LaunchReport
from opsnn.atvoss import Cast, Const, CopyIn, CopyOut, Dag, Duplicate, Mul, RoundMode, Sub, elementwise_kernel
from opsnn.atvoss.sch_common import run_launch
from opsnn.platform import Platform, get_platform

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


def run_kernel(*, gm: GlobalMemory, platform: Platform | str, dtype: str, tiling_key: int, block_dim: int,
               tiling: bytes, y: KernelArg, dy: KernelArg, z: KernelArg, sanitize: bool = False) -> LaunchReport:
    """Launch on `block_dim` cores (exact copies: nothing past a tensor is touched)."""
    platform = get_platform(platform) if isinstance(platform, str) else platform
    if TILING_KEYS.get(dtype) != tiling_key:
        raise EmulatorError(f"no SigmoidGrad kernel for key {tiling_key} and dtype {dtype}")
    dag = sigmoid_grad_dag(dtype)
    return run_launch(elementwise_kernel(dag), dag, gm=gm, platform=platform, block_dim=block_dim,
                      tiling=bytes(tiling), inputs=[y, dy], outputs=[z], sanitize=sanitize)
