"""What an executor step knows of a tensor: dtype, strided view, and where its bytes live.

A tensor lives either in the caller's device memory (an aclTensor's data, at a fixed address)
or in a slot of the executor's workspace, whose address is known only when phase 2 hands the
workspace over. Steps name tensors by L0Tensor and resolve addresses at run time."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from opsnn.acl.tensor import contiguous_strides


@dataclass(frozen=True)
class UserMemory:
    addr: int  # the aclTensor's data pointer
    nbytes: int  # bytes of its storage (storage_dims)


@dataclass(frozen=True)
class WorkspaceSlot:
    offset: int  # bytes from the workspace start; 512-byte aligned
    nbytes: int  # bytes reserved (a multiple of 512)
    label: str  # what the slot holds, for reports and tests


@dataclass(frozen=True)
class L0Tensor:
    dtype_name: str
    dtype: np.dtype
    shape: tuple[int, ...]
    strides: tuple[int, ...]  # elements
    offset: int  # elements from the start of the location
    location: UserMemory | WorkspaceSlot

    @classmethod
    def from_acl(cls, tensor) -> L0Tensor:
        """A snapshot of an aclTensor: later changes to (or destruction of) it do not matter."""
        return cls(tensor.dtype_name, tensor.numpy_dtype, tensor.view_dims, tensor.strides, tensor.offset,
                   UserMemory(tensor.data_ptr, tensor.storage_nbytes))

    @property
    def numel(self) -> int:
        return math.prod(self.shape)

    @property
    def nbytes(self) -> int:
        """Bytes of the elements themselves (what a dense copy of the view takes)."""
        return self.numel * self.dtype.itemsize

    @property
    def is_contiguous(self) -> bool:
        """Row-major dense view (size-1 dimensions may have any stride), ignoring the offset."""
        if self.numel == 0:
            return True
        want = contiguous_strides(self.shape)
        return all(d == 1 or s == w for d, s, w in zip(self.shape, self.strides, want, strict=True))

    @property
    def is_dense_at_start(self) -> bool:
        """Contiguous and starting at its location's first byte: a kernel may take it as is."""
        return self.is_contiguous and self.offset == 0

