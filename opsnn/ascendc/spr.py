"""The vector unit's special registers that instructions leave a result in and scalar code reads
back (AscendC's "寄存器辅助接口"), one per core (CoreContext.spr):

- ACC_VAL: the sum the count form of ReduceSum accumulates (reduce_full.py); read by
  ``GetAccVal()`` / ``GetReduceRepeatSumSpr()`` as the int64 holding the sum's bits, or by their
  ``<T>`` forms as T.
- MAX_MIN_CNT: the extreme value and its index of the last ReduceRepeat-style max/min
  (WholeReduceMax/Min over all its repeats, ReduceMax/Min): the value's bits in the low 32 bits,
  the index in the high 32; ``GetReduceRepeatMaxMinSpr`` / ``GetReduceMaxMinCount``.
- DEQSCALE: the scale SetDeqScale sets for the deq Casts (deq.py).
- GATHER_MASK_COUNT: how many elements the last GatherMask kept (gather_mask.py).
- MRG_SORT_RESULT: how many elements of each list the last MrgSort consumed (sort.py).

A register read before any instruction of the core set it is the kernel's defect, refused by name
(errors.ApiContractError: the finding api_contract_violation): on the device it holds a stale or
undefined value, which no kernel may rely on (AscendC pairs each reader with its setter, e.g. the
int32 -> half Cast "is used together with SetDeqScale")."""
from __future__ import annotations

import numpy as np

from .core import CoreContext
from .errors import ApiContractError

ACC_VAL = "ACC_VAL"
MAX_MIN_CNT = "MAX_MIN_CNT"
DEQSCALE = "DEQSCALE"
GATHER_MASK_COUNT = "GATHER_MASK_COUNT"
MRG_SORT_RESULT = "MRG_SORT_RESULT"

_SETTERS = {ACC_VAL: "a count-form ReduceSum", MAX_MIN_CNT: "a WholeReduceMax/Min or ReduceMax/Min",
            DEQSCALE: "SetDeqScale", GATHER_MASK_COUNT: "a GatherMask", MRG_SORT_RESULT: "a MrgSort"}


def read(ctx: CoreContext, register: str, reader: str):
    """The value of `register`; ApiContractError naming `reader` when nothing set it."""
    if register not in ctx.spr:
        raise ApiContractError(f"{reader} reads {register}, which no instruction of this core has set yet "
                            f"({_SETTERS[register]} sets it)")
    return ctx.spr[register]


def bits_of(value) -> int:
    """The bits of a half/float/integer scalar as a non-negative int."""
    v = np.asarray(value)
    return int(v.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[v.dtype.itemsize]))


def GetAccVal(ctx: CoreContext) -> int:  # noqa: N802 - AscendC name
    """ACC_VAL as AscendC's int64 (the bits of the sum, zero-extended); C++'s GetAccVal<T>() reads
    them as T."""
    return read(ctx, ACC_VAL, "GetAccVal")


GetReduceRepeatSumSpr = GetAccVal


def GetReduceRepeatMaxMinSpr(ctx: CoreContext) -> int:  # noqa: N802 - AscendC name
    """MAX_MIN_CNT: the value's bits | index << 32 (C++ splits it into maxMinValue, maxMinIndex)."""
    return read(ctx, MAX_MIN_CNT, "GetReduceRepeatMaxMinSpr")


GetReduceMaxMinCount = GetReduceRepeatMaxMinSpr
