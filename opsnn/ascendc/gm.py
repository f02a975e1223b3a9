"""Emulated device global memory (GM): a byte arena of allocations addressed by integer pointers.

Every allocation is padded to a multiple of 512 bytes, as the device memory pool aligns blocks
(docs/threshold-grad-v2d.md §7), so a kernel that overruns its tensor by < 512 bytes stays inside its own allocation.
Allocations never share bytes: an access is resolved to one allocation or refused."""
from __future__ import annotations

import bisect
import threading
from dataclasses import dataclass, field

import numpy as np

GM_ALIGN = 512
BASE_ADDRESS = 0x12C0_0000_0000  # looks like a device address; never 0, so 0 can mean null


class GMError(Exception):
    """Bad GM use: unknown or freed pointer, access outside any allocation, size 0."""


@dataclass(eq=False)
class Allocation:
    base: int
    size: int  # logical bytes asked for
    padded: int  # bytes really reserved: size rounded up to GM_ALIGN
    data: np.ndarray = field(repr=False)  # uint8[padded]

    @property
    def end(self) -> int:
        return self.base + self.padded

    def contains(self, addr: int, nbytes: int = 0) -> bool:
        return self.base <= addr and addr + nbytes <= self.end


_NO_ALLOCATION = Allocation(-1, 0, 0, np.empty(0, np.uint8))  # holds no address


def padded_size(size: int) -> int:
    return -(-size // GM_ALIGN) * GM_ALIGN


class GlobalMemory:
    """One device's GM. Thread-safe for malloc/free; data access is plain numpy on the bytes.

    Allocations are rounded up to 512 bytes and never adjacent: a kernel's block padding stays
    inside its own allocation, and nothing reaches a neighbour.

    Parameters
    ----------
    base : int, optional
        The first address handed out. A runtime gives each init its own base, so an address of an
        earlier init never names memory of a later one.
    """

    def __init__(self, base: int = BASE_ADDRESS):
        # Reentrant, and no step inside leaves the two indexes disagreeing: the collector may run a
        # finalizer that frees device memory on this thread while it holds the lock (issue 20).
        self._lock = threading.RLock()
        self._bases: list[int] = []  # sorted
        self._allocs: dict[int, Allocation] = {}
        self._last = _NO_ALLOCATION  # find's last answer (dict.get and attribute writes are atomic)
        self._next = base

    def malloc(self, size: int) -> int:
        """Reserve `size` bytes (rounded up to 512), zero-filled.

        Parameters
        ----------
        size : int
            Bytes asked for, at least 1.

        Returns
        -------
        int
            The allocation's device address.
        """
        size = int(size)
        if size <= 0:
            raise GMError(f"cannot allocate {size} bytes")
        padded = padded_size(size)
        data = np.zeros(padded, dtype=np.uint8)
        with self._lock:
            base = self._next
            # Leave a 512-byte gap so that no two allocations are adjacent in the address space.
            self._next += padded + GM_ALIGN
        alloc = Allocation(base, size, padded, data)
        with self._lock:
            bisect.insort(self._bases, base)
            self._allocs[base] = alloc
        return base

    def free(self, ptr: int) -> None:
        """Release the allocation that starts at `ptr`.

        Parameters
        ----------
        ptr : int
            An address `malloc` returned and not yet freed.
        """
        with self._lock:
            if ptr not in self._allocs:
                raise GMError(f"free of unknown or already freed pointer {ptr:#x}")
            alloc = self._allocs.pop(ptr)
            self._bases.pop(bisect.bisect_left(self._bases, ptr))
            if self._last is alloc:
                self._last = _NO_ALLOCATION  # keep no freed bytes alive
        del alloc  # its bytes are released outside the lock

    def find(self, addr: int) -> Allocation | None:
        """The allocation whose padded range holds `addr`, or None."""
        last = self._last  # a repeated call finds the same allocation: checked live without the lock
        if last.base <= addr < last.base + last.padded and self._allocs.get(last.base) is last:
            return last
        with self._lock:
            i = bisect.bisect_right(self._bases, addr) - 1
            if i < 0:
                return None
            alloc = self._allocs[self._bases[i]]
        if alloc.base <= addr < alloc.end:
            self._last = alloc
            return alloc
        return None

    def allocation(self, ptr: int) -> Allocation:
        """The allocation that starts at `ptr` exactly."""
        with self._lock:
            alloc = self._allocs.get(ptr)
        if alloc is None:
            raise GMError(f"unknown device pointer {ptr:#x}")
        return alloc

    def bytes_view(self, addr: int, nbytes: int) -> np.ndarray:
        """uint8 view of [addr, addr+nbytes), which must lie in one allocation's padded range.

        Parameters
        ----------
        addr : int
            First byte.
        nbytes : int
            How many bytes.

        Returns
        -------
        numpy.ndarray
            A writable uint8 view of the device bytes (the host side of a memcpy).
        """
        alloc = self.find(addr)
        if alloc is None or not alloc.contains(addr, nbytes):
            raise GMError(f"GM access [{addr:#x}, +{nbytes}) is outside every allocation")
        off = addr - alloc.base
        return alloc.data[off:off + nbytes]

    def live(self) -> list[Allocation]:
        with self._lock:
            return [self._allocs[b] for b in list(self._bases) if b in self._allocs]
