"""DataCopy: GM <-> UB (and UB <-> UB) in whole 32-byte units, as the MTE hardware moves them."""
from __future__ import annotations

import numpy as np

from . import findings as fk
from .datacopy_params import DataCopyBlocks, DataCopyParams
from .errors import EmulatorError
from .global_tensor import GlobalTensor, gm_read, gm_write
from .local_tensor import LocalTensor, read_local, write_local

DATACOPY_UNIT = 32  # bytes; UB addresses and lengths of DataCopy are in these units


def DataCopy(dst: LocalTensor | GlobalTensor, src: LocalTensor | GlobalTensor,  # noqa: N802
             count: int | DataCopyParams) -> None:
    """DataCopy(dst, src, count): copy `count` elements, GM -> UB, UB -> GM or UB -> UB. (With a
    DataCopyParams in count's place: the burst form, datacopy_params.DataCopyBlocks.)

    count*sizeof(T) must be a multiple of 32 bytes: the hardware silently drops the remainder
    (the emulator does the same and reports datacopy_unaligned), and the UB address must be
    32-byte aligned (reported). GM has no alignment rule (AscendC's restrictions align UB only;
    CANN's CPU-debug checker uses GM alignment 1): a core's slice may start at any element.
    DataCopyPad is the exact copy.

    Parameters
    ----------
    dst : LocalTensor or GlobalTensor
        Where to; the same element type as `src`.
    src : LocalTensor or GlobalTensor
        Where from.
    count : int or DataCopyParams
        Elements; or the burst form's params.
    """
    if isinstance(count, DataCopyParams):
        DataCopyBlocks(dst, src, count)
        return
    if dst.dtype != src.dtype:
        raise EmulatorError(f"DataCopy between {src.dtype} and {dst.dtype}: the types must match")
    count = int(count)
    if count < 0:
        raise EmulatorError(f"DataCopy count must be >= 0, got {count}")
    nbytes = count * dst.dtype.itemsize
    moved = nbytes // DATACOPY_UNIT * DATACOPY_UNIT
    if isinstance(dst, LocalTensor) and isinstance(src, GlobalTensor):
        _check_local(dst, nbytes, moved)
        if moved:
            write_local(dst, gm_read(src, moved, "DataCopy"), "DataCopy")
    elif isinstance(dst, GlobalTensor) and isinstance(src, LocalTensor):
        _check_local(src, nbytes, moved)
        if moved:
            gm_write(dst, read_local(src, moved // src.dtype.itemsize, "DataCopy").view(np.uint8), "DataCopy")
    elif isinstance(dst, LocalTensor) and isinstance(src, LocalTensor):
        _check_local(dst, nbytes, moved)
        _check_local(src, nbytes, moved)
        if moved:
            # UB -> UB moves the bytes as they are: undefined ones stay undefined in dst (no sink)
            write_local(dst, read_local(src, moved // src.dtype.itemsize, "DataCopy", sink=False).copy(), "DataCopy")
    else:
        raise EmulatorError(f"DataCopy from {type(src).__name__} to {type(dst).__name__} is not an AscendC copy")


def _check_local(lt: LocalTensor, nbytes: int, moved: int) -> None:
    ctx = lt.ctx
    if not ctx.sanitize:
        return
    if lt.ub_addr % DATACOPY_UNIT:
        ctx.log.add(fk.DATACOPY_UNALIGNED, "DataCopy", lt.buffer.name, lt.offset, nbytes,
                    f"UB address {lt.ub_addr:#x} is not {DATACOPY_UNIT}-byte aligned")
    if moved != nbytes:
        ctx.log.add(fk.DATACOPY_UNALIGNED, "DataCopy", lt.buffer.name, lt.offset + moved, nbytes - moved,
                    f"{nbytes} bytes is not a multiple of {DATACOPY_UNIT}: the hardware copies only {moved} "
                    f"and silently drops the last {nbytes - moved} (use DataCopyPad)")

