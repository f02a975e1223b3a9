"""Building blocks for emulator unit tests: one core, UB buffers filled with given values."""
from __future__ import annotations

import numpy as np

from opsnn.ascendc import GlobalMemory, KernelArg, TBuf, TPipe
from opsnn.ascendc.core import CoreContext
from opsnn.ascendc.global_tensor import GlobalTensor, GmPtr
from opsnn.platform import Platform

PLATFORM = Platform.custom(ub_size=64 * 1024, aiv_cores=4)


def make_core(sanitize: bool = True, platform: Platform = PLATFORM, block_idx: int = 0) -> CoreContext:
    return CoreContext(block_idx, 1, platform, GlobalMemory(), sanitize)


class Ub:
    """A TPipe on one core handing out one TBuf per call."""

    def __init__(self, core: CoreContext):
        self.core = core
        self.pipe = TPipe(core)
        self.count = 0

    def buffer(self, dtype, n: int, values=None, nbytes: int | None = None):
        buf = TBuf(name=f"buf{self.count}")
        self.count += 1
        dtype = np.dtype(dtype)
        self.pipe.InitBuffer(buf, nbytes if nbytes is not None else max(1, n * dtype.itemsize))
        t = buf.Get(dtype)
        if values is not None:
            raw = np.ascontiguousarray(np.asarray(values, dtype=dtype)).view(np.uint8)
            b = t.buffer
            b.storage[b.base:b.base + raw.size] = raw
            b.written = [(0, raw.size)]  # the test wrote them: not a read-before-write
        return t


def gm_tensor(core: CoreContext, name: str, data: np.ndarray, nbytes: int | None = None, alloc_bytes=None,
              padding: tuple[tuple[int, int], ...] = ()):
    """A GlobalTensor over a fresh GM allocation holding `data` (logical size nbytes, default data's);
    `padding`: (offset, nbytes) pairs past the tensor declared for this core."""
    raw = np.ascontiguousarray(data).view(np.uint8)
    size = nbytes if nbytes is not None else raw.size
    addr = core.gm.malloc(alloc_bytes or max(size, 1))
    core.gm.bytes_view(addr, raw.size)[:] = raw
    arg = KernelArg(name, addr, size)
    gt = GlobalTensor(data.dtype)
    declared = tuple((addr + off, addr + off + n) for off, n in padding)
    ptr = GmPtr(core, name, arg.addr, arg.nbytes, core.gm.allocation(addr), addr, None, declared)
    gt.SetGlobalBuffer(ptr.as_type(data.dtype), size // data.dtype.itemsize)
    return gt, addr


def kinds(core: CoreContext) -> list[str]:
    return [f.kind for f in core.log.items]


def bits(a: np.ndarray) -> np.ndarray:
    """The bit patterns of a float/int array, so NaN equals NaN in comparisons."""
    a = np.ascontiguousarray(a)
    return a.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize])


def copy_out(lt, count: int) -> None:
    """Read `count` elements of lt as a DataCopy to GM does: where undefined values become an error
    (the sanitizer lets vector instructions compute on them and reports where they leave UB)."""
    from opsnn.ascendc.local_tensor import read_local
    read_local(lt, count, "DataCopy")
