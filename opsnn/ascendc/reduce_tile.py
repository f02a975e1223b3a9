"""The data movement of the atvoss reduce schedule (opsnn/cpudebug/include/atvoss/reduce/reduce_sch.h):
a block of a GM tensor placed into a UB tile whose axes have their own strides (the schedule pads
rows to whole 32-byte blocks, or to a register), and the tile's other cells filled with the
reduction's padding value. On the device these are DataCopyPad / multi-dimension DataCopy calls
and a padding vector function; here each is one instruction with the same effect, judged by the
sanitizer like any other (the GM span read, each UB element written).

- ``ReduceTileCopyIn(dst, src, dims, srcStrides, dstStrides)``: for every index (i_0, .., i_k) of
  the grid `dims`, dst[sum i_j * dstStrides[j]] = src[sum i_j * srcStrides[j]] (elements);
- ``ReduceTilePad(dst, value, count, dims, dstStrides)``: every element of dst[0 .. count) that is
  no cell of that grid set to `value`."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .errors import EmulatorError
from .global_tensor import GlobalTensor, gm_read
from .local_tensor import LocalTensor
from .repeat import scatter
from .scalar_ops import to_scalar


def _grid(name: str, dims: Sequence[int], *strides: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    dims = tuple(int(d) for d in dims)
    out = [tuple(int(s) for s in st) for st in strides]
    if any(len(s) != len(dims) for s in out) or any(d < 0 for d in dims) or any(v < 0 for s in out for v in s):
        raise EmulatorError(f"{name}: dims {dims} and strides {out} must have one non-negative entry per axis")
    return (dims, *out)


def _offsets(dims: tuple[int, ...], strides: tuple[int, ...]) -> np.ndarray:
    """The element offsets of the grid's cells, row-major (the last axis fastest)."""
    off = np.zeros(1, dtype=np.int64)
    for d, s in zip(dims, strides, strict=True):
        off = (off[:, None] + np.arange(d, dtype=np.int64)[None, :] * s).reshape(-1)
    return off


def ReduceTileCopyIn(dst: LocalTensor, src: GlobalTensor, dims: Sequence[int],  # noqa: N802 - AscendC style
                     srcStrides: Sequence[int], dstStrides: Sequence[int]) -> None:  # noqa: N803
    """GM block -> UB tile cells (module docstring)."""
    name = "ReduceTileCopyIn"
    if dst.dtype != src.dtype:
        raise EmulatorError(f"{name} from {src.dtype} to {dst.dtype}: the types must match")
    dims, s_st, d_st = _grid(name, dims, srcStrides, dstStrides)
    count = int(np.prod(dims, dtype=np.int64))
    if count == 0:
        dst.ctx.counters.issue(name)
        return
    item = dst.dtype.itemsize
    span = 1 + sum((d - 1) * s for d, s in zip(dims, s_st, strict=True))
    raw = gm_read(src, span * item, name).view(dst.dtype)
    values = raw[_offsets(dims, s_st)]
    scatter(dst, _offsets(dims, d_st), values, name)


def ReduceTilePad(dst: LocalTensor, value, count: int, dims: Sequence[int],  # noqa: N802 - AscendC style
                  dstStrides: Sequence[int]) -> None:  # noqa: N803
    """The tile's cells outside the grid set to value (module docstring)."""
    name = "ReduceTilePad"
    dims, d_st = _grid(name, dims, dstStrides)
    count = int(count)
    taken = np.zeros(max(count, 0), dtype=bool)
    cells = _offsets(dims, d_st)
    if cells.size and int(cells.max()) >= count:
        raise EmulatorError(f"{name}: the grid {dims} with strides {d_st} reaches past the tile's {count} elements")
    taken[cells] = True
    free = np.flatnonzero(~taken)
    scatter(dst, free, np.full(free.size, to_scalar(value, dst.dtype), dtype=dst.dtype), name)


__all__ = ["ReduceTileCopyIn", "ReduceTilePad"]
