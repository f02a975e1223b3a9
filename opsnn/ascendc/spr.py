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
- CTRL: the control register's bits the kernel sets and reads back (SetCtrlSpr / GetCtrlSpr /
  ResetCtrlSpr<startBit, endBit>). Its reset value is not documented: the emulator starts it at 0,
  which is bit 60 clear -- each Cast's own SatMode decides saturation, as the Cast traits say
  (AscendC's Reg Cast documentation: CTRL[60] = 0). Kernels clear bit 60 and restore what they read;
  with bit 60 set (the global modes of CTRL[48] / CTRL[59]) a Cast is refused by name
  (check_per_instruction_saturation).

A register read before any instruction of the core set it is the kernel's defect, refused by name
(errors.ApiContractError: the finding api_contract_violation): on the device it holds a stale or
undefined value, which no kernel may rely on (AscendC pairs each reader with its setter, e.g. the
int32 -> half Cast "is used together with SetDeqScale")."""
from __future__ import annotations

import numpy as np

from .core import CoreContext
from .errors import ApiContractError, EmulatorError

ACC_VAL = "ACC_VAL"
MAX_MIN_CNT = "MAX_MIN_CNT"
DEQSCALE = "DEQSCALE"
GATHER_MASK_COUNT = "GATHER_MASK_COUNT"
CTRL = "CTRL"
GLOBAL_SATURATION_BIT = 60
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


def _field(start: int, end: int) -> tuple[int, int]:
    start, end = int(start), int(end)
    if not 0 <= start <= end <= 63:
        raise EmulatorError(f"CTRL bits [{start}, {end}]: 0 <= startBit <= endBit <= 63")
    return start, (1 << (end - start + 1)) - 1


def SetCtrlSpr(ctx: CoreContext, start: int, end: int, value: int) -> None:  # noqa: N802 - AscendC name
    """CTRL bits [start, end] = value's low bits."""
    start, mask = _field(start, end)
    ctrl = ctx.spr.get(CTRL, 0)
    ctx.spr[CTRL] = (ctrl & ~(mask << start)) | ((int(value) & mask) << start)


def GetCtrlSpr(ctx: CoreContext, start: int, end: int) -> int:  # noqa: N802 - AscendC name
    """CTRL bits [start, end], shifted down."""
    start, mask = _field(start, end)
    return (ctx.spr.get(CTRL, 0) >> start) & mask


def ResetCtrlSpr(ctx: CoreContext, start: int, end: int) -> None:  # noqa: N802 - AscendC name
    """CTRL bits [start, end] back to the emulator's reset value, 0."""
    SetCtrlSpr(ctx, start, end, 0)


def check_per_instruction_saturation(ctx: CoreContext, what: str) -> None:
    """Refuse `what` when CTRL[60] is set: the global saturation modes are not modelled."""
    if (ctx.spr.get(CTRL, 0) >> GLOBAL_SATURATION_BIT) & 1:
        raise EmulatorError(f"{what} with CTRL[60] = 1 (the global saturation mode SetCtrlSpr chose) is not "
                            "modelled; the emulator models CTRL[60] = 0, each Cast's own SatMode")
