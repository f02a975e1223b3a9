"""What SoftShrinkGrad computes, as numpy on bits: every rule is a select (grad's bits, or +0),
so the models are masks; the engine's lanes (numpy_api) keep the same key ranges.

  softshrink_grad_arch35  the Ascend950 kernel: |x| > lambd (float32) or x NaN -> grad, else +0
                          (halves widen exactly and narrow back: grad's bits)
  torch_vector / torch_scalar  torch's softshrink_backward bodies, lambd in the tensors' dtype:
                          vectorised (x < -lambd) | (x > lambd) -> grad (a NaN x: 0), scalar
                          (x >= -lambd) & (x <= lambd) -> 0, else grad (a NaN x: grad)"""
from __future__ import annotations

import numpy as np

F32 = np.dtype(np.float32)


def _select(keep: np.ndarray, grad: np.ndarray) -> np.ndarray:
    """grad's bits where keep, +0 elsewhere, in the broadcast shape."""
    shape = np.broadcast_shapes(keep.shape, grad.shape)
    return np.where(np.broadcast_to(keep, shape), np.broadcast_to(grad, shape), grad.dtype.type(0))


def softshrink_grad_arch35(grad: np.ndarray, x: np.ndarray, lambd) -> np.ndarray:
    xw = x.astype(F32)
    with np.errstate(invalid="ignore"):
        return _select((np.abs(xw) > np.float32(lambd)) | np.isnan(xw), grad)


def torch_vector(grad: np.ndarray, x: np.ndarray, lambd) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        return _select((x < -lambd) | (x > lambd), grad)


def torch_scalar(grad: np.ndarray, x: np.ndarray, lambd) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        return _select(~((x >= -lambd) & (x <= lambd)), grad)
