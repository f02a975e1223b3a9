"""UB as a kernel sees it: buffers handed out by TPipe, and typed LocalTensor views on them.

A LocalTensor is an address and a type; like the hardware, the emulator lets an access run past
the buffer into whatever lies behind it in UB (the sanitizer reports it as local_tensor_overflow)."""
from __future__ import annotations

import numpy as np

from . import findings as fk
from .core import CoreContext


class UbBuffer:
    """One buffer of a TQue or TBuf: `nbytes` of UB from address `ub_addr`."""

    __slots__ = ("ctx", "name", "storage", "base", "ub_addr", "nbytes", "owner", "index", "state")

    def __init__(self, ctx: CoreContext, name: str, storage: np.ndarray, base: int, ub_addr: int, nbytes: int,
                 owner, index: int):
        self.ctx = ctx
        self.name = name
        self.storage = storage  # the core's UB array, or a private array when UB was exhausted
        self.base = base  # byte offset of the buffer in `storage`
        self.ub_addr = ub_addr  # its UB address (what alignment rules look at)
        self.nbytes = nbytes
        self.owner = owner  # the TQue / TBuf it belongs to
        self.index = index
        self.state = "free"  # TQue life cycle: free -> allocated -> queued -> dequeued -> free


class LocalTensor:
    """`LocalTensor<T>`: element type + byte offset into one UB buffer."""

    __slots__ = ("buffer", "dtype", "offset")

    def __init__(self, buffer: UbBuffer, dtype, offset: int = 0):
        self.buffer = buffer
        self.dtype = np.dtype(dtype)
        self.offset = offset  # bytes from the buffer's start

    @property
    def ctx(self) -> CoreContext:
        return self.buffer.ctx

    @property
    def ub_addr(self) -> int:
        return self.buffer.ub_addr + self.offset

    def GetSize(self) -> int:  # noqa: N802 - AscendC name
        """Elements from this tensor's start to the end of its buffer."""
        return max(0, self.buffer.nbytes - self.offset) // self.dtype.itemsize

    def ReinterpretCast(self, dtype) -> LocalTensor:  # noqa: N802 - AscendC name
        return LocalTensor(self.buffer, dtype, self.offset)

    def __getitem__(self, elements: int) -> LocalTensor:
        """`t[k]`: the tensor starting k elements further on."""
        return LocalTensor(self.buffer, self.dtype, self.offset + int(elements) * self.dtype.itemsize)

    def numpy(self, count: int | None = None) -> np.ndarray:
        """A copy of the first `count` elements (all by default): for tests and debugging."""
        count = self.GetSize() if count is None else count
        return read_local(self, count, "numpy", check=False).copy()

    def __repr__(self) -> str:
        return f"LocalTensor<{self.dtype}>({self.buffer.name}+{self.offset}, {self.GetSize()} elements)"


def _span(lt: LocalTensor, nbytes: int, instruction: str, check: bool) -> tuple[int, int]:
    """[start, stop) in the buffer's storage for `nbytes` at lt, reporting overflow past the buffer."""
    buf = lt.buffer
    if check and buf.ctx.sanitize and lt.offset + nbytes > buf.nbytes:
        start = max(lt.offset, buf.nbytes)
        buf.ctx.log.add(fk.LOCAL_TENSOR_OVERFLOW, instruction, buf.name, start, lt.offset + nbytes - start,
                        f"{nbytes} bytes at +{lt.offset} of a {buf.nbytes}-byte buffer "
                        f"(UB {buf.ub_addr:#x}); the excess lands on whatever follows it in UB")
    start = buf.base + lt.offset
    return start, min(start + nbytes, buf.storage.size)


def read_local(lt: LocalTensor, count: int, instruction: str, check: bool = True) -> np.ndarray:
    """`count` elements at lt (a view when possible). Bytes beyond the end of UB read as zeros."""
    nbytes = count * lt.dtype.itemsize
    start, stop = _span(lt, nbytes, instruction, check)
    if stop - start == nbytes:
        return lt.buffer.storage[start:stop].view(lt.dtype)
    out = np.zeros(nbytes, dtype=np.uint8)
    if stop > start:
        out[:stop - start] = lt.buffer.storage[start:stop]
    return out.view(lt.dtype)


def write_local(lt: LocalTensor, values: np.ndarray, instruction: str, check: bool = True) -> None:
    """Store `values` (lt's dtype or raw bytes) at lt; bytes beyond the end of UB are dropped."""
    raw = values.view(np.uint8).reshape(-1)
    start, stop = _span(lt, raw.size, instruction, check)
    lt.buffer.storage[start:stop] = raw[:stop - start]


def open_local(lt: LocalTensor, count: int, instruction: str) -> tuple[np.ndarray, bool]:
    """(array, direct) for an instruction to write `count` elements of lt into.

    direct: the array is the UB itself (the usual case, no copy). Otherwise part of the range lies
    beyond the end of UB and the array is scratch: hand it to close_local afterwards."""
    nbytes = count * lt.dtype.itemsize
    start, stop = _span(lt, nbytes, instruction, True)
    if stop - start == nbytes:
        return lt.buffer.storage[start:stop].view(lt.dtype), True
    return np.zeros(count, dtype=lt.dtype), False


def close_local(lt: LocalTensor, out: np.ndarray, direct: bool, instruction: str) -> None:
    if not direct:
        write_local(lt, out, instruction, check=False)  # open_local reported the overflow already
