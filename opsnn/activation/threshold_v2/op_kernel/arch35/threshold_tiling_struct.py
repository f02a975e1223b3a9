"""The ThresholdV2 tiling-key declaration (upstream threshold_tiling_struct.h): two 1-bit UINT
parameters, schMode then valueMode; a UINT parameter encodes as its index in the declared list.
The tiling data itself is atvoss's 80-byte EleBaseTilingData."""
from __future__ import annotations

from opsnn.atvoss import EleBaseTilingData, TplUint, tiling_key

TPL_NO_VALUE = 0
TPL_HAS_VALUE = 1
SCH_MODE_DECL = TplUint(1, (0, 1))
VALUE_MODE_DECL = TplUint(1, (TPL_NO_VALUE, TPL_HAS_VALUE))


def threshold_tiling_key(sche_mode: int, has_value: bool) -> int:
    """GET_TPL_TILING_KEY(schMode, valueMode): 3 with value, 1 without (schMode is always 1)."""
    return tiling_key((SCH_MODE_DECL, sche_mode), (VALUE_MODE_DECL, TPL_HAS_VALUE if has_value else TPL_NO_VALUE))


def decode_tiling_key(key: int) -> tuple[int, bool]:
    """(schMode, hasValue) of a key: what the kernel's template dispatch selects."""
    return SCH_MODE_DECL.values[key & 1], VALUE_MODE_DECL.values[(key >> 1) & 1] == TPL_HAS_VALUE


__all__ = ["TPL_HAS_VALUE", "TPL_NO_VALUE", "EleBaseTilingData", "decode_tiling_key", "threshold_tiling_key"]
