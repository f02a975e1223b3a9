"""Cast's mask/repeat form, ``Cast(dst, src, roundMode, mask, repeatTime, UnaryRepeatParams)``,
and AscendC's Cast itself, which dispatches every form: the count form is cast.py's, the
int32 -> half pair is deq.py's dequantising conversion in both forms.

A repeat holds 256 / max(sizeof(dst), sizeof(src)) elements -- 64 for half <-> float, 128 for
half <-> int8 -- and each operand is addressed in its own type with its own strides (a half
source of a float Cast reads 128 bytes a repeat with srcRepStride 4, as AscendC's count form
does). AscendC sets the mask through the smaller type (SetMask<smaller>), so a continuous mask
up to the smaller type's lanes is accepted and the lanes past the repeat are not used."""
from __future__ import annotations

import numpy as np

from . import deq, int4
from .cast import cast_count, cast_values, check_cast
from .errors import EmulatorError
from .local_tensor import LocalTensor, close_local, open_local, read_local
from .repeat import UnaryRepeatParams, active_elements, element_offsets, gather, per_repeat, scatter
from .rounding import RoundMode


def Cast(dst: LocalTensor, src: LocalTensor, round_mode: RoundMode, *rest) -> None:  # noqa: N802 - AscendC name
    """AscendC's Cast in every form: ``Cast(dst, src, roundMode, count)`` or
    ``Cast(dst, src, roundMode, mask, repeatTime, UnaryRepeatParams)``.

    Parameters
    ----------
    dst : LocalTensor
        The result, of the target type.
    src : LocalTensor
        The values (int32 into half with SetDeqScale set: the dequantising conversion).
    round_mode : RoundMode
        How inexact results round (CAST_NONE: RINT where precision is lost, exact otherwise).
    *rest : int or (mask, int, UnaryRepeatParams)
        ``count`` (elements), or ``mask`` (an int or two uint64 words), ``repeatTime`` and a
        ``UnaryRepeatParams``.
    """
    if not isinstance(round_mode, RoundMode):
        raise EmulatorError(f"Cast round mode must be a RoundMode, got {round_mode!r}")
    if int4.is_int4(dst) or int4.is_int4(src):
        int4.cast(dst, src, round_mode, *rest)
        return
    is_deq = deq.check_deq(dst, src)
    if not is_deq:
        check_cast(src.dtype, dst.dtype, round_mode)
    if len(rest) == 1:
        if not is_deq:
            cast_count(dst, src, round_mode, rest[0])
            return
        count = int(rest[0])
        if count <= 0:
            return
        values = read_local(src, count, "Cast")
        out, direct = open_local(dst, count, "Cast")
        out[...] = deq.deq_values(src.ctx, values)
        close_local(dst, out, direct, "Cast")
        return
    if len(rest) != 3:
        raise EmulatorError(f"Cast takes (dst, src, roundMode, count) or (dst, src, roundMode, mask, repeatTime, "
                            f"repeatParams), got {3 + len(rest)} arguments")
    mask, repeat_times, params = rest
    if not isinstance(params, UnaryRepeatParams):
        raise EmulatorError(f"Cast: repeatParams must be a UnaryRepeatParams, got {type(params).__name__}")
    wide = dst.dtype if dst.dtype.itemsize >= src.dtype.itemsize else src.dtype
    if isinstance(mask, (int, np.integer)) and per_repeat(wide) < int(mask) <= per_repeat(
            dst.dtype if wide is src.dtype else src.dtype):
        mask = per_repeat(wide)  # set through the smaller type: the lanes past the repeat are not used
    r, j = active_elements(wide, mask, repeat_times, dst.ctx)
    if r.size == 0:
        return
    (d_blk, d_rep), (s_blk, s_rep) = params.strides()
    values = gather(src, element_offsets(src.dtype, r, j, s_blk, s_rep), "Cast")
    out = deq.deq_values(src.ctx, values) if is_deq else cast_values(values, dst.dtype, round_mode)
    scatter(dst, element_offsets(dst.dtype, r, j, d_blk, d_rep), out, "Cast")
