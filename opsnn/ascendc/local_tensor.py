"""UB as a kernel sees it: buffers handed out by TPipe, and typed LocalTensor views on them.

A LocalTensor is an address and a type; like the hardware, the emulator lets an access run past
the buffer into whatever lies behind it in UB (the sanitizer reports it as local_tensor_overflow).
An access before the buffer (a negative `t[k]`) is local_tensor_underflow: see `_underflow`.

Undefined values (the sanitizer's ub_read_before_write), as valgrind's memcheck treats them: UB
bytes nothing wrote since the core's run began are undefined, and so is what a vector instruction
computes from them, element by element (a bit mask bit by bit). Definedness belongs to UB
addresses, not to buffer handles: UB is not cleared between FreeTensor and AllocTensor (AscendC's
AllocTensor hands out the buffer at its fixed address and leaves its contents alone), so bytes a
core wrote earlier in its run -- through whichever buffer -- are the defined values a kernel reads
back after a re-allocation. Computing on undefined bytes is no error -- an A2 kernel routinely works
on whole 256-byte repeats past its last valid element and copies out only the valid part. Using
them is: an error is reported where undefined bytes leave the vector unit, for GM (DataCopy,
DataCopyPad) or for the scalar unit (GetValue), naming the instruction that first read unwritten
bytes. A DataCopy from UB to UB moves them along, still undefined (valgrind's memcpy)."""
from __future__ import annotations

from bisect import bisect_left, bisect_right

import numpy as np
from numpy.typing import DTypeLike

from . import findings as fk
from .core import CoreContext
from .errors import EmulatorError


class Definedness:
    """Sanitizer: which bytes of one UB array hold defined values (module docstring). Offsets are
    the array's (UB addresses for the core's UB), so every buffer over the same bytes sees the same
    state: a core's UB has one, a buffer given private storage (UB exhausted) its own."""

    __slots__ = ("written", "undefined")

    def __init__(self):
        # the byte ranges [lo, hi) written since the core's run began (sorted, disjoint). Ranges,
        # not a bitmap: buffers are written whole or in one or two pieces, so this stays short.
        self.written: list[tuple[int, int]] = []
        # the bit ranges [lo, hi) (sorted, disjoint) written with values computed from undefined
        # ones, each with where the undefined bytes were first read
        self.undefined: list[tuple[int, int, str]] = []


def _definedness(ctx: CoreContext, storage: np.ndarray) -> Definedness:
    if storage is not ctx.ub:
        return Definedness()
    if ctx.ub_defined is None:
        ctx.ub_defined = Definedness()
    return ctx.ub_defined


class UbBuffer:
    """One buffer of a TQue or TBuf: `nbytes` of UB from address `ub_addr`."""

    __slots__ = ("ctx", "name", "storage", "base", "ub_addr", "nbytes", "owner", "index", "state", "defs")

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
        self.defs = _definedness(ctx, storage)  # sanitizer: what its storage holds (shared with the core's UB)

    @property
    def written(self) -> list[tuple[int, int]]:
        """The byte ranges [lo, hi) of this buffer that hold written bytes (buffer-relative).
        Setting it declares exactly those bytes written (tests and debugging)."""
        lo, hi = self.base, self.base + self.nbytes
        return [(max(a, lo) - lo, min(b, hi) - lo) for a, b in self.defs.written if a < hi and b > lo]

    @written.setter
    def written(self, ranges) -> None:
        lo, hi = self.base, self.base + self.nbytes
        w = self.defs.written
        w[:] = [piece for a, b in w for piece in ((a, min(b, lo)), (max(a, hi), b)) if piece[0] < piece[1]]
        for a, b in ranges:
            if a < b:
                _add_range(w, lo + a, lo + b)

    @property
    def undefined(self) -> list[tuple[int, int, str]]:
        """The bit ranges [lo, hi) of this buffer holding values computed from undefined ones
        (buffer-relative), with where the undefined bytes were first read."""
        lo, hi = 8 * self.base, 8 * (self.base + self.nbytes)
        return [(max(a, lo) - lo, min(b, hi) - lo, o) for a, b, o in self.defs.undefined if a < hi and b > lo]


