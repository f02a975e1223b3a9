"""Exact GM <-> UB copies of the Ascend950 DMA: DataCopyPad (any element count, contiguous),
DataCopyNd (a multi-dimensional strided gather GM -> UB; a stride of 0 repeats an element: the
NDDMA broadcast), DataCopyNdDma (AscendC's DataCopy with NdDmaParams: per-dimension sizes,
strides both sides and left/right padding) and GetValue (one scalar read from GM).

Unlike DataCopy, these move exactly the bytes asked for: a tile that ends at the tensor's end
touches no GM byte past it. The UB side must be 32-byte aligned."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import findings as fk
from .datacopy_params import DataCopyExtParams, DataCopyPadBlocks, DataCopyParams, PaddingMode
from .errors import EmulatorError
from .global_tensor import GlobalTensor, gm_read, gm_write
from .local_tensor import LocalTensor, read_local, write_local
from .repeat import scatter

UB_ALIGN = 32


def _check_ub(lt: LocalTensor, nbytes: int, instruction: str) -> None:
    ctx = lt.ctx
    if ctx.sanitize and lt.ub_addr % UB_ALIGN:
        ctx.log.add(fk.DATACOPY_UNALIGNED, instruction, lt.buffer.name, lt.offset, nbytes,
                    f"UB address {lt.ub_addr:#x} is not {UB_ALIGN}-byte aligned")


def DataCopyPad(dst, src, count, *rest) -> None:  # noqa: N802 - AscendC name
    """Copy exactly `count` elements GM -> UB or UB -> GM. (With a DataCopyExtParams or
    DataCopyParams in count's place, and GM -> UB its pad params, then optionally a PaddingMode:
    the burst form, datacopy_params.DataCopyPadBlocks.)"""
    mode = PaddingMode.Normal
    if rest and isinstance(rest[-1], PaddingMode):
        mode, rest = rest[-1], rest[:-1]
    if len(rest) > 1:
        raise EmulatorError(f"DataCopyPad takes (dst, src, params[, pad][, mode]), got {3 + len(rest)} arguments")
    pad = rest[0] if rest else None
    if isinstance(count, (DataCopyExtParams, DataCopyParams)):
        DataCopyPadBlocks(dst, src, count, pad, mode)
        return
    if mode is not PaddingMode.Normal:
        raise EmulatorError("DataCopyPad(dst, src, count) has no PaddingMode: it goes with DataCopyExtParams")
    if pad is not None:
        raise EmulatorError("DataCopyPad(dst, src, count) takes no pad params: those go with DataCopyExtParams")
    if dst.dtype != src.dtype:
        raise EmulatorError(f"DataCopyPad between {src.dtype} and {dst.dtype}: the types must match")
    count = int(count)
    if count < 0:
        raise EmulatorError(f"DataCopyPad count must be >= 0, got {count}")
    nbytes = count * dst.dtype.itemsize
    if isinstance(dst, LocalTensor) and isinstance(src, GlobalTensor):
        _check_ub(dst, nbytes, "DataCopyPad")
        if nbytes:
            write_local(dst, gm_read(src, nbytes, "DataCopyPad"), "DataCopyPad")
    elif isinstance(dst, GlobalTensor) and isinstance(src, LocalTensor):
        _check_ub(src, nbytes, "DataCopyPad")
        if nbytes:
            gm_write(dst, read_local(src, count, "DataCopyPad").view(np.uint8), "DataCopyPad")
    else:
        raise EmulatorError(f"DataCopyPad from {type(src).__name__} to {type(dst).__name__} is not a GM/UB copy")


def DataCopyNd(dst: LocalTensor, src: GlobalTensor, dims: Sequence[int], strides: Sequence[int]) -> None:  # noqa: N802
    """dst (dense, row-major over `dims`) <- src[sum(i_k * strides[k])]: a strided gather in
    elements; a 0 stride repeats along that axis. GM is read over the gather's span only."""
    if dst.dtype != src.dtype:
        raise EmulatorError(f"DataCopyNd between {src.dtype} and {dst.dtype}: the types must match")
    dims, strides = tuple(int(d) for d in dims), tuple(int(s) for s in strides)
    if len(dims) != len(strides) or any(d < 0 for d in dims) or any(s < 0 for s in strides):
        raise EmulatorError(f"DataCopyNd dims {dims} / strides {strides}: same rank, non-negative")
    count = int(np.prod(dims, dtype=np.int64))
    item = dst.dtype.itemsize
    _check_ub(dst, count * item, "DataCopyNd")
    if count == 0:
        return
    span = 1 + sum((d - 1) * s for d, s in zip(dims, strides, strict=True))
    raw = gm_read(src, span * item, "DataCopyNd").view(dst.dtype)
    view = np.lib.stride_tricks.as_strided(raw, shape=dims, strides=tuple(s * item for s in strides),
                                           writeable=False)
    write_local(dst, np.ascontiguousarray(view).reshape(-1), "DataCopyNd")


