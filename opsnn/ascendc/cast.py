"""Cast: element type conversion with a round mode, restricted to the pairs the A2 vector unit has."""
from __future__ import annotations

import numpy as np

from opsnn.dtypes import bfloat16, dtype_name

from .errors import EmulatorError
from .local_tensor import LocalTensor, read_local, write_local
from .rounding import RoundMode, to_float, to_int

_ALL = frozenset(RoundMode)
_NONE_ONLY = frozenset({RoundMode.CAST_NONE})
_NO_NONE = _ALL - _NONE_ONLY
F16, F32, I32, I8, U8 = (np.dtype(t) for t in (np.float16, np.float32, np.int32, np.int8, np.uint8))
BF16 = bfloat16

# Spec §6, Atlas A2: (src, dst) -> the round modes the hardware accepts.
ALLOWED_CASTS: dict[tuple[np.dtype, np.dtype], frozenset[RoundMode]] = {
    (I8, F16): _NONE_ONLY,
    (U8, F16): _NONE_ONLY,
    (F16, F32): _NONE_ONLY,
    (BF16, F32): _NONE_ONLY,
    (F32, F16): _ALL,
    (F16, I8): _ALL,
    (F16, U8): _ALL,
    (I32, F32): _ALL,
    (F32, I32): _NO_NONE,
    (F32, BF16): _NO_NONE,
}


def cast_values(values: np.ndarray, dst: np.dtype, mode: RoundMode) -> np.ndarray:
    """The conversion itself, on a numpy array (the pair is assumed allowed)."""
    src, dst = values.dtype, np.dtype(dst)
    if ALLOWED_CASTS.get((src, dst)) is _NONE_ONLY:
        return values.astype(dst)  # widening: exact
    if dst.kind in "iu":
        return to_int(values, dst, mode)
    if mode in (RoundMode.CAST_NONE, RoundMode.CAST_RINT):
        # numpy's and ml_dtypes' own conversions round to nearest-even with overflow to +-inf:
        # the same result as to_float, much faster. Overflow is a result here, not a warning.
        with np.errstate(over="ignore"):
            return values.astype(dst)
    return to_float(values, dst, mode)


def check_cast(src: np.dtype, dst: np.dtype, mode: RoundMode) -> None:
    modes = ALLOWED_CASTS.get((np.dtype(src), np.dtype(dst)))
    if modes is None:
        pairs = ", ".join(f"{dtype_name(a)}->{dtype_name(b)}" for a, b in ALLOWED_CASTS)
        raise EmulatorError(f"Cast {dtype_name(src)} -> {dtype_name(dst)} is not supported on Atlas A2; "
                            f"supported pairs: {pairs}")
    if mode not in modes:
        raise EmulatorError(f"Cast {dtype_name(src)} -> {dtype_name(dst)} does not take {mode.name}; "
                            f"allowed: {', '.join(sorted(m.name for m in modes))}")


def Cast(dst: LocalTensor, src: LocalTensor, round_mode: RoundMode, count: int) -> None:  # noqa: N802
    """dst[i] = convert(src[i]) for i < count."""
    if not isinstance(round_mode, RoundMode):
        raise EmulatorError(f"Cast round mode must be a RoundMode, got {round_mode!r}")
    check_cast(src.dtype, dst.dtype, round_mode)
    count = int(count)
    if count <= 0:
        return
    write_local(dst, cast_values(read_local(src, count, "Cast"), dst.dtype, round_mode), "Cast")
