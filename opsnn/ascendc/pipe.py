"""TPipe, TQue and TBuf: how a kernel carves its core's UB into buffers and hands them between
the CopyIn / Compute / CopyOut stages.

TPipe.InitBuffer places buffers one after another from UB address 0, each rounded up to 32 bytes,
and checks them against the UB the kernel may use (platform.kernel_ub). TQue keeps the buffer life
cycle AllocTensor -> EnQue -> DeQue -> FreeTensor and refuses misuse."""
from __future__ import annotations

from collections import deque
from enum import Enum

import numpy as np
from numpy.typing import DTypeLike

from . import findings as fk
from .core import UB_ALIGN, CoreContext
from .errors import CoreAborted, EmulatorError
from .local_tensor import LocalTensor, UbBuffer


class QuePosition(Enum):
    VECIN = "VECIN"
    VECOUT = "VECOUT"
    VECCALC = "VECCALC"


class _Holder:
    """What InitBuffer fills: a named owner of UB buffers."""

    def __init__(self, position: QuePosition, name: str | None):
        self.position = position
        self.name = name
        self.buffers: list[UbBuffer] = []
        self.ctx: CoreContext | None = None
        self.at_address = False  # local_tensor_at's: UB the kernel placed itself, not InitBuffer

    def _label(self) -> str:
        return self.name or f"{self.position.value.lower()}@{self.buffers[0].ub_addr if self.buffers else '?'}"

    def _misuse(self, instruction: str, detail: str, nbytes: int = 0):
        ctx = self.ctx
        if ctx is None:
            raise EmulatorError(f"{instruction} on {self._label()} before TPipe.InitBuffer")
        if not ctx.sanitize:
            raise EmulatorError(f"core {ctx.block_idx}: {instruction} on {self._label()}: {detail}")
        ctx.log.add(fk.QUEUE_MISUSE, instruction, self._label(), 0, nbytes, detail + "; the core stops here")
        raise CoreAborted(detail)


