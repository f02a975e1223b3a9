"""The arch35 tiling-key declaration: schMode (the broadcast schedule-mode list) then dType,
a DTYPE template parameter with these values."""
from types import MappingProxyType

DTYPE_TPL = MappingProxyType({"float16": 1, "bfloat16": 2, "float32": 3, "int32": 4, "int8": 5, "uint8": 6})
