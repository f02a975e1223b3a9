"""The two call forms every elementwise vector instruction has, around one compute function.

- count form ("level 2"): the first `count` elements of each operand, contiguous;
- mask/repeat form ("level 0"): the elements repeat.py's addressing selects (mask, repeatTimes,
  BinaryRepeatParams / UnaryRepeatParams).

Both read every source before writing dst (dst may alias a source), go through the sanitizer
(local_tensor / repeat.gather, scatter) and count the instruction once (--stats). The repeats of
the mask/repeat form run in order: where a repeat reads what an earlier one wrote (dstRepStride 0
with dst as a source accumulates across repeats: upstream log_softmax_v2 takes a column's max and
sum that way, and its example checks the values), each repeat sees its predecessors' results."""
from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from opsnn.dtypes import dtype_name

from .errors import EmulatorError
from .local_tensor import LocalTensor, close_local, open_local, read_local
from .repeat import (
    BinaryRepeatParams,
    UnaryRepeatParams,
    active_elements,
    element_offsets,
    gather,
    reads_earlier_repeats,
    scatter,
)


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
    src_offsets = [element_offsets(s.dtype, r, j, *st) for s, st in zip(srcs, strides[1:], strict=True)]
    dst_offsets = element_offsets(dst.dtype, r, j, *strides[0])
    if any(reads_earlier_repeats(dst, dst_offsets, s, o, r) for s, o in zip(srcs, src_offsets, strict=True)):
        dst.buffer.ctx.counters.issue(name)
        for k in np.unique(r):  # in order, each repeat reading what the earlier ones wrote
            at = r == k
            values = [gather(s, o[at], name) for s, o in zip(srcs, src_offsets, strict=True)]
            scatter(dst, dst_offsets[at], fn(*values), name, issue=False)
        return
    values = [gather(s, o, name) for s, o in zip(srcs, src_offsets, strict=True)]
    scatter(dst, dst_offsets, fn(*values), name)
