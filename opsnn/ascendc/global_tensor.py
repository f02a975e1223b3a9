"""GM as a kernel sees it: GM_ADDR pointers (GmPtr) and typed GlobalTensor views.

Each pointer remembers the kernel argument it came from, so an access can be judged against the
tensor's logical extent (spec §7: "past the tensor") and its allocation ("past the allocation")."""
from __future__ import annotations

import numpy as np

from . import findings as fk
from .core import CoreContext, WriteRange
from .errors import EmulatorError
from .gm import Allocation, GMError, padded_size


class GmPtr:
    """A `__gm__ T*`: a byte address inside one kernel argument, optionally typed. Immutable."""

    __slots__ = ("ctx", "name", "arg_base", "arg_nbytes", "alloc", "addr", "dtype")

    def __init__(self, ctx: CoreContext, name: str, arg_base: int, arg_nbytes: int, alloc: Allocation, addr: int,
                 dtype: np.dtype | None = None):
        self.ctx = ctx
        self.name = name  # the kernel argument's name
        self.arg_base = arg_base  # the argument's first byte
        self.arg_nbytes = arg_nbytes  # its logical extent
        self.alloc = alloc  # the allocation holding arg_base
        self.addr = addr
        self.dtype = dtype

    def _with(self, addr: int, dtype: np.dtype | None) -> GmPtr:
        return GmPtr(self.ctx, self.name, self.arg_base, self.arg_nbytes, self.alloc, addr, dtype)

    def as_type(self, dtype) -> GmPtr:
        """`(__gm__ T*)ptr`."""
        return self._with(self.addr, np.dtype(dtype))

    def __add__(self, elements: int) -> GmPtr:
        if self.dtype is None:
            raise EmulatorError(f"pointer arithmetic on untyped GM_ADDR {self.name}: cast it with as_type first")
        return self._with(self.addr + int(elements) * self.dtype.itemsize, self.dtype)

    def __repr__(self) -> str:
        return f"GmPtr({self.name}+{self.addr - self.arg_base}, {self.dtype})"


class GlobalTensor:
    """`GlobalTensor<T>`: a typed window on GM, set with SetGlobalBuffer."""

    __slots__ = ("dtype", "ptr", "buffer_size")

    def __init__(self, dtype):
        self.dtype = np.dtype(dtype)
        self.ptr: GmPtr | None = None
        self.buffer_size = 0

    def SetGlobalBuffer(self, ptr: GmPtr, buffer_size: int = 0) -> None:  # noqa: N802 - AscendC name
        if ptr.dtype is not None and ptr.dtype != self.dtype:
            raise EmulatorError(f"GlobalTensor<{self.dtype}> set on a {ptr.dtype} pointer ({ptr.name})")
        self.ptr = ptr._with(ptr.addr, self.dtype)
        self.buffer_size = int(buffer_size)

    def __getitem__(self, offset: int) -> GlobalTensor:
        """`gm[offset]`: the same tensor starting `offset` elements further."""
        sub = GlobalTensor(self.dtype)
        sub.ptr = self._bound() + offset
        sub.buffer_size = max(0, self.buffer_size - int(offset))
        return sub

    def GetSize(self) -> int:  # noqa: N802 - AscendC name
        return self.buffer_size

    def _bound(self) -> GmPtr:
        if self.ptr is None:
            raise EmulatorError("GlobalTensor used before SetGlobalBuffer")
        return self.ptr


def gm_read(gt: GlobalTensor, nbytes: int, instruction: str) -> np.ndarray:
    """The `nbytes` GM bytes at gt (uint8). Bytes outside the allocation read as zeros."""
    p = gt._bound()
    alloc, a, end = p.alloc, p.addr, p.addr + nbytes
    if p.arg_base <= a and end <= p.arg_base + p.arg_nbytes:  # the common case: inside the tensor
        off = a - alloc.base
        return alloc.data[off:off + nbytes]
    lo, hi = _check(p, a, end, instruction, write=False)
    out = np.zeros(nbytes, dtype=np.uint8)
    if lo < hi:
        out[lo - a:hi - a] = alloc.data[lo - alloc.base:hi - alloc.base]
    return out


def gm_write(gt: GlobalTensor, data: np.ndarray, instruction: str) -> None:
    """Store the uint8 `data` at gt. Bytes outside the allocation are dropped (never reach a neighbour)."""
    p = gt._bound()
    ctx = p.ctx
    alloc, a, end = p.alloc, p.addr, p.addr + data.size
    if ctx.sanitize and data.size:
        ctx.writes.append(WriteRange(a, end, ctx.block_idx, ctx.tile, p.name, p.arg_base))
    if p.arg_base <= a and end <= p.arg_base + p.arg_nbytes:
        off = a - alloc.base
        alloc.data[off:off + data.size] = data
        return
    lo, hi = _check(p, a, end, instruction, write=True)
    if lo < hi:
        alloc.data[lo - alloc.base:hi - alloc.base] = data[lo - a:hi - a]


def _check(p: GmPtr, a: int, end: int, instruction: str, write: bool) -> tuple[int, int]:
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
    log = ctx.log
    t_lo, t_hi = p.arg_base, p.arg_base + p.arg_nbytes
    # Past the tensor but inside its 512-byte-rounded footprint is the last core's block padding:
    # the design reads/writes it on purpose and it cannot reach another tensor, so it is expected.
    footprint_end = min(p.arg_base + padded_size(p.arg_nbytes), alloc.end)
    kind = fk.GM_WRITE_PAST_TENSOR if write else fk.GM_READ_PAST_TENSOR
    if a < t_lo:
        log.add(kind, instruction, p.name, a - t_lo, min(end, t_lo) - a,
                f"access [{a - t_lo}, {end - t_lo}) starts before the tensor")
    if end > t_hi:
        start = max(a, t_hi)
        expected = start >= t_lo and end <= footprint_end
        log.add(kind, instruction, p.name, start - t_lo, end - start,
                f"bytes [{start - t_lo}, {end - t_lo}) lie past the tensor's {p.arg_nbytes} bytes"
                + (" (block padding, inside the tensor's 512-byte-aligned footprint)" if expected
                   else " and beyond the tensor's 512-byte-aligned footprint"),
                fk.EXPECTED if expected else fk.ERROR)
    if outside_alloc:
        kind = fk.GM_WRITE_PAST_ALLOCATION if write else fk.GM_READ_PAST_ALLOCATION
        bad = (end - a) - max(0, hi - lo)
        first_bad = a if a < alloc.base else max(a, alloc.end)
        log.add(kind, instruction, p.name, first_bad - t_lo, bad,
                f"{bad} bytes outside the allocation [{alloc.base:#x}, +{alloc.padded}) of {p.name}; "
                + ("dropped" if write else "read as zeros"))
    return lo, hi