class LocalTensor:
    """`LocalTensor<T>`: element type + byte offset into one UB buffer.

    Kernels get them from `TQue.AllocTensor`, `TQue.DeQue` and `TBuf.Get`, not by construction.

    Parameters
    ----------
    buffer : UbBuffer
        The UB buffer the tensor lies in.
    dtype : numpy dtype-like
        The element type T.
    offset : int
        Bytes from the buffer's start.
    """

    __slots__ = ("buffer", "dtype", "offset")

    def __init__(self, buffer: UbBuffer, dtype: DTypeLike, offset: int = 0):
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
        """Elements from this tensor's start to the end of its buffer.

        Returns
        -------
        int
        """
        return max(0, self.buffer.nbytes - self.offset) // self.dtype.itemsize

    def ReinterpretCast(self, dtype: DTypeLike) -> LocalTensor:  # noqa: N802 - AscendC name
        """The same bytes as another element type.

        Parameters
        ----------
        dtype : numpy dtype-like
            The new element type.

        Returns
        -------
        LocalTensor
        """
        return LocalTensor(self.buffer, dtype, self.offset)

    def __getitem__(self, elements: int) -> LocalTensor:
        """`t[k]`: the tensor starting k elements further on.

        Parameters
        ----------
        elements : int
            How many elements further.

        Returns
        -------
        LocalTensor
        """
        return LocalTensor(self.buffer, self.dtype, self.offset + int(elements) * self.dtype.itemsize)

    def numpy(self, count: int | None = None) -> np.ndarray:
        """A copy of the first `count` elements (all by default): for tests and debugging.

        Not an instruction: the sanitizer does not judge it (no overflow, no read-before-write).

        Parameters
        ----------
        count : int or None
            Elements; None: up to the end of the buffer.

        Returns
        -------
        numpy.ndarray
        """
        count = self.GetSize() if count is None else count
        return read_local(self, count, "numpy", check=False).copy()

    def __repr__(self) -> str:
        return f"LocalTensor<{self.dtype}>({self.buffer.name}+{self.offset}, {self.GetSize()} elements)"


def _span(lt: LocalTensor, nbytes: int, instruction: str, check: bool,
          write: bool = False, sink: bool | None = None) -> tuple[int, int, int]:
    """(start, stop, head): the access's bytes that exist lie at [start, stop) of the buffer's
    storage, and they are the access's bytes from `head` on. Reports (sanitizer) an access past the
    buffer or before it, and records a write / judges a read against what was written (sink: whether
    undefined bytes read are an error here; None: as SINKS says for the instruction)."""
    buf = lt.buffer
    lo = lt.offset
    end = lo + nbytes
    head = 0
    if lo < 0:
        head = min(-lo, nbytes)
        if check:
            _underflow(lt, nbytes, instruction)
    if check and buf.ctx.sanitize:
        if end > buf.nbytes:
            start = max(lo, buf.nbytes)
            buf.ctx.log.add(fk.LOCAL_TENSOR_OVERFLOW, instruction, buf.name, start, end - start,
                            f"{nbytes} bytes at +{lo} of a {buf.nbytes}-byte buffer "
                            f"(UB {buf.ub_addr:#x}); the excess lands on whatever follows it in UB")
        defs = buf.defs
        if lo < end:
            # UB addresses (storage offsets) of the part inside the buffer; an overflow's bytes
            # beyond it are local_tensor_overflow's business for reads, and written for writes.
            # Inline fast path (benchmarked: one per operand of every instruction): the first
            # written range covers the access, as when the core's buffers were written in order.
            base = buf.base
            a = base + lo if lo > 0 else base
            if end <= buf.nbytes:
                b = reach = base + end
            else:
                b, reach = base + buf.nbytes, min(base + end, buf.storage.size)
            w = defs.written
            first = w[0] if w else (0, -1)
            if write:
                if not (first[0] <= a and reach <= first[1]) and not _covered(w, a, reach):
                    _mark_written(buf, lo, end)
                if buf.ctx.undefined_inputs or (defs.undefined and _touches(defs.undefined, 8 * a, 8 * b)):
                    _write_definedness(lt, lo, end, instruction)
            elif a < b and (not (first[0] <= a and b <= first[1]) and not _covered(w, a, b) or
                            defs.undefined and _touches(defs.undefined, 8 * a, 8 * b)):
                _check_written(lt, lo, end, instruction, sink)
    start = buf.base + lo + head
    return start, max(start, min(buf.base + end, buf.storage.size)), head


