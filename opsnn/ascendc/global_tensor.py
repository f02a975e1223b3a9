"""GM as a kernel sees it: GM_ADDR pointers (GmPtr) and typed GlobalTensor views.

Each pointer remembers the kernel argument it came from, so an access can be judged against the
tensor's logical extent (docs/threshold-grad-v2d.md §7: "past the tensor") and its allocation
("past the allocation")."""
from __future__ import annotations

import numpy as np
from numpy.typing import DTypeLike

from . import findings as fk
from .core import CoreContext
from .errors import EmulatorError
from .gm import Allocation, GMError
from .overlap import FILL_PREFIX


class GmPtr:
    """A `__gm__ T*`: a byte address inside one kernel argument, optionally typed. Immutable.

    launch() builds one per kernel argument and core; a kernel only casts and offsets it.

    Parameters
    ----------
    ctx : CoreContext
        The core the pointer belongs to.
    name : str
        The kernel argument's name (findings name it).
    arg_base : int
        The argument's first byte (GM address).
    arg_nbytes : int
        The argument's logical extent in bytes: the sanitizer's "past the tensor" bound.
    alloc : Allocation
        The GM allocation holding `arg_base`.
    addr : int
        The address the pointer points at.
    dtype : numpy.dtype or None
        The element type, None for an untyped ``GM_ADDR``.
    padding : tuple of (int, int)
        The GM address ranges [lo, hi) past the argument that the launch declares as this core's
        padding (see `Padding`): the only past-the-tensor bytes the sanitizer calls expected.
    """

    __slots__ = ("ctx", "name", "arg_base", "arg_nbytes", "alloc", "addr", "dtype", "padding")

    def __init__(self, ctx: CoreContext, name: str, arg_base: int, arg_nbytes: int, alloc: Allocation, addr: int,
                 dtype: np.dtype | None = None, padding: tuple[tuple[int, int], ...] = ()):
        self.ctx = ctx
        self.name = name  # the kernel argument's name
        self.arg_base = arg_base  # the argument's first byte
        self.arg_nbytes = arg_nbytes  # its logical extent
        self.alloc = alloc  # the allocation holding arg_base
        self.addr = addr
        self.dtype = dtype
        self.padding = padding  # this core's declared [lo, hi) past the argument, absolute addresses

    def _with(self, addr: int, dtype: np.dtype | None) -> GmPtr:
        return GmPtr(self.ctx, self.name, self.arg_base, self.arg_nbytes, self.alloc, addr, dtype, self.padding)

    def as_type(self, dtype: DTypeLike) -> GmPtr:
        """`(__gm__ T*)ptr`.

        Parameters
        ----------
        dtype : numpy dtype-like
            The element type.

        Returns
        -------
        GmPtr
            The same address, typed.
        """
        return self._with(self.addr, np.dtype(dtype))

    def __add__(self, elements: int) -> GmPtr:
        """`ptr + elements` on a typed pointer.

        Parameters
        ----------
        elements : int
            How many elements further (may be negative).

        Returns
        -------
        GmPtr
        """
        if self.dtype is None:
            raise EmulatorError(f"pointer arithmetic on untyped GM_ADDR {self.name}: cast it with as_type first")
        return self._with(self.addr + int(elements) * self.dtype.itemsize, self.dtype)

    def __repr__(self) -> str:
        return f"GmPtr({self.name}+{self.addr - self.arg_base}, {self.dtype})"


class GlobalTensor:
    """`GlobalTensor<T>`: a typed window on GM, set with SetGlobalBuffer.

    Parameters
    ----------
    dtype : numpy dtype-like
        The element type T.
    """

    __slots__ = ("dtype", "ptr", "buffer_size")

    def __init__(self, dtype: DTypeLike):
        self.dtype = np.dtype(dtype)
        self.ptr: GmPtr | None = None
        self.buffer_size = 0

    def SetGlobalBuffer(self, ptr: GmPtr, buffer_size: int = 0) -> None:  # noqa: N802 - AscendC name
        """Point the tensor at `ptr`.

        Parameters
        ----------
        ptr : GmPtr
            A kernel argument's pointer, untyped or of this tensor's type, offset as needed.
        buffer_size : int
            Elements the window holds (what GetSize returns; the sanitizer judges accesses
            against the kernel argument, not against this).
        """
        if ptr.dtype is not None and ptr.dtype != self.dtype:
            raise EmulatorError(f"GlobalTensor<{self.dtype}> set on a {ptr.dtype} pointer ({ptr.name})")
        self.ptr = ptr._with(ptr.addr, self.dtype)
        self.buffer_size = int(buffer_size)

    def __getitem__(self, offset: int) -> GlobalTensor:
        """`gm[offset]`: the same tensor starting `offset` elements further.

        Parameters
        ----------
        offset : int
            Elements.

        Returns
        -------
        GlobalTensor
        """
        sub = GlobalTensor(self.dtype)
        sub.ptr = self._bound() + offset
        sub.buffer_size = max(0, self.buffer_size - int(offset))
        return sub

    def GetSize(self) -> int:  # noqa: N802 - AscendC name
        """The element count given to SetGlobalBuffer (less any offset taken since).

        Returns
        -------
        int
        """
        return self.buffer_size

    def _bound(self) -> GmPtr:
        if self.ptr is None:
            raise EmulatorError("GlobalTensor used before SetGlobalBuffer")
        return self.ptr


