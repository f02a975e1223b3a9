"""Broadcast (in UB): dst (dense over dst_shape) <- src (dense over src_shape), every src axis
of size 1 repeated to dst's size on that axis."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .errors import EmulatorError
from .local_tensor import LocalTensor, close_local, open_local, read_local


def Broadcast(dst: LocalTensor, src: LocalTensor, dst_shape: Sequence[int], src_shape: Sequence[int]) -> None:  # noqa: N802
    dst_shape, src_shape = tuple(int(d) for d in dst_shape), tuple(int(d) for d in src_shape)
    if dst.dtype != src.dtype or len(dst_shape) != len(src_shape) or any(
            s not in (1, d) for s, d in zip(src_shape, dst_shape, strict=True)):
        raise EmulatorError(f"Broadcast {src.dtype}{list(src_shape)} -> {dst.dtype}{list(dst_shape)}")
    n_src, n_dst = int(np.prod(src_shape)), int(np.prod(dst_shape))
    if n_dst == 0:
        return
    values = read_local(src, n_src, "Broadcast").reshape(src_shape)
    out, direct = open_local(dst, n_dst, "Broadcast")
    out.reshape(dst_shape)[...] = values
    close_local(dst, out, direct, "Broadcast")
