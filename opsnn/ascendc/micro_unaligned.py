"""AscendC::MicroAPI's moves between UB and registers at addresses that are not 32-byte aligned
(Ascend950): the unaligned-register pair LoadUnAlignPre / LoadUnAlign and the store pair
StoreUnAlign / StoreUnAlignPost (AscendC's older names: DataCopyUnAlignPre, DataCopyUnAlign,
DataCopyUnAlignPost). micro.py re-exports them.

What AscendC documents, and what is modelled:

- A store of `count` elements at an address `dst` (StoreUnAlign) writes its whole 32-byte blocks
  at once and keeps the last, partial block in the unaligned register (UnalignReg): with
  end = dst + count elements, the bytes [dst, end rounded down to 32 bytes) go to UB, the bytes
  [end rounded down, end) wait in the register, at positions 0.. of it, until StoreUnAlignPost
  (called with the address the stores reached) writes them. Consecutive stores continue one
  another: the bytes a store left waiting are written with the next store's first block. So a
  run of stores without its Post leaves the last partial block unwritten -- in UB those bytes keep
  what they held, as on the device.
- Assumed (not documented): the register keeps, per byte of its block, whether a store put it
  there, and Post and the next store write only those bytes -- a first store that starts in the
  middle of a block never writes the bytes before it; Post forgets what it wrote (a second Post
  writes nothing).
- A load (LoadUnAlign) gives the register's worth of elements starting at `src`, whatever its
  alignment. On the device LoadUnAlignPre first reads the aligned block holding `src` into the
  unaligned register and LoadUnAlign completes the rest from UB; here LoadUnAlign reads the bytes
  from UB itself, so a load whose Pre was forgotten is not detected (the Pre is counted, nothing
  more).
- No alignment rule applies (the point of these moves), but the bytes must lie in the buffer
  (local_tensor_overflow / underflow otherwise). Undefined values move along as with DataCopy:
  a load of bytes nothing wrote gives undefined lanes, a store of undefined lanes leaves those
  UB bytes undefined (reported where they leave the vector unit).

The unaligned register is a RegTensor: its first 32 bytes hold the waiting bytes, the next 32 one
flag per byte (whether it waits); a fresh register waits for nothing."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from opsnn.dtypes import dtype_name

from .errors import EmulatorError
from .local_tensor import LocalTensor, _span, register_read

if TYPE_CHECKING:
    from .core import CoreContext
    from .micro_core import RegTensor

BLOCK = 32  # bytes of a UB block
_HELD = slice(BLOCK, 2 * BLOCK)  # the unaligned register's per-byte "waiting" flags


def _micro():
    from . import micro_core as micro
    return micro


def UnalignReg(ctx: CoreContext) -> RegTensor:  # noqa: N802 - AscendC name
    """A fresh MicroAPI::UnalignReg (UnalignRegForLoad / UnalignRegForStore) of the core."""
    return _micro().RegTensor(ctx, np.uint8)


UnalignRegForLoad = UnalignRegForStore = UnalignReg


def _check_sizes(name: str, reg: RegTensor, lt: LocalTensor) -> np.dtype:
    t = lt.dtype
    if reg.dtype.itemsize != t.itemsize:
        raise EmulatorError(f"MicroAPI::{name}: a RegTensor<{dtype_name(reg.dtype)}> with a {dtype_name(t)} address")
    return t


def LoadUnAlignPre(ureg: RegTensor, src: LocalTensor) -> None:  # noqa: N802 - AscendC name
    """MicroAPI::LoadUnAlignPre(ureg, src): the device's read of src's block into ureg; counted,
    nothing more (module docstring)."""
    if not isinstance(src, LocalTensor):
        raise EmulatorError(f"MicroAPI::LoadUnAlignPre: src must be a UB address, got {type(src).__name__}")
    src.ctx.counters.issue("MicroAPI::LoadUnAlignPre")


def LoadUnAlign(dst: RegTensor, ureg: RegTensor, src: LocalTensor) -> None:  # noqa: N802 - AscendC name
    """MicroAPI::LoadUnAlign(dst, ureg, src): every lane of dst from the elements at src, any
    alignment."""
    name = "MicroAPI::LoadUnAlign"
    t = _check_sizes("LoadUnAlign", dst, src)
    ctx = src.ctx
    ctx.counters.issue(name)
    count = dst.data.size // t.itemsize
    values, undefined, origin = register_read(src, count, name)
    dst.data.view(t)[:] = values
    dst.undef[:] = np.repeat(undefined, t.itemsize)
    dst.origin = origin if undefined.any() else None


def _write_bytes(lt: LocalTensor, start: int, data: np.ndarray, held: np.ndarray, undef: np.ndarray,
                 name: str, origin: str | None) -> None:
    """data[k] to byte `start + k` of lt's buffer where held[k], undefined where undef[k]."""
    idx = np.flatnonzero(held)
    if idx.size == 0:
        return
    ctx = lt.ctx
    for run in np.split(idx, np.flatnonzero(np.diff(idx) != 1) + 1):
        k0, k1 = int(run[0]), int(run[-1]) + 1
        target = LocalTensor(lt.buffer, np.uint8, start + k0)
        bad = np.flatnonzero(undef[k0:k1])
        if bad.size and ctx.sanitize:
            pieces = np.split(bad, np.flatnonzero(np.diff(bad) != 1) + 1)
            ctx.undefined_inputs.extend((name, int(p[0]), int(p[-1]) + 1, origin) for p in pieces)
        first, stop, head = _span(target, k1 - k0, name, True, True)
        target.buffer.storage[first:stop] = data[k0 + head:k0 + head + stop - first]
        ctx.undefined_inputs[:] = [e for e in ctx.undefined_inputs if e[0] != name]


