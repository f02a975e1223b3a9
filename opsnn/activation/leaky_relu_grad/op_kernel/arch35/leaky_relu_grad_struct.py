"""The arch35 tiling-key declaration (upstream leaky_relu_grad_struct.h): the broadcast
schedule-mode parameter (atvoss BRC_SCH_MODES, encoded as its index), then the dType template
parameter with these values. key = index(schMode) | dtypeTpl << 16."""
from types import MappingProxyType

from opsnn.atvoss import BRC_SCH_MODES, brc_tiling_key

DTYPE_TPL = MappingProxyType({"float16": 1, "bfloat16": 2, "float32": 3})
_DTYPE_OF_TPL = MappingProxyType({v: k for k, v in DTYPE_TPL.items()})


def leaky_relu_grad_tiling_key(schedule_mode: int, dtype: str) -> int:
    return brc_tiling_key(schedule_mode, DTYPE_TPL[dtype])


def decode_tiling_key(key: int) -> tuple[int, str]:
    """(schMode, dtype name) of a key: what the kernel's template dispatch selects."""
    return BRC_SCH_MODES[key & 0xFFFF], _DTYPE_OF_TPL[key >> 16]
