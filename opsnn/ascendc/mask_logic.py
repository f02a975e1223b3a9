"""And / Or / Not on the packed bit masks Compare writes (bit i of the mask = element i, bit
i % 8 of byte i // 8): the vector unit's bitwise instructions on uint8, as the atvoss DAGs use them
to combine conditions (HardtanhGrad: in range AND ..., OR is NaN), and Not to invert one.

These are the uint8 mask forms: ceil(count / 8) bytes for `count` elements. AscendC's A2 And /
Or / Not work on int16/uint16 elements (upstream's HardtanhGrad inverts a mask as uint16 with
count = length / 16); the element forms belong to the binary/unary instruction modules, which
hand a uint8 mask to these."""
from __future__ import annotations

import numpy as np

from .local_tensor import LocalTensor, read_local, write_local


def _mask_bytes(count: int) -> int:
    return -(-int(count) // 8)


def _bitwise(name: str, op, dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, count: int) -> None:
    if count <= 0:
        return
    n = _mask_bytes(count)
    write_local(dst, op(read_local(src0, n, name), read_local(src1, n, name)), name)


def And(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, count: int) -> None:  # noqa: N802
    """dst = src0 & src1 over the mask bytes of `count` elements.

    Parameters
    ----------
    dst, src0, src1 : LocalTensor
        uint8 masks (one bit per element).
    count : int
        Elements: ceil(count / 8) bytes are combined.
    """
    _bitwise("And", np.bitwise_and, dst, src0, src1, count)


def Or(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, count: int) -> None:  # noqa: N802
    """dst = src0 | src1 over the mask bytes of `count` elements.

    Parameters
    ----------
    dst, src0, src1 : LocalTensor
        uint8 masks (one bit per element).
    count : int
        Elements: ceil(count / 8) bytes are combined.
    """
    _bitwise("Or", np.bitwise_or, dst, src0, src1, count)


def Not(dst: LocalTensor, src: LocalTensor, count: int) -> None:  # noqa: N802
    """dst = ~src over the mask bytes of `count` elements (the bits of a last partial byte past
    `count` are inverted too: the instruction works on whole bytes).

    Parameters
    ----------
    dst, src : LocalTensor
        uint8 masks (one bit per element); dst may be src.
    count : int
        Elements: ceil(count / 8) bytes are inverted.
    """
    if count <= 0:
        return
    write_local(dst, np.invert(read_local(src, _mask_bytes(count), "Not")), "Not")