def gm_read(gt: GlobalTensor, nbytes: int, instruction: str) -> np.ndarray:
    """The `nbytes` GM bytes at gt (uint8). Bytes outside the allocation read as zeros."""
    p = gt._bound()
    ctx = p.ctx
    ctx.counters.gm_to_ub_bytes += nbytes
    alloc, a, end = p.alloc, p.addr, p.addr + nbytes
    if p.arg_base <= a and end <= p.arg_base + p.arg_nbytes:  # the common case: inside the tensor
        if ctx.sanitize and nbytes:
            # GmRange's fields as a plain tuple: several times cheaper to build, one per access
            ctx.reads.append((a, end, ctx.block_idx, ctx.log.tile, p.name, p.arg_base, instruction, ctx.phase,
                              None, ctx.log.source))
        off = a - alloc.base
        return alloc.data[off:off + nbytes]
    lo, hi = _check(p, a, end, instruction, write=False)
    out = np.zeros(nbytes, dtype=np.uint8)
    if lo < hi:
        out[lo - a:hi - a] = alloc.data[lo - alloc.base:hi - alloc.base]
    return out


def gm_write(gt: GlobalTensor, data: np.ndarray, instruction: str, kind: str | None = None) -> None:
    """Store the uint8 `data` at gt. Bytes outside the allocation are dropped (never reach a neighbour).

    Under SetAtomicAdd/Max/Min (ctx.atomic) a DMA write combines with GM's bytes instead
    (atomic.py); a scalar SetValue overwrites. `kind` labels a plain write whose overlap with
    another core's write of the same kind is no race (InitGlobalMemory's fill of one value)."""
    p = gt._bound()
    ctx = p.ctx
    ctx.counters.ub_to_gm_bytes += data.size
    ctx.counters.issue(instruction)
    alloc, a, end = p.alloc, p.addr, p.addr + data.size
    atomic = ctx.atomic if instruction not in SCALAR_WRITES else None
    if p.arg_base <= a and end <= p.arg_base + p.arg_nbytes:
        if ctx.sanitize and data.size:
            ctx.writes.append((a, end, ctx.block_idx, ctx.log.tile, p.name, p.arg_base, instruction, ctx.phase,
                               kind if atomic is None else _atomic_label(atomic), ctx.log.source))
        off = a - alloc.base
        if atomic is not None:
            data = _atomic_combine(atomic, alloc.data[off:off + data.size], data)
        alloc.data[off:off + data.size] = data
        return
    lo, hi = _check(p, a, end, instruction, write=True, atomic=atomic)
    if lo < hi:
        if atomic is not None:  # combine the whole write against GM's bytes (zeros where none are)
            old = np.zeros(data.size, dtype=np.uint8)
            old[lo - a:hi - a] = alloc.data[lo - alloc.base:hi - alloc.base]
            data = _atomic_combine(atomic, old, data)
        alloc.data[lo - alloc.base:hi - alloc.base] = data[lo - a:hi - a]


# GM writes of the scalar unit, which the atomic mode (an MTE3 setting) does not touch
SCALAR_WRITES = frozenset({"SetValue"})


def _atomic_combine(mode: tuple, old: np.ndarray, new: np.ndarray) -> np.ndarray:
    from .atomic import combine  # the vector arithmetic: loaded only by kernels that use atomics
    return combine(mode, old, new)


def _atomic_label(mode: tuple) -> str:
    return f"{mode[0]} {mode[1]}"


