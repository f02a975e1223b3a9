"""Atomic writes to GM: SetAtomicAdd<T> / SetAtomicMax<T> / SetAtomicMin<T> / SetAtomicType<T> /
SetAtomicNone, as AscendC defines them for Atlas A2.

After SetAtomicAdd<T>() a core's copies UB -> GM (DataCopy, DataCopyPad, ... every DMA write;
not a scalar GlobalTensor::SetValue) combine with what GM holds, element by element in T,
instead of overwriting it: GM = GM + data (Max: max(GM, data), Min: min(GM, data)), until
SetAtomicNone(). SetAtomicType<T>() keeps the operation and changes T. The usual use: several
cores add their partial results into one output (or a workspace) that was zeroed first.

Arithmetic: float and half as the vector unit's Add/Max/Min (binary.py: rounded once to T,
NaNs by ieee.py's rule); bfloat16 added exactly in float64 and rounded once to nearest even
(bfloat16's 8 bits are far inside float64's 53, so this is the correctly rounded sum); integers
wrap. Cores of one launch running atomic writes of the same operation and type into the same
bytes do not race (overlap.py); the order of float additions can still change the last bit, as
on the device."""
from __future__ import annotations

import numpy as np

from opsnn.dtypes import bfloat16

from .binary import add_values, max_values, min_values
from .core import CoreContext
from .errors import EmulatorError
from .rounding import RoundMode, to_float

ADD, MAX, MIN = "add", "max", "min"
# Atlas A2's atomic types (AscendC's SetAtomicAdd/Max/Min documentation)
ATOMIC_TYPES = tuple(np.dtype(t) for t in (np.float32, np.float16, bfloat16, np.int32, np.int16, np.int8))


def _atomic_dtype(dtype, what: str) -> np.dtype:
    dtype = np.dtype(dtype)
    if dtype not in ATOMIC_TYPES:
        raise EmulatorError(f"{what}<{dtype}> is not modelled: Atlas A2 atomics take "
                            f"{', '.join(str(t) for t in ATOMIC_TYPES)}")
    return dtype


def SetAtomicAdd(ctx: CoreContext, dtype) -> None:  # noqa: N802 - AscendC name
    """From now on the core's DMA writes to GM add to what GM holds, in `dtype`."""
    ctx.atomic = (ADD, _atomic_dtype(dtype, "SetAtomicAdd"))
    ctx.counters.issue("SetAtomicAdd")


def SetAtomicMax(ctx: CoreContext, dtype) -> None:  # noqa: N802 - AscendC name
    """From now on the core's DMA writes to GM keep the larger of GM's and the written value."""
    ctx.atomic = (MAX, _atomic_dtype(dtype, "SetAtomicMax"))
    ctx.counters.issue("SetAtomicMax")


def SetAtomicMin(ctx: CoreContext, dtype) -> None:  # noqa: N802 - AscendC name
    """From now on the core's DMA writes to GM keep the smaller of GM's and the written value."""
    ctx.atomic = (MIN, _atomic_dtype(dtype, "SetAtomicMin"))
    ctx.counters.issue("SetAtomicMin")


def SetAtomicType(ctx: CoreContext, dtype) -> None:  # noqa: N802 - AscendC name
    """Keep the atomic operation, change its type (no operation set: refused, nothing to retype)."""
    if ctx.atomic is None:
        raise EmulatorError("SetAtomicType with no atomic operation set (SetAtomicAdd/Max/Min first)")
    ctx.atomic = (ctx.atomic[0], _atomic_dtype(dtype, "SetAtomicType"))
    ctx.counters.issue("SetAtomicType")


def SetAtomicNone(ctx: CoreContext) -> None:  # noqa: N802 - AscendC name
    """DMA writes to GM overwrite again."""
    ctx.atomic = None
    ctx.counters.issue("SetAtomicNone")


def combine(mode: tuple, old: np.ndarray, new: np.ndarray) -> np.ndarray:
    """The bytes an atomic write leaves: `old` (GM's bytes) combined with `new` (the written
    bytes), both uint8 of the same length, a whole number of elements of the mode's type."""
    op, dtype = mode
    if new.size % dtype.itemsize:
        raise EmulatorError(f"an atomic {op} of {new.size} bytes is not a whole number of {dtype} elements")
    a, b = old.view(dtype), new.view(dtype)
    if dtype == bfloat16:
        if op == ADD:
            out = to_float(a.astype(np.float64) + b.astype(np.float64), bfloat16, RoundMode.CAST_RINT)
        else:  # the larger / smaller of two bfloat16 values is one of them: exact through float32
            pick = max_values if op == MAX else min_values
            out = pick(a.astype(np.float32), b.astype(np.float32)).astype(bfloat16)
    elif op == ADD:
        out = add_values(a, b)
    else:
        out = (max_values if op == MAX else min_values)(a, b)
    return np.ascontiguousarray(out, dtype=dtype).view(np.uint8)
