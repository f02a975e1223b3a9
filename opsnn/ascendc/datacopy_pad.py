"""Exact GM <-> UB copies of the Ascend950 DMA: DataCopyPad (any element count, contiguous),
DataCopyNd (a multi-dimensional strided gather GM -> UB; a stride of 0 repeats an element: the
NDDMA broadcast) and GetValue (one scalar read from GM).

Unlike DataCopy, these move exactly the bytes asked for: a tile that ends at the tensor's end
touches no GM byte past it. The UB side must be 32-byte aligned."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import findings as fk
from .datacopy_params import DataCopyExtParams, DataCopyPadBlocks, DataCopyPadExtParams, DataCopyParams
from .errors import EmulatorError
from .global_tensor import GlobalTensor, gm_read, gm_write
from .local_tensor import LocalTensor, read_local, write_local

UB_ALIGN = 32


def _check_ub(lt: LocalTensor, nbytes: int, instruction: str) -> None:
    ctx = lt.ctx
    if ctx.sanitize and lt.ub_addr % UB_ALIGN:
        ctx.log.add(fk.DATACOPY_UNALIGNED, instruction, lt.buffer.name, lt.offset, nbytes,
                    f"UB address {lt.ub_addr:#x} is not {UB_ALIGN}-byte aligned")


def DataCopyPad(dst, src, count, pad: DataCopyPadExtParams | None = None) -> None:  # noqa: N802 - AscendC name
    """Copy exactly `count` elements GM -> UB or UB -> GM. (With a DataCopyExtParams or
    DataCopyParams in count's place, and GM -> UB its pad params: the Atlas A2 burst form,
    datacopy_params.DataCopyPadBlocks.)"""
    if isinstance(count, (DataCopyExtParams, DataCopyParams)):
        DataCopyPadBlocks(dst, src, count, pad)
        return
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


def GetValue(src: GlobalTensor, index: int = 0):  # noqa: N802 - AscendC name
    """One element of GM (a scalar read through the scalar unit's cache)."""
    item = src.dtype.itemsize
    raw = gm_read(src[int(index)], item, "GetValue")
    return raw.view(src.dtype)[0]