def StoreUnAlign(dst: LocalTensor, src: RegTensor, ureg: RegTensor, count: int) -> None:  # noqa: N802
    """MicroAPI::StoreUnAlign(dst, src, ureg, count): src's first `count` elements to dst, any
    alignment; the last partial block waits in ureg (module docstring). C++ then moves its address
    on by `count` (POST_MODE_UPDATE)."""
    name = "MicroAPI::StoreUnAlign"
    t = _check_sizes("StoreUnAlign", src, dst)
    lanes = src.data.size // t.itemsize
    count = int(count)
    if not 0 <= count <= lanes:
        raise EmulatorError(f"{name}: count {count} of {dtype_name(t)} elements: a register holds 0..{lanes}")
    ctx = dst.ctx
    ctx.counters.issue(name)
    start = dst.ub_addr
    end = start + count * t.itemsize
    lead = start % BLOCK  # bytes of dst's block before dst: what ureg holds for them
    done = end - end % BLOCK - (start - lead)  # bytes from the block's start that go to UB now
    n = lead + count * t.itemsize
    data = np.zeros(n, dtype=np.uint8)
    held = np.zeros(n, dtype=bool)
    undef = np.zeros(n, dtype=bool)
    data[:lead] = ureg.data[:lead]
    held[:lead] = ureg.data[_HELD][:lead] != 0
    undef[:lead] = ureg.undef[:lead] & held[:lead]
    data[lead:] = src.data[:count * t.itemsize]
    held[lead:] = True
    undef[lead:] = src.undef[:count * t.itemsize]
    origin = None
    if undef.any():
        origin = src.origin or ureg.origin or f"{name} stored lanes of a register nothing wrote"
    _write_bytes(dst, dst.offset - lead, data[:done], held[:done], undef[:done], name, origin)
    rest = n - done
    ureg.data[:] = 0
    ureg.undef[:] = False
    ureg.data[:rest] = data[done:]
    ureg.data[_HELD][:rest] = held[done:]
    ureg.undef[:rest] = undef[done:] & held[done:]
    ureg.origin = origin if ureg.undef.any() else None


def StoreUnAlignPost(dst: LocalTensor, ureg: RegTensor) -> None:  # noqa: N802 - AscendC name
    """MicroAPI::StoreUnAlignPost(dst, ureg, 0): the bytes waiting in ureg to the block that ends
    at dst (the address the stores reached)."""
    name = "MicroAPI::StoreUnAlignPost"
    if not isinstance(dst, LocalTensor):
        raise EmulatorError(f"{name}: dst must be a UB address, got {type(dst).__name__}")
    ctx = dst.ctx
    ctx.counters.issue(name)
    lead = dst.ub_addr % BLOCK
    held = ureg.data[_HELD][:lead] != 0
    _write_bytes(dst, dst.offset - lead, ureg.data[:lead].copy(), held, ureg.undef[:lead].copy(), name,
                 ureg.origin)
    ureg.data[_HELD] = 0


# AscendC's older names of the same instructions
DataCopyUnAlignPre = LoadUnAlignPre
DataCopyUnAlignPost = StoreUnAlignPost


def DataCopyUnAlign(first, second, third, *rest) -> None:  # noqa: N802 - AscendC name
    """MicroAPI::DataCopyUnAlign, both directions: (dst RegTensor, ureg, src LocalTensor) is
    LoadUnAlign, (dst LocalTensor, src RegTensor, ureg, count) is StoreUnAlign."""
    if isinstance(first, LocalTensor):
        StoreUnAlign(first, second, third, *rest)
    else:
        LoadUnAlign(first, second, third)


__all__ = ["DataCopyUnAlign", "DataCopyUnAlignPost", "DataCopyUnAlignPre", "LoadUnAlign", "LoadUnAlignPre",
           "StoreUnAlign", "StoreUnAlignPost", "UnalignReg", "UnalignRegForLoad", "UnalignRegForStore"]
