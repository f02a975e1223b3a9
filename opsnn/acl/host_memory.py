"""Host pointers: the registry that lets `memcpy` read and write numpy arrays by address.

`numpy_to_ptr` hands out the array's real address and records the array weakly. A host pointer
is honoured only while it lies inside a live registered array, so a stale or invented address is
refused instead of being dereferenced; nothing here keeps an array alive."""
from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class _Entry:
    addr: int
    nbytes: int
    array: weakref.ref


class HostMemoryError(ValueError):
    """A host pointer that no live registered array covers (or a read-only one written to)."""


class HostRegistry:
    def __init__(self):
        self._lock = threading.Lock()
        self._entries: dict[int, _Entry] = {}  # keyed by id(array): one entry per live array

    def register(self, array: np.ndarray) -> int:
        if not isinstance(array, np.ndarray):
            raise TypeError(f"numpy_to_ptr needs a numpy array, got {type(array).__name__}")
        if not array.flags.c_contiguous:
            # The address of a strided array does not describe its bytes; pyACL refuses it too.
            raise ValueError("numpy_to_ptr needs a C-contiguous array (use np.ascontiguousarray)")
        addr, key = int(array.ctypes.data), id(array)
        with self._lock:
            known = self._entries.get(key)
            if known is None or known.array() is not array or (known.addr, known.nbytes) != (addr, array.nbytes):
                self._entries[key] = _Entry(addr, array.nbytes, weakref.ref(array, self._forget(key)))
        return addr

    def _forget(self, key: int):
        def callback(ref):
            with self._lock:
                if key in self._entries and self._entries[key].array is ref:
                    del self._entries[key]
        return callback

    def bytes_at(self, ptr: int, nbytes: int, writable: bool) -> np.ndarray:
        """uint8 view of host bytes [ptr, ptr+nbytes) inside one live registered array."""
        with self._lock:
            entries = list(self._entries.values())
        for entry in entries:
            if entry.addr <= ptr and ptr + nbytes <= entry.addr + entry.nbytes:
                array = entry.array()
                # An array resized in place since registration no longer lives at its address.
                if array is None or (int(array.ctypes.data), array.nbytes) != (entry.addr, entry.nbytes):
                    continue
                if writable and not array.flags.writeable:
                    raise HostMemoryError(f"host pointer {ptr:#x} is a read-only array")
                flat = array.reshape(-1).view(np.uint8)
                off = ptr - entry.addr
                return flat[off:off + nbytes]
        raise HostMemoryError(
            f"host range [{ptr:#x}, +{nbytes}) is not inside any live array from numpy_to_ptr")

# Host addresses are process-wide, so the registry is too (as pyACL's util module is).
HOST = HostRegistry()
