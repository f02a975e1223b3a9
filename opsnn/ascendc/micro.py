"""AscendC::MicroAPI on Ascend950 (``__VEC_SCOPE__``): one namespace for Python kernels and the C++
bridge. The model (registers, masks, moves, arithmetic, the sanitizer's view) is micro_core.py's;
the reductions inside a register (micro_reduce.py), bit operations on integer lanes
(micro_bitwise.py), logic on mask registers (micro_mask.py), Pack / UnPack and (De)Interleave (micro_pack.py) and
the unaligned moves (micro_unaligned.py) are
built on it. Kept apart so that each of those imports the core, never this module."""
from __future__ import annotations

from . import micro_core
from .micro_bitwise import And, Not, Or, ShiftLeft, ShiftLefts, ShiftRight, ShiftRights, Xor
from .micro_core import *  # noqa: F403 - the core's names are MicroAPI's
from .micro_mask import MaskAnd, MaskMov, MaskNot, MaskOr, MaskSel, MaskXor
from .micro_pack import (
    DeInterleave,
    DeInterleaveFirst,
    DeInterleaveSecond,
    Interleave,
    InterleaveFirst,
    InterleaveSecond,
    Pack,
    UnPack,
)
from .micro_reduce import (
    Reduce,
    ReduceDataBlock,
    ReduceMax,
    ReduceMaxWithDataBlock,
    ReduceMin,
    ReduceMinWithDataBlock,
    ReduceSum,
    ReduceSumWithDataBlock,
    ReduceType,
)
from .micro_unaligned import (
    DataCopyUnAlign,
    DataCopyUnAlignPost,
    DataCopyUnAlignPre,
    LoadUnAlign,
    LoadUnAlignPre,
    StoreUnAlign,
    StoreUnAlignPost,
    UnalignReg,
    UnalignRegForLoad,
    UnalignRegForStore,
)

__all__ = [*micro_core.__all__,
           "Reduce", "ReduceDataBlock", "ReduceMax", "ReduceMaxWithDataBlock", "ReduceMin", "ReduceMinWithDataBlock",
           "ReduceSum", "ReduceSumWithDataBlock", "ReduceType",
           "And", "Not", "Or", "ShiftLeft", "ShiftLefts", "ShiftRight", "ShiftRights", "Xor", "Pack", "UnPack",
           "MaskAnd", "MaskMov", "MaskNot", "MaskOr", "MaskSel", "MaskXor",
           "DeInterleave", "DeInterleaveFirst", "DeInterleaveSecond", "Interleave", "InterleaveFirst",
           "InterleaveSecond",
           "DataCopyUnAlign", "DataCopyUnAlignPost", "DataCopyUnAlignPre", "LoadUnAlign", "LoadUnAlignPre",
           "StoreUnAlign", "StoreUnAlignPost", "UnalignReg", "UnalignRegForLoad", "UnalignRegForStore"]
