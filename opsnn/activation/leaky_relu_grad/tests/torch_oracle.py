"""torch as the test oracle (the core never imports it): numpy <-> torch without losing bits
(bfloat16 travels as int16), and torch's leaky_relu_backward with its errors as the numpy API's."""
from __future__ import annotations

import numpy as np
import torch

from opsnn.dtypes import bfloat16


def to_torch(a: np.ndarray) -> torch.Tensor:
    a = np.asarray(a)
    a = a.copy(order="C")  # (np.ascontiguousarray would make a 0-d array 1-d)
    if a.dtype == bfloat16:
        return torch.from_numpy(a.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(a)


def to_numpy(t: torch.Tensor) -> np.ndarray:
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(bfloat16)
    return t.numpy()


def torch_leaky_relu_backward(grad, x, slope, self_is_result):
    """torch's result as numpy, or the exception type the numpy API raises instead."""
    try:
        r = torch.ops.aten.leaky_relu_backward(to_torch(grad), to_torch(x), slope, self_is_result)
    except NotImplementedError:
        return TypeError
    except OverflowError:  # a Python int beyond int64/uint64: no torch Scalar
        return ValueError
    except RuntimeError as e:
        text = str(e)
        if "negative slope" in text or "overflow" in text or "size of tensor" in text or "broadcast" in text:
            return ValueError
        if "Promotion" in text or "not implemented" in text:
            return TypeError
        raise
    return to_numpy(r)


def same(got: np.ndarray, want: np.ndarray) -> bool:
    """Equal dtype, shape and bits, except that any NaN equals any NaN."""
    got, want = np.asarray(got), np.asarray(want)
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    u = f"u{got.dtype.itemsize}"
    with np.errstate(invalid="ignore"):
        nan_g, nan_w = np.isnan(got.astype(np.float64)), np.isnan(want.astype(np.float64))
    return bool((nan_g == nan_w).all() and (got.view(u)[~nan_g] == want.view(u)[~nan_w]).all())
