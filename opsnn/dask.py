"""opsnn on dask.array: threshold_backward and threshold, lazily, one task per output chunk.

    import dask.array as da, opsnn.dask
    out = opsnn.dask.threshold_backward(grad, feature, 1.0, semantics="ascend910b")   # lazy
    out.sum().compute()

Dtype, shape and every error are decided when the graph is built (the numpy API runs on 1-element
stand-ins of the inputs' dtypes and ranks), so a bad input fails before anything is computed. Each
output chunk is one task calling the numpy API (the fast path by default) on the matching input
blocks, so results are bit for bit those of `opsnn.threshold_backward` / `opsnn.threshold` on the
whole arrays. Inputs broadcast like numpy; differently chunked inputs are aligned by dask first.

Dask's conventions, followed here: arrays are immutable, so there is no out= and no in-place
variant; numpy arrays and scalars are accepted and wrapped with dask.array.asarray; errors are the
numpy API's (TypeError / ValueError), as dask's own elementwise functions raise numpy's.
Importing this module does not import dask (it checks that dask is installed); calling its functions does.
"""
from __future__ import annotations

import importlib.util
import math
from typing import Any

import numpy as np

from opsnn import api

if importlib.util.find_spec("dask") is None:  # now, as opsnn.torch: not at the first call, deep in a pipeline
    raise ImportError("opsnn.dask needs dask: pip install 'opsnn[dask]'")


def _stand_in(a) -> np.ndarray:
    return np.zeros((1,) * a.ndim, a.dtype)


def _known_shape(a, what: str) -> tuple:
    if any(isinstance(n, float) and math.isnan(n) for n in a.shape):
        raise ValueError(f"{what} has unknown chunk sizes; call compute_chunk_sizes() first")
    return a.shape


def _block_backward(grad, feature, threshold, semantics, backend):
    return api.threshold_backward(grad, feature, threshold, semantics=semantics, backend=backend)


def _block_forward(x, threshold, value, semantics, backend):
    return api.threshold(x, threshold, value, semantics=semantics, backend=backend)


def threshold_backward(grad: Any, feature: Any, threshold: float | int, *, semantics: str = "torch",
                       backend: str = "auto"):
    """opsnn.threshold_backward on dask arrays (or anything dask.array.asarray takes); lazy."""
    import dask.array as da

    grad, feature = da.asarray(grad), da.asarray(feature)
    shape = np.broadcast_shapes(_known_shape(grad, "grad"), _known_shape(feature, "feature"))
    # the numpy API decides dtype and raises its errors now, before any task exists
    dtype = api.threshold_backward(_stand_in(grad), _stand_in(feature), threshold, semantics=semantics,
                                   backend=backend).dtype
    out_ind = tuple(range(len(shape)))[::-1]  # numpy broadcasting: operands align on trailing axes
    return da.blockwise(_block_backward, out_ind, grad, out_ind[len(out_ind) - grad.ndim:],
                        feature, out_ind[len(out_ind) - feature.ndim:], threshold, None, semantics, None,
                        backend, None, dtype=dtype, meta=np.empty((0,) * len(shape), dtype),
                        token="opsnn-threshold_backward")


def threshold(x: Any, threshold: float | int, value: float | int, *, semantics: str = "torch",
              backend: str = "auto"):
    """opsnn.threshold on a dask array (or anything dask.array.asarray takes); lazy."""
    import dask.array as da

    x = da.asarray(x)
    _known_shape(x, "x")
    dtype = api.threshold(_stand_in(x), threshold, value, semantics=semantics, backend=backend).dtype
    ind = tuple(range(x.ndim))[::-1]
    return da.blockwise(_block_forward, ind, x, ind, threshold, None, value, None, semantics, None, backend, None,
                        dtype=dtype, meta=np.empty((0,) * x.ndim, dtype), token="opsnn-threshold")