def DataCopyNdDma(dst: LocalTensor, src: GlobalTensor, sizes: Sequence[int], src_strides: Sequence[int],  # noqa: N802
                  dst_strides: Sequence[int], left: Sequence[int], right: Sequence[int], constant=0,
                  nearest: bool = False) -> None:
    """AscendC's `DataCopy<T, dim, config>(dst, src, NdDmaParams<T, dim>)` (Ascend950's NDDMA), every
    sequence indexed from the lowest dimension. Along dimension k the copy visits
    left[k] + sizes[k] + right[k] positions p; position p lands at dst element sum(p_k * dst_strides[k])
    and reads src element sum((p_k - left[k]) * src_strides[k]), or, in the padding (p_k - left[k]
    outside [0, sizes[k])), `constant` -- or with `nearest` (isNearestValueMode) the element at the
    dimension's nearest edge. Strides are in elements; a stride of 0 broadcasts.

    GM is judged (and recorded for the race checks) as one read over the span of elements read."""
    name = "DataCopy"
    if dst.dtype != src.dtype:
        raise EmulatorError(f"{name} (NDDMA) between {src.dtype} and {dst.dtype}: the types must match")
    dims = len(sizes)
    if not 1 <= dims <= 5 or not len(src_strides) == len(dst_strides) == len(left) == len(right) == dims:
        raise EmulatorError(f"{name} (NDDMA): 1 to 5 dimensions, each with a size, two strides and two paddings")
    sizes, left, right = ([int(v) for v in seq] for seq in (sizes, left, right))
    if any(v < 0 for v in (*sizes, *src_strides, *dst_strides)) or any(not 0 <= v <= 255 for v in (*left, *right)):
        raise EmulatorError(f"{name} (NDDMA): sizes and strides >= 0, paddings 0..255 elements")
    nearest = bool(nearest)
    dst.ctx.counters.issue(name)
    full = [lp + n + rp for lp, n, rp in zip(left, sizes, right, strict=True)]
    if 0 in full:
        return
    # one axis per dimension, the highest first, so the flattened order runs the lowest fastest
    axes = range(dims - 1, -1, -1)
    pos = np.ix_(*(np.arange(full[k], dtype=np.int64) for k in axes))
    dst_off = sum(p * int(dst_strides[k]) for p, k in zip(pos, axes, strict=True))
    index = [p - left[k] for p, k in zip(pos, axes, strict=True)]
    inside = np.ones(full[::-1], dtype=bool)
    for j, k in zip(index, axes, strict=True):
        inside = inside & (j >= 0) & (j < sizes[k])
    readable = [np.clip(j, 0, max(sizes[k] - 1, 0)) for j, k in zip(index, axes, strict=True)]
    src_off = sum(j * int(src_strides[k]) for j, k in zip(readable, axes, strict=True))
    src_off = np.broadcast_to(src_off, inside.shape)
    reads = inside | nearest if all(sizes) else np.zeros_like(inside)
    values = np.full(inside.shape, np.asarray(constant).astype(dst.dtype), dtype=dst.dtype)
    if reads.any():
        lo, hi = int(src_off[reads].min()), int(src_off[reads].max())
        raw = gm_read(src[lo], (hi - lo + 1) * dst.dtype.itemsize, name).view(dst.dtype)
        values[reads] = raw[src_off[reads] - lo]
    _check_ub(dst, (int(np.max(dst_off)) + 1) * dst.dtype.itemsize, name)
    scatter(dst, np.broadcast_to(dst_off, inside.shape).reshape(-1), values.reshape(-1), name, issue=False)


def GetValue(src: GlobalTensor, index: int = 0):  # noqa: N802 - AscendC name
    """One element of GM (a scalar read through the scalar unit's cache)."""
    item = src.dtype.itemsize
    raw = gm_read(src[int(index)], item, "GetValue")
    return raw.view(src.dtype)[0]
