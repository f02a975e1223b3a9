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

Every other registered operator whose aclnn declaration names its numpy API (AclnnApi.numpy_api,
e.g. leaky_relu_backward) is opsnn.dask.<that name> too, built from the declaration: its tensor
parameters are the dask arrays, the rest are passed to every block unchanged.
"""
from __future__ import annotations

import importlib.util
import inspect
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


def _blockwise(function, name: str, values: list, tensors: list[int], **keywords):
    """function(*values, **keywords) per output chunk; values[i] for i in tensors are arrays."""
    import dask.array as da

    values = [da.asarray(v) if i in tensors else v for i, v in enumerate(values)]
    shape = np.broadcast_shapes(*(_known_shape(values[i], f"argument {i}") for i in tensors))
    stand_ins = [_stand_in(v) if i in tensors else v for i, v in enumerate(values)]
    dtype = function(*stand_ins, **keywords).dtype  # dtype and errors now, before any task exists
    out_ind = tuple(range(len(shape)))[::-1]
    pairs = []
    for i, v in enumerate(values):
        pairs += [v, out_ind[len(out_ind) - v.ndim:]] if i in tensors else [v, None]

    def block(*blocks):
        return function(*blocks, **keywords)

    return da.blockwise(block, out_ind, *pairs, dtype=dtype, meta=np.empty((0,) * len(shape), dtype),
                        token=f"opsnn-{name}")


def __getattr__(name: str):
    from opsnn.aclnn.declarations import all_apis

    api = next((a for a in all_apis() if a.numpy_api == name and name not in ("threshold", "threshold_backward")),
               None)
    if api is None:
        raise AttributeError(f"module 'opsnn.dask' has no attribute {name!r}")
    import opsnn

    function = getattr(opsnn, name)
    tensors = [i for i, p in enumerate(api.inputs) if p.kind in ("tensor", "ref")]
    signature = inspect.signature(function)

    def lazy(*args, semantics: str = "torch", backend: str = "auto", **named):
        bound = signature.bind(*args, **named, semantics=semantics, backend=backend)
        bound.apply_defaults()
        keywords = {k: bound.arguments.pop(k) for k in ("semantics", "backend")}
        bound.arguments.pop("out", None)  # dask arrays are immutable: no out=
        return _blockwise(function, name, list(bound.arguments.values()), tensors, **keywords)

    lazy.__name__ = lazy.__qualname__ = name
    lazy.__doc__ = f"opsnn.{name} on dask arrays (or anything dask.array.asarray takes); lazy."
    return lazy