class TQue(_Holder):
    """`TQue<position, depth>`: buffers that travel between pipeline stages through a FIFO.

    A buffer's life cycle is AllocTensor -> EnQue -> DeQue -> FreeTensor, where a dequeued buffer
    may be enqueued again (CANN's TQueBind::EnQue accepts a buffer allocated or dequeued: a
    tensor copied in, computed on in place and handed on to the copy out); anything else is
    queue_misuse (under the sanitizer the core stops there; otherwise EmulatorError).

    Parameters
    ----------
    position : QuePosition
        VECIN (GM -> compute) or VECOUT (compute -> GM).
    depth : int
        How many tensors the FIFO holds at once, at least 1.
    name : str or None
        The name findings give its buffers (``name[i]`` when InitBuffer makes more than one).
    """

    def __init__(self, position: QuePosition, depth: int, name: str | None = None):
        if position not in (QuePosition.VECIN, QuePosition.VECOUT):
            raise EmulatorError(f"TQue position must be VECIN or VECOUT, got {position}")
        if depth < 1:
            raise EmulatorError(f"TQue depth must be >= 1, got {depth}")
        super().__init__(position, name)
        self.depth = depth
        self._fifo: deque[UbBuffer] = deque()
        self._next = 0  # buffers are handed out round-robin, as the hardware queue does

    def AllocTensor(self, dtype: DTypeLike) -> LocalTensor:  # noqa: N802 - AscendC name
        """A free buffer of the queue, as a tensor. Its contents are left alone, as AscendC's
        AllocTensor leaves them: what the core wrote at those UB addresses earlier in its run is
        still there (and defined for the sanitizer); bytes never written are undefined.

        Parameters
        ----------
        dtype : numpy dtype-like
            The element type of the tensor handed out.

        Returns
        -------
        LocalTensor
        """
        if not self.buffers:
            self._misuse("AllocTensor", "AllocTensor before InitBuffer")
        n = len(self.buffers)
        for k in range(n):
            buf = self.buffers[(self._next + k) % n]
            if buf.state == "free":
                self._next = (buf.index + 1) % n
                buf.state = "allocated"
                return LocalTensor(buf, dtype)
        self._misuse("AllocTensor", f"all {n} buffers are in use (allocated more than the queue holds)")

    def EnQue(self, tensor: LocalTensor) -> None:  # noqa: N802 - AscendC name
        """Hand an allocated or dequeued tensor to the next stage.

        Parameters
        ----------
        tensor : LocalTensor
            A tensor of this queue that AllocTensor or DeQue returned.
        """
        buf = self._own(tensor, "EnQue")
        if buf.state not in ("allocated", "dequeued"):
            self._misuse("EnQue", f"EnQue of buffer {buf.index} in state {buf.state!r} (must be allocated or "
                                  "dequeued)")
        if len(self._fifo) >= self.depth:
            self._misuse("EnQue", f"EnQue onto a full queue (depth {self.depth})")
        buf.state = "queued"
        self._fifo.append(buf)

    def DeQue(self, dtype: DTypeLike | None = None) -> LocalTensor:  # noqa: N802 - AscendC name
        """The oldest enqueued tensor.

        Parameters
        ----------
        dtype : numpy dtype-like or None
            Its element type (None: uint8).

        Returns
        -------
        LocalTensor
        """
        if not self._fifo:
            self._misuse("DeQue", "DeQue of an empty queue")
        buf = self._fifo.popleft()
        buf.state = "dequeued"
        return LocalTensor(buf, dtype if dtype is not None else np.uint8)

    def FreeTensor(self, tensor: LocalTensor) -> None:  # noqa: N802 - AscendC name
        """Give an allocated or dequeued tensor's buffer back to the queue.

        Parameters
        ----------
        tensor : LocalTensor
            A tensor of this queue.
        """
        buf = self._own(tensor, "FreeTensor")
        if buf.state not in ("allocated", "dequeued"):
            self._misuse("FreeTensor", f"FreeTensor of buffer {buf.index} in state {buf.state!r}")
        buf.state = "free"

    def _own(self, tensor: LocalTensor, instruction: str) -> UbBuffer:
        buf = tensor.buffer
        if buf.owner is not self:
            self._misuse(instruction, f"{instruction} of a tensor from {buf.name}, not from this queue")
        return buf


class TBuf(_Holder):
    """`TBuf<position>`: one scratch buffer with no queue semantics. What is written to it stays
    written across Get calls (a TBuf is allocated once, by InitBuffer).

    Parameters
    ----------
    position : QuePosition
        Usually VECCALC.
    name : str or None
        The name findings give its buffer.
    """

    def __init__(self, position: QuePosition = QuePosition.VECCALC, name: str | None = None):
        super().__init__(position, name)

    def Get(self, dtype: DTypeLike) -> LocalTensor:  # noqa: N802 - AscendC name
        """The buffer as a tensor of `dtype`.

        Parameters
        ----------
        dtype : numpy dtype-like
            The element type.

        Returns
        -------
        LocalTensor
        """
        if not self.buffers:
            raise EmulatorError(f"TBuf.Get on {self._label()} before InitBuffer")
        return LocalTensor(self.buffers[0], dtype)


def _ub_exhausted(ctx: CoreContext, name: str, addr: int, nbytes: int, limit: int, end: str) -> None:
    """ub_exhausted for buffer `name` at UB [addr, addr + nbytes) reaching past `limit` (`end` says
    what ends there); without the sanitizer an EmulatorError."""
    detail = f"buffer {name} at UB [{addr}, {addr + nbytes}) ends past {end}"
    if not ctx.sanitize:
        raise EmulatorError(f"core {ctx.block_idx}: UB exhausted: {detail}")
    start = max(addr, limit)
    ctx.log.add(fk.UB_EXHAUSTED, "InitBuffer", name, start - addr, addr + nbytes - start, detail)