def _underflow(lt: LocalTensor, nbytes: int, instruction: str) -> None:
    """An access starting before its buffer. AscendC's `t[k]` takes k as uint32, so a negative k
    wraps to an address far past UB: the bytes before the buffer are neither read (zeros) nor
    written (dropped). Without the sanitizer it is an EmulatorError, as a fault would be."""
    buf, lo = lt.buffer, lt.offset
    n = min(-lo, nbytes)
    what = (f"{instruction}: {nbytes} bytes at {lo:+d} of the {buf.nbytes}-byte buffer {buf.name} "
            f"(UB {buf.ub_addr:#x}): bytes [{lo}, {lo + n}) lie before the buffer")
    if not buf.ctx.sanitize:
        raise EmulatorError(f"core {buf.ctx.block_idx}: {what} (a LocalTensor offset is unsigned on device)")
    buf.ctx.log.add(fk.LOCAL_TENSOR_UNDERFLOW, instruction, buf.name, lo, n,
                    f"{what}; a LocalTensor offset is unsigned on device, so a negative one wraps to an "
                    "address far past UB (not read: zeros; not written: dropped)")


def _covered(w: list[tuple[int, int]], lo: int, hi: int) -> bool:
    """Whether one of the sorted disjoint ranges `w` covers [lo, hi) (touching ranges are joined,
    so one range covers whatever is covered)."""
    if w:
        first = w[0]  # the usual case: the core's buffers written one after another, one range
        if first[0] <= lo and hi <= first[1]:
            return True
    i = bisect_right(w, (lo, _END)) - 1
    return i >= 0 and w[i][1] >= hi


_END = float("inf")


def _add_range(w: list[tuple[int, int]], lo: int, hi: int) -> None:
    """Merge [lo, hi) into the sorted disjoint ranges `w` (touching ranges are joined)."""
    if _covered(w, lo, hi):
        return
    i = bisect_right(w, (lo, _END)) - 1  # the last range starting at or before lo
    if i < 0 or w[i][1] < lo:
        i += 1  # it ends before lo (not even touching): the merge starts after it
    j = bisect_right(w, (hi, _END))  # ranges starting at or before hi touch or overlap
    if i < j:
        lo, hi = min(lo, w[i][0]), max(hi, w[j - 1][1])
    w[i:j] = [(lo, hi)]


def _overlapping(u: list, lo: int, hi: int) -> tuple[int, int]:
    """[i, j): the ranges of the sorted disjoint `u` ((lo, hi, ...) tuples) that overlap [lo, hi)."""
    i = bisect_right(u, (lo, _END)) - 1
    if i < 0 or u[i][1] <= lo:
        i += 1
    return i, bisect_left(u, (hi, -_END))


def _touches(u: list, lo: int, hi: int) -> bool:
    """Whether a range of `u` overlaps [lo, hi)."""
    if u[-1][1] <= lo or hi <= u[0][0]:  # all before or all after: no search
        return False
    i, j = _overlapping(u, lo, hi)
    return i < j


def _gaps(w: list[tuple[int, int]], lo: int, hi: int) -> list[tuple[int, int]]:
    """The parts of [lo, hi) that the sorted disjoint ranges `w` do not cover."""
    gaps, pos = [], lo
    for a, b in w[max(0, bisect_right(w, (lo, _END)) - 1):]:
        if b <= pos:
            continue
        if a >= hi:
            break
        if a > pos:
            gaps.append((pos, a))
        pos = b
        if pos >= hi:
            break
    if pos < hi:
        gaps.append((pos, hi))
    return gaps


def _mark_written(buf: UbBuffer, lo: int, hi: int) -> None:
    """Bytes [lo, hi) of buf (relative) written. An overflow writes the UB behind the buffer: the
    buffers there hold written bytes now (wrong ones; local_tensor_overflow says so), not
    uninitialised ones. Bytes before the buffer (an underflow) are not written at all."""
    a, b = buf.base + max(lo, 0), min(buf.base + hi, buf.storage.size)
    if a < b:
        _add_range(buf.defs.written, a, b)