def InitGlobalMemory(gm: GlobalTensor, size: int, value) -> None:  # noqa: N802 - AscendC name
    """AscendC's InitGlobalMemory(gmWorkspaceAddr, size, value): `size` elements of GM from gm set
    to `value` (a DMA write: under SetAtomicAdd it adds, as the device's Duplicate + DataCopy
    would). The usual use: each core zeroes its part of an output or a workspace, then SyncAll.

    Parameters
    ----------
    gm : GlobalTensor
        Where the elements start.
    size : int
        How many elements, at least 0.
    value : scalar
        The value, converted to the tensor's type.
    """
    size = int(size)
    if size < 0:
        raise EmulatorError(f"InitGlobalMemory size must be >= 0, got {size}")
    if size:
        data = np.full(size, value, dtype=gm.dtype)
        # cores filling the same bytes with the same value do not race (the result is that value)
        gm_write(gm, data.view(np.uint8), "InitGlobalMemory", f"{FILL_PREFIX}{data[:1].view(np.uint8).tobytes().hex()}")


def _split(start: int, end: int, padding: tuple[tuple[int, int], ...]) -> list[tuple[int, int, bool]]:
    """[start, end) cut into pieces (lo, hi, declared): inside one of the `padding` ranges or not."""
    pieces, pos = [], start
    for d_lo, d_hi in sorted(padding):
        lo, hi = max(pos, d_lo), min(end, d_hi)
        if lo >= hi:
            continue
        if lo > pos:
            pieces.append((pos, lo, False))
        pieces.append((lo, hi, True))
        pos = hi
    if pos < end:
        pieces.append((pos, end, False))
    return pieces


def _declared(p: GmPtr) -> str:
    t = p.arg_base
    return ", ".join(f"[{lo - t}, {hi - t})" for lo, hi in sorted(p.padding)) or "none"


def _check(p: GmPtr, a: int, end: int, instruction: str, write: bool, atomic: tuple | None = None) -> tuple[int, int]:
    """Judge an access that leaves the tensor; return the part [lo, hi) inside the allocation."""
    ctx, alloc = p.ctx, p.alloc
    lo, hi = max(a, alloc.base), min(end, alloc.end)
    outside_alloc = lo > a or hi < end or lo >= hi
    if outside_alloc and not ctx.sanitize:
        raise GMError(f"core {ctx.block_idx}: {instruction} {'writes' if write else 'reads'} GM "
                      f"[{a:#x}, {end:#x}) outside the allocation of {p.name} "
                      f"[{alloc.base:#x}, {alloc.end:#x})")
    if not ctx.sanitize:
        return lo, hi
    if lo < hi:  # only bytes that reach GM can race with another core
        (ctx.writes if write else ctx.reads).append(
            (lo, hi, ctx.block_idx, ctx.log.tile, p.name, p.arg_base, instruction, ctx.phase,
             None if atomic is None else _atomic_label(atomic), ctx.log.source))
    log = ctx.log
    t_lo, t_hi = p.arg_base, p.arg_base + p.arg_nbytes
    kind = fk.GM_WRITE_PAST_TENSOR if write else fk.GM_READ_PAST_TENSOR
    if a < t_lo:
        log.add(kind, instruction, p.name, a - t_lo, min(end, t_lo) - a,
                f"access [{a - t_lo}, {end - t_lo}) starts before the tensor")
    if end > t_hi:
        # Past the tensor is expected only inside the padding the launch declares for this core
        # (a tiling's block padding); any other byte, whichever the core, is an error.
        for s_lo, s_hi, declared in _split(max(a, t_hi), end, p.padding):
            where = f"bytes [{s_lo - t_lo}, {s_hi - t_lo}) lie past the tensor's {p.arg_nbytes} bytes"
            if declared:
                log.add(kind, instruction, p.name, s_lo - t_lo, s_hi - s_lo,
                        f"{where}, inside the padding declared for core {ctx.block_idx}", fk.EXPECTED)
            else:
                log.add(kind, instruction, p.name, s_lo - t_lo, s_hi - s_lo,
                        f"{where}, outside the padding declared for core {ctx.block_idx} ({_declared(p)})")
    if outside_alloc:
        kind = fk.GM_WRITE_PAST_ALLOCATION if write else fk.GM_READ_PAST_ALLOCATION
        bad = (end - a) - max(0, hi - lo)
        first_bad = a if a < alloc.base else max(a, alloc.end)
        log.add(kind, instruction, p.name, first_bad - t_lo, bad,
                f"{bad} bytes outside the allocation [{alloc.base:#x}, +{alloc.padded}) of {p.name}; "
                + ("dropped" if write else "read as zeros"))
    return lo, hi
