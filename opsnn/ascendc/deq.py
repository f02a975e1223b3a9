"""SetDeqScale and the dequantising int32 -> half Cast of Atlas A2 (vconv_deq).

On A2 ``Cast(half <- int32)`` is not a plain conversion: the vector unit multiplies each int32 by
the half scale ``SetDeqScale(half scale)`` left in the DEQSCALE register (asc-devkit's SetDeqScale:
"the s322fp16 scenario of AddDeqRelu, Cast, CastDequant"). Kernels set 1.0 to get a plain
conversion (quant kernels: float -> int32 CAST_RINT, SetDeqScale(1), int32 -> half, half -> int8).

How the unit forms the product is not documented; the model computes the exact product
src * scale (exact in float64: an int32 times a half has at most 31 + 11 significant bits) and
rounds it once to half, to nearest even, overflow to +-inf. The
round mode argument is not used (the instruction has none), as on the device. A Cast of that pair
before any SetDeqScale on the core is refused (DEQSCALE holds whatever it held).

SetDeqScale(float scale, int16 offset, bool signMode) and the vector-deq tensor form set DEQSCALE
for CastDequant's int16 -> int8 scenarios, which the emulator does not model: an int32 -> half
Cast after them is refused by name."""
from __future__ import annotations

import numpy as np

from . import spr
from .core import CoreContext
from .errors import EmulatorError
from .local_tensor import LocalTensor

F16 = np.dtype(np.float16)


def SetDeqScale(ctx: CoreContext, scale, *rest) -> None:  # noqa: N802 - AscendC name
    """DEQSCALE = scale (a half) for the int32 -> half Cast; the (scale, offset, signMode) form is
    recorded as one the emulator does not model."""
    if rest:
        ctx.spr[spr.DEQSCALE] = ("s162b8", float(scale), *rest)
        return
    ctx.spr[spr.DEQSCALE] = np.float16(scale)


def deq_values(ctx: CoreContext, values: np.ndarray) -> np.ndarray:
    """int32 values -> half, scaled by DEQSCALE (module docstring)."""
    scale = spr.read(ctx, spr.DEQSCALE, "Cast int32 -> half (vconv_deq)")
    if not isinstance(scale, np.float16):
        raise EmulatorError("Cast int32 -> half after SetDeqScale(float, int16, bool): that DEQSCALE layout is "
                            "CastDequant's int16 -> int8 one, not modelled by opsnn's emulator")
    with np.errstate(over="ignore", invalid="ignore"):
        return (values.astype(np.float64) * np.float64(scale)).astype(F16)


def check_deq(dst: LocalTensor, src: LocalTensor) -> bool:
    """Whether a Cast is the dequantising int32 -> half one."""
    return src.dtype == np.dtype(np.int32) and dst.dtype == F16
