"""Host pointers: the registry that lets `memcpy` read and write numpy arrays by address.

`numpy_to_ptr` hands out the array's real address and records the array weakly. A host pointer
is honoured only while it lies inside a live registered array, so a stale or invented address is
refused instead of being dereferenced; nothing here keeps an array alive."""
from __future__ import annotations

import weakref

import numpy as np


class HostMemoryError(ValueError):
    """A host pointer that no live registered array covers (or a read-only one written to)."""


class HostRegistry:
    """The arrays numpy_to_ptr has handed out, held weakly.

    No lock, by design: the collector runs weakref callbacks (and any object's __del__, which may
    call opsnn again) in the middle of whatever allocation triggers it, so a lock held here while
    allocating could be waited for by its own thread, forever. Every step is one dict operation,
    atomic under the GIL: WeakValueDictionary drops a dead array's entry without a lock, and a
    lookup works on a snapshot of the references taken in one step."""

    def __init__(self):
        self._arrays: weakref.WeakValueDictionary[int, np.ndarray] = weakref.WeakValueDictionary()

    def register(self, array: np.ndarray) -> int:
        if not isinstance(array, np.ndarray):
            raise TypeError(f"numpy_to_ptr needs a numpy array, got {type(array).__name__}")
        if not array.flags.c_contiguous:
            # The address of a strided array does not describe its bytes; pyACL refuses it too.
            raise ValueError("numpy_to_ptr needs a C-contiguous array (use np.ascontiguousarray)")
        self._arrays[id(array)] = array  # keyed by id: one entry per live array
        return int(array.ctypes.data)

    def bytes_at(self, ptr: int, nbytes: int, writable: bool) -> np.ndarray:
        """uint8 view of host bytes [ptr, ptr+nbytes) inside one live registered array."""
        for ref in self._arrays.valuerefs():
            array = ref()
            if array is None:
                continue
            # Where the array lives now (one resized in place since registration has moved).
            addr = int(array.ctypes.data)
            if addr <= ptr and ptr + nbytes <= addr + array.nbytes:
                if writable and not array.flags.writeable:
                    raise HostMemoryError(f"host pointer {ptr:#x} is a read-only array")
                return array.reshape(-1).view(np.uint8)[ptr - addr:ptr - addr + nbytes]
        raise HostMemoryError(
            f"host range [{ptr:#x}, +{nbytes}) is not inside any live array from numpy_to_ptr")

# Host addresses are process-wide, so the registry is too (as pyACL's util module is).
HOST = HostRegistry()