# Where undefined values are an error (they leave the vector unit: to GM, to the scalar unit, into a
# control register), and the operands whose elements are bits: a Compare writes one bit per
# element, a Select reads one, And/Or/Not work bit by bit. A DataCopy from UB to UB is no sink: it
# moves the bytes as they are, undefined ones included (valgrind's memcpy); the copies pass sink=False.
SINKS = frozenset({"DataCopy", "DataCopyPad", "GetValue", "GET_TILING_DATA", "SetCmpMask"})
_MASK_WRITERS = frozenset({"Compare", "Compares", "CompareScalar"})
_BITWISE = frozenset({"And", "Or", "Not"})


def _element_bits(lt: LocalTensor, instruction: str, write: bool) -> int:
    """How many bits one element of this operand is, for the element-by-element propagation."""
    if instruction in _BITWISE:
        return 1
    if lt.dtype.itemsize == 1 and lt.dtype.kind == "u" and (
            (write and instruction in _MASK_WRITERS) or (not write and instruction == "Select")):
        return 1
    return lt.dtype.itemsize * 8


def _undefined_bits(defs: Definedness, lo: int, hi: int) -> list[tuple[int, int, str | None]]:
    """The bit ranges of storage bytes [lo, hi) that hold undefined values: never written (origin
    None) or written from undefined ones (their origin)."""
    out = [(8 * a, 8 * b, None) for a, b in _gaps(defs.written, lo, hi)]
    i, j = _overlapping(defs.undefined, 8 * lo, 8 * hi)
    for a, b, origin in defs.undefined[i:j]:
        out.append((max(a, 8 * lo), min(b, 8 * hi), origin))
    return out


