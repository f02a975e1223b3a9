"""The two call forms every elementwise vector instruction has, around one compute function.

- count form ("level 2"): the first `count` elements of each operand, contiguous;
- mask/repeat form ("level 0"): the elements repeat.py's addressing selects (mask, repeatTimes,
  BinaryRepeatParams / UnaryRepeatParams).

Both read every source before writing dst (dst may alias a source), go through the sanitizer
(local_tensor / repeat.gather, scatter) and count the instruction once (--stats)."""
from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from opsnn.dtypes import dtype_name

from .errors import EmulatorError
from .local_tensor import LocalTensor, close_local, open_local, read_local
from .repeat import BinaryRepeatParams, UnaryRepeatParams, active_elements, element_offsets, gather, scatter


def check_types(name: str, allowed: Sequence[np.dtype], dst: LocalTensor, *srcs: LocalTensor) -> np.dtype:
    """The one element type of dst and every source; EmulatorError naming the types `name` takes."""
    t = dst.dtype
    if t not in allowed or any(s.dtype != t for s in srcs):
        got = ", ".join(dtype_name(s.dtype) for s in srcs) + f" -> {dtype_name(t)}"
        takes = ", ".join(dtype_name(a) for a in allowed)
        raise EmulatorError(f"{name} on {got}: takes {takes}, one type on every side")
    return t


def count_form(name: str, fn: Callable[..., np.ndarray], dst: LocalTensor, srcs: Sequence[LocalTensor],
               count: int) -> None:
    """dst[:count] = fn(src[:count] for each src)."""
    count = int(count)
    if count <= 0:
        return
    values = [read_local(s, count, name).copy() for s in srcs]  # copies: dst may alias a source
    out, direct = open_local(dst, count, name)
    out[...] = fn(*values)
    close_local(dst, out, direct, name)


def repeat_form(name: str, fn: Callable[..., np.ndarray], dst: LocalTensor, srcs: Sequence[LocalTensor],
                mask, repeat_times: int, params) -> None:
    """dst's active elements = fn(the sources' active elements), addressed by repeat.py."""
    want = BinaryRepeatParams if len(srcs) == 2 else UnaryRepeatParams
    if not isinstance(params, want):
        raise EmulatorError(f"{name}: repeatParams must be a {want.__name__}, got {type(params).__name__}")
    strides = params.strides()
    r, j = active_elements(dst.dtype, mask, repeat_times, dst.ctx)
    if r.size == 0:
        return
    values = [gather(s, element_offsets(s.dtype, r, j, *st), name) for s, st in zip(srcs, strides[1:], strict=True)]
    scatter(dst, element_offsets(dst.dtype, r, j, *strides[0]), fn(*values), name)