def _counts(holder: TQue | TBuf, num_or_len: int, length: int | None) -> tuple[int, int]:
    """InitBuffer's (num, len), checked: (que, num, len) or (tbuf, len), each holder once."""
    if isinstance(holder, TQue):
        if length is None:
            raise EmulatorError("InitBuffer(que, num, len) needs the buffer length")
        num, length = int(num_or_len), int(length)
    elif isinstance(holder, TBuf):
        if length is not None:
            raise EmulatorError("InitBuffer(tbuf, len) takes one length")
        num, length = 1, int(num_or_len)
    else:
        raise EmulatorError(f"InitBuffer target must be a TQue or TBuf, got {type(holder).__name__}")
    if holder.buffers:
        raise EmulatorError(f"InitBuffer called twice on {holder._label()}")
    if num < 1 or length < 1:
        raise EmulatorError(f"InitBuffer needs num >= 1 and len >= 1, got {num}, {length}")
    return num, length


def _place(ctx: CoreContext, holder: TQue | TBuf, num: int, length: int, allocator) -> None:
    """Place `num` buffers of `length` bytes (each rounded up to 32) for `holder`, one after another
    where `allocator` (a TPipe or a TBufPool) hands out UB; ub_exhausted past its limit."""
    holder.ctx = ctx
    aligned = -(-length // UB_ALIGN) * UB_ALIGN
    limit = allocator.limit()
    for i in range(num):
        addr = allocator.next_address(aligned)
        name = holder.name or f"{holder.position.value.lower()}@{addr}"
        if num > 1:
            name = f"{name}[{i}]"
        if addr + aligned <= limit:
            storage, base = ctx.ub, addr
        else:
            allocator._exhausted(name, addr, aligned, limit)
            storage, base = np.zeros(aligned, dtype=np.uint8), 0  # emulation only: keep running
        holder.buffers.append(UbBuffer(ctx, name, storage, base, addr, aligned, holder, i))
        _keep(ctx, holder.buffers[-1])


def _keep(ctx: CoreContext, buf: UbBuffer) -> None:
    """Add buf to ctx.buffers, which stays in UB order (a reset pool, or a tensor the kernel places
    itself, puts a buffer where others lie): an overflow write marks the buffers behind it."""
    ctx.buffers.insert(sum(1 for b in ctx.buffers if b.ub_addr <= buf.ub_addr), buf)


class TPipe:
    """`TPipe`: the UB allocator of one core.

    Parameters
    ----------
    ctx : CoreContext
        The core whose UB it carves.
    """

    def __init__(self, ctx: CoreContext):
        self.ctx = ctx

    def InitBuffer(self, holder: TQue | TBuf, num_or_len: int, length: int | None = None) -> None:  # noqa: N802
        """InitBuffer(que, num, len) or InitBuffer(tbuf, len): place buffers one after another in
        UB, each rounded up to 32 bytes (ub_exhausted past the UB the kernel may use).

        Parameters
        ----------
        holder : TQue or TBuf
            What receives the buffers (each only once).
        num_or_len : int
            TQue: how many buffers; TBuf: the buffer's length in bytes.
        length : int or None
            TQue: each buffer's length in bytes; TBuf: must be None.
        """
        num, length = _counts(holder, num_or_len, length)
        _place(self.ctx, holder, num, length, self)

    def InitBufPool(self, pool: TBufPool, length: int) -> None:  # noqa: N802 - AscendC name
        """InitBufPool(pool, len): reserve `len` bytes of UB (rounded up to 32) for `pool`, whose own
        InitBuffer places buffers inside them."""
        if pool.ctx is not None:
            raise EmulatorError(f"InitBufPool called twice on {pool.name}")
        length = int(length)
        if length < 1:
            raise EmulatorError(f"InitBufPool needs len >= 1, got {length}")
        ctx = self.ctx
        aligned = -(-length // UB_ALIGN) * UB_ALIGN
        pool.ctx, pool.start = ctx, ctx.ub_used
        pool.cursor, pool.end = pool.start, pool.start + aligned
        ctx.ub_used += aligned
        if ctx.ub_used > ctx.platform.kernel_ub:
            self._exhausted(pool.name, pool.start, aligned, ctx.platform.kernel_ub)

    def Reset(self) -> None:  # noqa: N802 - AscendC name
        """TPipe::Reset: the next InitBuffer places from UB 0 again (AscendC's ResetPool), over the
        bytes of the buffers already placed, which the kernel must not use any more."""
        self.ctx.ub_used = 0

    def next_address(self, nbytes: int) -> int:
        """Where the next InitBuffer's buffer of `nbytes` lies (and the bytes it takes)."""
        addr = self.ctx.ub_used
        self.ctx.ub_used += nbytes
        return addr

    def limit(self) -> int:
        return self.ctx.platform.kernel_ub

    def _exhausted(self, name: str, addr: int, nbytes: int, limit: int) -> None:
        _ub_exhausted(self.ctx, name, addr, nbytes, limit,
                      f"the {limit} bytes the kernel may use on {self.ctx.platform.name}")


def local_tensor_at(ctx: CoreContext, position: QuePosition, ub_addr: int, nbytes: int,
                    dtype: DTypeLike) -> LocalTensor:
    """AscendC's `LocalTensor<T>(TPosition pos, uint32_t addr, uint32_t tileSize)`: a tensor over the
    UB bytes [ub_addr, ub_addr + nbytes) that no TPipe placed (the kernel lays UB out itself). Its
    buffer is a TBuf of `position`'s kind; the same span asked for again is the same buffer, so a
    kernel that builds such tensors in a loop keeps one buffer per span.

    Raises
    ------
    EmulatorError
        The span is empty, negative or reaches past the UB the kernel may use.
    """
    ub_addr, nbytes = int(ub_addr), int(nbytes)
    limit = ctx.platform.kernel_ub
    if ub_addr < 0 or nbytes < 1 or ub_addr + nbytes > limit:
        raise EmulatorError(f"LocalTensor(TPosition, {ub_addr}, ...) of {nbytes} bytes: the span must lie in the "
                            f"{limit} bytes of UB the kernel may use on {ctx.platform.name}")
    for buf in ctx.buffers:
        if buf.ub_addr == ub_addr and buf.nbytes == nbytes and isinstance(buf.owner, TBuf) and buf.owner.at_address:
            return LocalTensor(buf, dtype)
    holder = TBuf(position, f"LocalTensor({position.value}, {ub_addr})")
    holder.at_address = True
    holder.ctx = ctx
    buf = UbBuffer(ctx, holder.name, ctx.ub, ub_addr, ub_addr, nbytes, holder, 0)
    holder.buffers.append(buf)
    _keep(ctx, buf)
    return LocalTensor(buf, dtype)


class TBufPool:
    """`TBufPool<position, bufIDSize>`: UB a TPipe reserves (TPipe.InitBufPool) whose own InitBuffer
    places buffers inside it, one after another; Reset() places the next ones from its start again,
    over the bytes of those before (which the kernel must not use any more: their bytes are the new
    buffers' now).

    Parameters
    ----------
    position : QuePosition
        Usually VECCALC.
    name : str or None
        Named in findings.
    """

    def __init__(self, position: QuePosition = QuePosition.VECCALC, name: str | None = None):
        self.position = position
        self.name = name or f"TBufPool<{position.value}>"
        self.ctx: CoreContext | None = None
        self.start = self.end = self.cursor = 0

    def InitBuffer(self, holder: TQue | TBuf, num_or_len: int, length: int | None = None) -> None:  # noqa: N802
        """As TPipe.InitBuffer, inside the pool (ub_exhausted past its end)."""
        if self.ctx is None:
            raise EmulatorError(f"{self.name}.InitBuffer before TPipe.InitBufPool")
        num, length = _counts(holder, num_or_len, length)
        _place(self.ctx, holder, num, length, self)

    def Reset(self) -> None:  # noqa: N802 - AscendC name
        """Place the next buffers from the pool's start again."""
        self.cursor = self.start

    def next_address(self, nbytes: int) -> int:
        addr = self.cursor
        self.cursor += nbytes
        return addr

    def limit(self) -> int:
        return self.end

    def _exhausted(self, name: str, addr: int, nbytes: int, limit: int) -> None:
        _ub_exhausted(self.ctx, name, addr, nbytes, limit,
                      f"{self.name}'s end at {limit} (the pool holds [{self.start}, {limit}))")