def _check_written(lt: LocalTensor, lo: int, hi: int, instruction: str, sink: bool | None = None) -> None:
    """A read of bytes [lo, hi) of lt's buffer: an error where it takes undefined bytes out of the
    vector unit (sink; None: the instruction is in SINKS); otherwise the undefined elements are
    remembered for the instruction's write (`_write_definedness`)."""
    buf = lt.buffer
    lo, hi = max(lo, 0), min(hi, buf.nbytes)  # bytes past the buffer: local_tensor_overflow's business
    if lo >= hi:
        return
    bad = [(a - 8 * buf.base, b - 8 * buf.base, o) for a, b, o in
           _undefined_bits(buf.defs, buf.base + lo, buf.base + hi)]  # buffer-relative bits from here on
    if not bad:
        return
    ctx = buf.ctx
    if instruction in SINKS if sink is None else sink:
        for b_lo, b_hi, origin in bad:
            g_lo, g_hi = b_lo // 8, -(-b_hi // 8)
            if origin is None:
                detail = (f"{instruction} reads bytes [{g_lo}, {g_hi}) of {buf.name} that nothing wrote since the "
                          "core's run began: they hold whatever the UB held before")
            else:
                detail = (f"{instruction} reads bytes [{g_lo}, {g_hi}) of {buf.name}, computed from undefined UB "
                          f"bytes ({origin})")
            ctx.log.add(fk.UB_READ_BEFORE_WRITE, instruction, buf.name, g_lo, g_hi - g_lo, detail)
        return
    bits = _element_bits(lt, instruction, write=False)
    start = 8 * lt.offset
    where = f" at {ctx.log.source}" if ctx.log.source else ""
    for b_lo, b_hi, origin in bad:
        if origin is None:
            origin = f"{instruction}{where} read bytes [{b_lo // 8}, {-(-b_hi // 8)}) of {buf.name} that nothing " \
                     "wrote since the core's run began"
        ctx.undefined_inputs.append((instruction, (b_lo - start) // bits, -(-(b_hi - start) // bits), origin))


def _write_definedness(lt: LocalTensor, lo: int, hi: int, instruction: str) -> None:
    """A write of bytes [lo, hi): they hold defined values now, except the elements computed from
    undefined ones (what this instruction's reads found)."""
    buf = lt.buffer
    ctx = buf.ctx
    defs = buf.defs
    base = 8 * buf.base
    w_lo, w_hi = base + 8 * max(lo, 0), base + 8 * min(hi, buf.nbytes)
    i, j = _overlapping(defs.undefined, w_lo, w_hi)
    if i < j:
        u = defs.undefined
        kept = []
        if u[i][0] < w_lo:
            kept.append((u[i][0], w_lo, u[i][2]))
        if u[j - 1][1] > w_hi:
            kept.append((w_hi, u[j - 1][1], u[j - 1][2]))
        u[i:j] = kept
    pending = [p for p in ctx.undefined_inputs if p[0] == instruction]
    ctx.undefined_inputs.clear()
    if not pending or w_lo >= w_hi:
        return
    bits = _element_bits(lt, instruction, write=True)
    start = base + 8 * lt.offset
    for entry in pending:
        e_lo, e_hi, origin = entry[1], entry[2], entry[3]
        if e_hi is None:  # positions of a gather written by a plain write: all of it, to be safe
            e_lo, e_hi = 0, -(-(w_hi - start) // bits)
        _add_undefined(defs, max(start + e_lo * bits, w_lo), min(start + e_hi * bits, w_hi), origin)


def _add_undefined(defs: Definedness, a: int, b: int, origin: str) -> None:
    """Merge bits [a, b) into defs.undefined (touching ranges joined, the earlier origin kept)."""
    if a >= b:
        return
    u = defs.undefined
    i = bisect_right(u, (a, _END)) - 1
    if i < 0 or u[i][1] < a:
        i += 1
    j = bisect_right(u, (b, _END))
    if i < j:
        if u[i][0] < a:
            origin = u[i][2]
        a, b = min(a, u[i][0]), max(b, u[j - 1][1])
    u[i:j] = [(a, b, origin)]


def mark_undefined(lt: LocalTensor, elements, origin: str) -> None:
    """Mark elements (indices from lt's start) of lt as written from undefined values: for
    instructions that place their results themselves (the repeat forms' scatter)."""
    buf = lt.buffer
    size = 8 * lt.dtype.itemsize
    e = np.unique(np.asarray(elements, dtype=np.int64))
    if e.size == 0:
        return
    lo, hi = 8 * buf.base, 8 * (buf.base + buf.nbytes)
    start = lo + 8 * lt.offset
    cuts = np.flatnonzero(np.diff(e) != 1) + 1  # runs of consecutive elements, one range each
    for run in np.split(e, cuts):
        a, b = start + int(run[0]) * size, start + (int(run[-1]) + 1) * size
        _add_undefined(buf.defs, max(a, lo), min(b, hi), origin)


def mark_undefined_bits(lt: LocalTensor, bits, origin: str) -> None:
    """Mark single bits (indices from lt's first bit) as written from undefined values: for the
    compare results the mask/repeat forms place bit by bit."""
    buf = lt.buffer
    b = np.unique(np.asarray(bits, dtype=np.int64))
    if b.size == 0:
        return
    lo, hi = 8 * buf.base, 8 * (buf.base + buf.nbytes)
    start = lo + 8 * lt.offset
    cuts = np.flatnonzero(np.diff(b) != 1) + 1
    for run in np.split(b, cuts):
        _add_undefined(buf.defs, max(start + int(run[0]), lo), min(start + int(run[-1]) + 1, hi), origin)


def undefined_bits_read(lt: LocalTensor, instruction: str, first: int,
                        positions: np.ndarray) -> tuple[np.ndarray, str | None]:
    """Which of `positions` (bit indices from lt's first bit) the reads since undefined_inputs[first]
    found undefined: lt is the uint8 tensor those reads started at; their entries are consumed."""
    pending = lt.ctx.undefined_inputs
    found = pending[first:]
    del pending[first:]
    undefined = np.zeros(positions.size, dtype=bool)
    unit = _element_bits(lt, instruction, write=False)
    for entry in found:
        undefined |= (positions >= entry[1] * unit) & (positions < entry[2] * unit)
    return undefined, (found[0][3] if found else None)


def read_local(lt: LocalTensor, count: int, instruction: str, check: bool = True,
               sink: bool | None = None) -> np.ndarray:
    """`count` elements at lt (a view when possible). Bytes beyond the end of UB read as zeros.
    sink: whether undefined bytes read are an error here (None: as SINKS says; a UB -> UB copy
    passes False, so the bytes it moves keep their definedness)."""
    nbytes = count * lt.dtype.itemsize
    start, stop, head = _span(lt, nbytes, instruction, check, sink=sink)
    if stop - start == nbytes:
        return lt.buffer.storage[start:stop].view(lt.dtype)
    out = np.zeros(nbytes, dtype=np.uint8)
    out[head:head + stop - start] = lt.buffer.storage[start:stop]
    return out.view(lt.dtype)


def register_read(src: LocalTensor, count: int, name: str) -> tuple[np.ndarray, np.ndarray, str | None]:
    """A register load's `count` elements at src: (values, which are undefined, the first origin).

    A load moves a whole register, so at a tail it routinely reads past the end of src's buffer:
    those bytes (the next buffer's, or nothing's) are read as they lie in UB and are undefined lanes,
    no error by themselves -- an error only where such a lane leaves the vector unit (module
    docstring). Past the end of the kernel's UB it is local_tensor_overflow, as any access."""
    size = src.dtype.itemsize
    buf = src.buffer
    inside = max(0, min(count, (buf.nbytes - src.offset) // size)) if src.offset >= 0 else count
    past_ub = buf.ub_addr + src.offset + count * size > src.ctx.platform.kernel_ub
    over_read = inside < count and not past_ub and buf.storage is src.ctx.ub  # the tail lies in UB
    if not over_read:
        values = read_local(src, count, name).copy()
    else:
        values = np.empty(count, dtype=src.dtype)
        if inside:
            values[:inside] = read_local(src, inside, name)
        start = buf.base + src.offset + inside * size
        values[inside:] = buf.storage[start:start + (count - inside) * size].view(src.dtype)
    # the read's undefined elements, as local_tensor's check recorded them for this instruction
    ctx = src.ctx
    undefined = np.zeros(count, dtype=bool)
    origin = None
    keep = []
    for entry in ctx.undefined_inputs:
        if entry[0] != name:
            keep.append(entry)
            continue
        undefined[max(entry[1], 0):min(entry[2], count)] = True
        origin = origin or entry[3]
    ctx.undefined_inputs[:] = keep
    if over_read:
        undefined[inside:] = True
        origin = origin or (f"{name} at {ctx.log.source or '?'} read {count - inside} element(s) past the end of "
                            f"{buf.name}")
    return values, undefined, origin


def write_local(lt: LocalTensor, values: np.ndarray, instruction: str, check: bool = True,
                count: bool = True) -> None:
    """Store `values` (lt's dtype or raw bytes) at lt; bytes beyond the end of UB are dropped.
    count=False: one of several writes of an instruction counted once by its caller."""
    raw = values.view(np.uint8).reshape(-1)
    if check and count:  # close_local's write (check=False) finishes an instruction counted in open_local
        lt.buffer.ctx.counters.issue(instruction)
    start, stop, head = _span(lt, raw.size, instruction, check, True)
    lt.buffer.storage[start:stop] = raw[head:head + stop - start]


def mark_written(lt: LocalTensor, nbytes: int, instruction: str) -> None:
    """Record `nbytes` at lt as written by something the emulator did not see byte by byte (a
    SIMT vector function's threads): they count as defined values from here on."""
    _span(lt, nbytes, instruction, True, True)


def open_local(lt: LocalTensor, count: int, instruction: str) -> tuple[np.ndarray, bool]:
    """(array, direct) for an instruction to write `count` elements of lt into.

    direct: the array is the UB itself (the usual case, no copy). Otherwise part of the range lies
    beyond the end of UB and the array is scratch: hand it to close_local afterwards."""
    lt.buffer.ctx.counters.issue(instruction)
    nbytes = count * lt.dtype.itemsize
    start, stop, _ = _span(lt, nbytes, instruction, True, True)
    if stop - start == nbytes:
        return lt.buffer.storage[start:stop].view(lt.dtype), True
    return np.zeros(count, dtype=lt.dtype), False


def close_local(lt: LocalTensor, out: np.ndarray, direct: bool, instruction: str) -> None:
    if not direct:
        write_local(lt, out, instruction, check=False)  # open_local reported the overflow already
