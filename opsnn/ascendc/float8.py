"""The 8-bit float types of Ascend950 as the emulator names them: fp8 E4M3FN and E5M2 and the
E8M0 scale are ml_dtypes' float8_e4m3fn, float8_e5m2 and float8_e8m0fnu (OCP MX formats, the same
bit layouts); HiFloat8 and the fp4 pairs (two E2M1 or E1M2 values a byte) have no numpy type and
are one-byte marker dtypes here, which moves carry and arithmetic refuses."""
from __future__ import annotations

import ml_dtypes
import numpy as np

HIFLOAT8 = np.dtype([("hifloat8", np.uint8)])
FLOAT4_E2M1X2 = np.dtype([("float4_e2m1x2", np.uint8)])
FLOAT4_E1M2X2 = np.dtype([("float4_e1m2x2", np.uint8)])

# the C++ runtime's names (opsnn_kt DType) -> the emulator's dtypes
FLOAT8_TYPES = {
    "float8_e4m3fn": np.dtype(ml_dtypes.float8_e4m3fn),
    "float8_e5m2": np.dtype(ml_dtypes.float8_e5m2),
    "float8_e8m0": np.dtype(ml_dtypes.float8_e8m0fnu),
    "hifloat8": HIFLOAT8,
    "float4_e2m1x2": FLOAT4_E2M1X2,
    "float4_e1m2x2": FLOAT4_E1M2X2,
}

__all__ = ["FLOAT4_E1M2X2", "FLOAT4_E2M1X2", "FLOAT8_TYPES", "HIFLOAT8"]
