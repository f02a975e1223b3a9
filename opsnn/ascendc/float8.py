"""The 8-bit float types of Ascend950 as the emulator names them: fp8 E4M3FN and E5M2 and the
E8M0 scale are ml_dtypes' float8_e4m3fn, float8_e5m2 and float8_e8m0fnu (OCP MX formats, the same
bit layouts); HiFloat8 and the fp4 pairs (two E2M1 or E1M2 values a byte) have no numpy type and
are one-byte marker dtypes here, which moves carry and arithmetic refuses (so is Ascend950's
int4x2_t, a byte of two int4 values).

The MicroAPI Cast pairs modelled, as AscendC's Reg Cast documentation gives them:

- float -> fp8 E4M3FN / E5M2, CAST_RINT (round to nearest even). SatMode::SAT: a magnitude past
  the type's largest finite value (inf included) gives that value with its sign, NaN gives 0
  (CTRL[50] = 0, the emulator's CTRL). NO_SAT: overflow gives inf (E5M2) or NaN (E4M3FN, which has
  no inf), NaN stays NaN.
- fp8 E4M3FN / E5M2 -> float: exact.
Both are 4:1 in width: RegLayout ZERO..THREE picks the byte of each 32-bit lane."""
from __future__ import annotations

import numpy as np

from opsnn.dtypes import BY_NAME

from .rounding import saturated_float

HIFLOAT8 = np.dtype([("hifloat8", np.uint8)])
FLOAT4_E2M1X2 = np.dtype([("float4_e2m1x2", np.uint8)])
FLOAT4_E1M2X2 = np.dtype([("float4_e1m2x2", np.uint8)])
INT4X2 = np.dtype([("int4x2", np.uint8)])  # Ascend950's int4x2_t: a byte of two int4, the pair an element

# the C++ runtime's names (opsnn_kt DType) -> the emulator's dtypes
E4M3, E5M2, E8M0 = BY_NAME["float8_e4m3fn"], BY_NAME["float8_e5m2"], BY_NAME["float8_e8m0"]
FLOAT8_TYPES = {
    "float8_e4m3fn": E4M3,
    "float8_e5m2": E5M2,
    "float8_e8m0": E8M0,
    "hifloat8": HIFLOAT8,
    "float4_e2m1x2": FLOAT4_E2M1X2,
    "float4_e1m2x2": FLOAT4_E1M2X2,
    "int4x2": INT4X2,
}

# (src, dst) -> the round modes a MicroAPI Cast takes (RoundMode.CAST_NONE stands for UNKNOWN)
MICRO_CASTS = {
    (np.dtype(np.float32), E4M3): ("CAST_RINT",),
    (np.dtype(np.float32), E5M2): ("CAST_RINT",),
    (E4M3, np.dtype(np.float32)): ("CAST_NONE",),
    (E5M2, np.dtype(np.float32)): ("CAST_NONE",),
}


def is_float8(dtype: np.dtype) -> bool:
    return dtype in (E4M3, E5M2, E8M0) or dtype in (HIFLOAT8, FLOAT4_E2M1X2, FLOAT4_E1M2X2, INT4X2)


def convert(values: np.ndarray, dst: np.dtype, saturate: bool) -> np.ndarray:
    """values (float32 or fp8) converted to dst as the module docstring says."""
    if dst == np.float32:
        return values.astype(np.float32)  # fp8 -> float: exact
    if saturate:
        values = saturated_float(values, dst)
    with np.errstate(over="ignore", invalid="ignore"):
        return values.astype(dst)


__all__ = ["FLOAT4_E1M2X2", "FLOAT4_E2M1X2", "FLOAT8_TYPES", "HIFLOAT8", "INT4X2", "MICRO_CASTS", "convert",
           "is_float8"]
