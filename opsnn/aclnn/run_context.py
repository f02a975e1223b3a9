"""What a step sees when it runs: device memory, the platform, and the workspace's address.

Every access is checked against the allocation it belongs to (a user tensor against its
allocation's requested size, a slot against the workspace), so a step can never touch bytes
outside what it was given; a violation raises and faults the stream."""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided

from opsnn.ascendc import KernelArg, Padding

from .l0_tensor import L0Tensor, UserMemory


class RunContext:
    __slots__ = ("runtime", "platform", "workspace_addr", "workspace_size", "kernel_workspace_offset")

    def __init__(self, runtime, platform, workspace_addr: int, workspace_size: int, kernel_workspace_offset: int):
        self.runtime = runtime
        self.platform = platform
        self.workspace_addr = int(workspace_addr or 0)
        self.workspace_size = int(workspace_size)
        self.kernel_workspace_offset = kernel_workspace_offset

    @property
    def gm(self):
        return self.runtime.gm

    @property
    def kernel_workspace_addr(self) -> int:
        """Where the kernels' shared workspace region starts (after every intermediate slot)."""
        return self.workspace_addr + self.kernel_workspace_offset

    def _region(self, t: L0Tensor) -> tuple[int, np.ndarray]:
        """(address, uint8 bytes) of the whole location `t` lives in."""
        loc = t.location
        if isinstance(loc, UserMemory):
            return loc.addr, self.runtime.device_bytes(loc.addr, loc.nbytes)
        addr = self.workspace_addr + loc.offset
        return addr, self.runtime.device_bytes(addr, loc.nbytes)

    def address(self, t: L0Tensor) -> int:
        return self._region(t)[0] + t.offset * t.dtype.itemsize

    def array(self, t: L0Tensor) -> np.ndarray:
        """A numpy view of `t` on device memory (writable), strides and offset applied."""
        _, raw = self._region(t)
        typed = raw[:raw.size // t.dtype.itemsize * t.dtype.itemsize].view(t.dtype)
        item = t.dtype.itemsize
        last = t.offset + sum((d - 1) * s for d, s in zip(t.shape, t.strides, strict=True)) if t.numel else -1
        if t.numel and last >= typed.size:
            raise IndexError(f"view of {t.shape} at offset {t.offset} reaches past its {raw.size}-byte location")
        return as_strided(typed[t.offset:], shape=t.shape, strides=tuple(s * item for s in t.strides))

    def kernel_arg(self, name: str, t: L0Tensor, padding: tuple[Padding, ...] = ()) -> KernelArg:
        """A kernel's GM_ADDR argument for a dense tensor (what a kernel can take), with the
        past-the-tensor padding its tiling declares."""
        if not t.is_contiguous:
            raise ValueError(f"kernel argument {name} must be contiguous, got strides {t.strides}")
        self.array(t)  # bounds check
        return KernelArg(name, self.address(t), t.nbytes, tuple(padding))
