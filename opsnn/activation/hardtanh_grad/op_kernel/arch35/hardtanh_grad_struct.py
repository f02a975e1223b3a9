"""The HardtanhGrad tiling-key declaration (upstream hardtanh_grad_struct.h): schMode, a 1-bit
UINT parameter over {0, 1} (encoded as its index), then dType, a DTYPE parameter whose one value
is HardtanhGrad_TPL = 1. The tiling writes schMode = the base tiling's scheMode (always 1), so
the key is 1 | 1 << 1 = 3."""
from __future__ import annotations

from opsnn.atvoss import TilingError, TplDtype, TplUint, tiling_key

HARDTANH_GRAD_TPL = 1
SCH_MODE_DECL = TplUint(1, (0, 1))
DTYPE_DECL = TplDtype(8)


def hardtanh_grad_tiling_key(sche_mode: int) -> int:
    """GET_TPL_TILING_KEY(scheMode, HardtanhGrad_TPL)."""
    return tiling_key((SCH_MODE_DECL, sche_mode), (DTYPE_DECL, HARDTANH_GRAD_TPL))


def decode_tiling_key(key: int) -> tuple[int, int]:
    """(schMode, dType) of a key; TilingError for a key no binary was built for."""
    if not 0 <= key < (1 << 9) or (key >> 1) != HARDTANH_GRAD_TPL:
        raise TilingError(f"tiling key {key} selects no HardtanhGrad kernel (schMode in {{0, 1}}, dType 1)")
    return SCH_MODE_DECL.values[key & 1], key >> 1
