"""AscendC's high-level BroadCast<T, dim, axis>(dst, src, dstShape[dim], srcShape[dim][, tmp]):
src (dense over srcShape, size 1 on `axis`) repeated along `axis` to dst (dense over dstShape),
dim 1 or 2 (what the API takes). The values are copied bit for bit (broadcast.Broadcast); the
sharedTmpBuffer is accepted and not written."""
from __future__ import annotations

from collections.abc import Sequence

from .broadcast import Broadcast
from .errors import EmulatorError
from .local_tensor import LocalTensor


def BroadCast(dst: LocalTensor, src: LocalTensor, dst_shape: Sequence[int], src_shape: Sequence[int],  # noqa: N802
              axis: int, tmp: LocalTensor | None = None) -> None:
    """src broadcast along `axis` into dst (module docstring)."""
    dims = len(dst_shape)
    if dims not in (1, 2) or len(src_shape) != dims or not 0 <= int(axis) < dims:
        raise EmulatorError(f"BroadCast<dim={dims}, axis={axis}>: dim 1 or 2, the axis one of its dimensions")
    for k, (d, s) in enumerate(zip(dst_shape, src_shape, strict=True)):
        if k == int(axis) and s != 1 or k != int(axis) and s != d:
            raise EmulatorError(f"BroadCast along axis {axis}: srcShape {list(src_shape)} must be dstShape "
                                f"{list(dst_shape)} with 1 on that axis")
    Broadcast(dst, src, dst_shape, src_shape)
