"""Zero-copy between torch tensors and numpy arrays, every dtype (bfloat16 as ml_dtypes.bfloat16)."""
from __future__ import annotations

import numpy as np
import torch

from opsnn.dtypes import bfloat16 as _BF16

_BFLOAT16 = torch.bfloat16


def to_numpy(t: torch.Tensor) -> np.ndarray:
    """A numpy view of a CPU tensor's memory (same strides, no copy); bfloat16 through an int16 view.
    A tensor with its conjugate or negative bit set is resolved first (a copy)."""
    if t.dtype is _BFLOAT16:
        t = t.detach()
        if t.is_neg():
            t = t.resolve_neg()
        return t.view(torch.int16).numpy().view(_BF16)
    # = t.detach().resolve_conj().resolve_neg().numpy() for a CPU tensor, in one call (a hot path:
    # npu_semantics converts every intercepted op's tensors); a tensor on another device raises
    if not t.is_cpu:
        raise TypeError(f"can't convert {t.device} tensor to numpy: opsnn computes on CPU")
    return t.numpy(force=True)


def from_numpy(a: np.ndarray) -> torch.Tensor:
    """A tensor over a numpy array's memory (no copy); bfloat16 arrays come back as torch.bfloat16."""
    if a.dtype == _BF16:
        return torch.from_numpy(a.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(a)


_NUMPY_OF = {torch.bool: np.dtype(np.bool_), torch.uint8: np.dtype(np.uint8), torch.int8: np.dtype(np.int8),
             torch.int16: np.dtype(np.int16), torch.int32: np.dtype(np.int32), torch.int64: np.dtype(np.int64),
             torch.float16: np.dtype(np.float16), torch.bfloat16: _BF16, torch.float32: np.dtype(np.float32),
             torch.float64: np.dtype(np.float64), torch.complex64: np.dtype(np.complex64),
             torch.complex128: np.dtype(np.complex128), torch.uint16: np.dtype(np.uint16),
             torch.uint32: np.dtype(np.uint32), torch.uint64: np.dtype(np.uint64)}
_TORCH_OF = {v: k for k, v in _NUMPY_OF.items()}


def numpy_dtype(dtype: torch.dtype) -> np.dtype:
    try:
        return _NUMPY_OF[dtype]
    except KeyError:
        raise NotImplementedError(f"opsnn has no numpy dtype for {dtype}") from None


def torch_dtype(dtype: np.dtype) -> torch.dtype:
    return _TORCH_OF[np.dtype(dtype)]
