"""Copy: AscendC's UB -> UB move between VECIN / VECCALC / VECOUT buffers, in its mask/repeat form.

``Copy(dst, src, mask, repeatTimes, CopyRepeatParams(dstStride, srcStride, dstRepeatSize,
srcRepeatSize))``: the active elements of each repeat (repeat.py: a continuous or bit mask, the
core's mask register with ``mask=None``, counter mode) are copied from src to dst, bit for bit.
dstStride / srcStride are the strides between the blocks of one repeat (AscendC's
dataBlockStride, 0..65535) and dstRepeatSize / srcRepeatSize the strides between repeats
(repeatStride, 0..4095), all in 32-byte blocks -- the addressing of every mask/repeat instruction.
A srcRepeatSize of 0 reads the same source every repeat: a kernel broadcasts one row that way.

Types (AscendC's list for Atlas A2): int16, uint16, half, int32, uint32, float. Only the bits move:
a NaN keeps its payload, -0 stays -0. AscendC has no count form of Copy (DataCopy is UB -> UB's
contiguous move)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import EmulatorError
from .local_tensor import LocalTensor, close_local, open_local, read_local
from .repeat import UnaryRepeatParams
from .vector_form import check_types, count_form, repeat_form

COPY_TYPES = tuple(np.dtype(t) for t in (np.int16, np.uint16, np.float16, np.int32, np.uint32, np.float32))
_BITS = {2: np.dtype(np.uint16), 4: np.dtype(np.uint32)}
MAX_BLOCK_STRIDE = 0xFFFF
MAX_REPEAT_SIZE = 4095


@dataclass
class CopyRepeatParams:
    """AscendC's CopyRepeatParams, in its field order: strides in 32-byte blocks."""
    dstStride: int = 1  # noqa: N815 - AscendC field names
    srcStride: int = 1  # noqa: N815
    dstRepeatSize: int = 8  # noqa: N815
    srcRepeatSize: int = 8  # noqa: N815

    def unary(self) -> UnaryRepeatParams:
        """The same addressing as a UnaryRepeatParams (checked against Copy's ranges)."""
        for name in ("dstStride", "srcStride"):
            v = int(getattr(self, name))
            if not 0 <= v <= MAX_BLOCK_STRIDE:
                raise EmulatorError(f"Copy: CopyRepeatParams.{name} {v} lies outside 0..{MAX_BLOCK_STRIDE}")
        for name in ("dstRepeatSize", "srcRepeatSize"):
            v = int(getattr(self, name))
            if not 0 <= v <= MAX_REPEAT_SIZE:
                raise EmulatorError(f"Copy: CopyRepeatParams.{name} {v} lies outside 0..{MAX_REPEAT_SIZE}")
        return UnaryRepeatParams(int(self.dstStride), int(self.srcStride), int(self.dstRepeatSize),
                                 int(self.srcRepeatSize))


def _same(x: np.ndarray) -> np.ndarray:
    return x


TRANSPOSE_TYPES = tuple(np.dtype(t) for t in (np.int16, np.uint16, np.float16))


def Copy(dst: LocalTensor, src: LocalTensor, mask, repeat_times: int | None = None,  # noqa: N802 - AscendC name
         params: CopyRepeatParams | None = None) -> None:
    """dst's active elements = src's, bit for bit (module docstring). ``Copy(dst, src, count)``,
    Ascend950's count form: the first `count` elements.

    Parameters
    ----------
    dst, src : LocalTensor
        One type of COPY_TYPES on both sides.
    mask : int, [low, high] or None
        Continuous count, bit words (C++'s ``uint64_t mask[2]`` order), or None: the core's
        SetVectorMask mask (AscendC's ``isSetMask = false``).
    repeat_times : int
        0..255.
    params : CopyRepeatParams
        The strides.
    """
    if repeat_times is None and params is None:
        t = check_types("Copy", COPY_TYPES, dst, src)
        bits = _BITS[t.itemsize]
        count_form("Copy", _same, dst.ReinterpretCast(bits), (src.ReinterpretCast(bits),), int(mask))
        return
    if not isinstance(params, CopyRepeatParams):
        raise EmulatorError(f"Copy: repeatParams must be a CopyRepeatParams, got {type(params).__name__}")
    t = check_types("Copy", COPY_TYPES, dst, src)
    bits = _BITS[t.itemsize]  # move the bits: no value ever passes through float arithmetic
    repeat_form("Copy", _same, dst.ReinterpretCast(bits), (src.ReinterpretCast(bits),), mask, repeat_times,
                params.unary())


def Transpose(dst: LocalTensor, src: LocalTensor) -> None:  # noqa: N802 - AscendC name
    """AscendC's basic Transpose: the 16 x 16 block of 2-byte elements at src, transposed into dst
    (int16, uint16, half; the bits move unchanged). The enhanced NCHW <-> NHWC form is not modelled."""
    name = "Transpose"
    t = check_types(name, TRANSPOSE_TYPES, dst, src)
    bits = _BITS[t.itemsize]
    block = read_local(src.ReinterpretCast(bits), 256, name).copy().reshape(16, 16)
    out, direct = open_local(dst.ReinterpretCast(bits), 256, name)
    out[...] = block.T.reshape(-1)
    close_local(dst.ReinterpretCast(bits), out, direct, name)
