"""opsnn on dask.array: threshold_backward and threshold, lazily, one task per output chunk.

    import dask.array as da, opsnn.dask
    out = opsnn.dask.threshold_backward(grad, feature, 1.0, semantics="ascend910b")   # lazy
    out.sum().compute()

Dtype, shape and every error are decided when the graph is built: the numpy API runs on small
stand-ins of the inputs' dtypes and ranks whose shapes relate as the whole shapes do (equal,
broadcastable or not, empty), so a bad input fails before anything is computed, whatever the
chunks, with the whole shapes in the message. Each output chunk is one task calling the numpy API
(the fast path by default) on the matching input blocks, so results are bit for bit those of
`opsnn.threshold_backward` / `opsnn.threshold` on the whole (C-contiguous) arrays. Under torch
semantics each chunk knows its place in the whole array (op_common/torch_loops.place): where
torch's bits depend on its vectorised/scalar loop split (hardtanh_backward at a NaN x or bound,
leaky_relu_backward's bfloat16 NaNs) a chunk gets the whole array's split; the thread count that
split reads is the computing process's (torch's, else OMP_NUM_THREADS...), so workers in other
processes must see the same one. Inputs broadcast like numpy; differently chunked inputs are
aligned by dask first.

Dask's conventions, followed here: arrays are immutable, so there is no out= (passing one is a
TypeError) and no in-place variant; numpy arrays and scalars are accepted and wrapped with
dask.array.asarray (those of at most one element named by their bytes, NaN payload included: dask
names a 0-d array by its value); errors are the numpy API's (TypeError / ValueError), as dask's
own elementwise functions raise numpy's. Importing this module does not import dask (it checks
that dask is installed); calling its functions does.

Every other registered operator whose aclnn declaration names its numpy API (AclnnApi.numpy_api,
e.g. leaky_relu_backward) is opsnn.dask.<that name> too, built from the declaration, with the numpy
function's signature less out=: its tensor parameters are the dask arrays, the rest are passed to
every block unchanged.
"""
from __future__ import annotations

import importlib.util
import inspect
import math
import re
from typing import Any

import numpy as np

from opsnn import api
from opsnn.op_common import torch_loops

if importlib.util.find_spec("dask") is None:  # now, as opsnn.torch: not at the first call, deep in a pipeline
    raise ImportError("opsnn.dask needs dask: pip install 'opsnn[dask]'")


def _known_shape(a, what: str) -> tuple:
    if any(isinstance(n, float) and math.isnan(n) for n in a.shape):
        raise ValueError(f"{what} has unknown chunk sizes; call compute_chunk_sizes() first")
    return a.shape


def _as_dask(value):
    """A dask array as is; anything else through numpy, named by its bytes where it holds at most
    one element (dask tokenises a 0-d array by value: two different NaN payloads would share a
    name, and one would stand in for the other)."""
    import dask.array as da
    from dask.base import tokenize

    if isinstance(value, da.Array):
        return value
    a = np.asarray(value)
    if a.size > 1:
        return da.asarray(a)
    return da.from_array(a, chunks=a.shape, name="opsnn-input-" + tokenize(a.dtype.str, a.shape, a.tobytes()))


def _stand_ins(arrays: list) -> list[np.ndarray]:
    """Small numpy arrays of the operands' dtypes and ranks whose shapes relate as the whole shapes
    do: on each axis (aligned from the right, as numpy broadcasts) 0 stays, a size all operands
    share becomes 1, and where they differ 1 stays and the others become 2, 3, ... in their order.
    The numpy API's shape checks then decide on them what they would on the whole arrays."""
    rank = max((a.ndim for a in arrays), default=0)
    sizes: list[dict] = []
    for axis in range(-rank, 0):
        seen = {int(a.shape[axis]) for a in arrays if a.ndim >= -axis}
        if len(seen) == 1:
            sizes.append({n: min(n, 1) for n in seen})
            continue
        sizes.append({0: 0, 1: 1, **{n: i + 2 for i, n in enumerate(sorted(seen - {0, 1}))}})
    return [np.zeros(tuple(sizes[rank + axis][int(a.shape[axis])] for axis in range(-a.ndim, 0)), a.dtype)
            for a in arrays]


def _check(function, stand_ins: list, arrays: list, values: list, tensors: list[int], keywords: dict) -> np.dtype:
    """The numpy API on the stand-ins: the result's dtype, or its error with the whole shapes named."""
    args = list(values)
    for i, stand_in in zip(tensors, stand_ins, strict=True):
        args[i] = stand_in
    try:
        return function(*args, **keywords).dtype
    except ValueError as error:
        shown = {str(s.shape): str(tuple(a.shape)) for s, a in zip(stand_ins, arrays, strict=True)
                 if s.shape != a.shape}
        if not shown:
            raise
        pattern = "|".join(re.escape(k) for k in sorted(shown, key=len, reverse=True))
        raise ValueError(re.sub(pattern, lambda m: shown[m.group(0)], str(error))) from None


def _scalar_key(value):
    """What names a non-array argument in the graph: its type and bits (a NaN's payload included)."""
    if isinstance(value, float | np.floating | np.ndarray):
        return type(value).__name__, np.asarray(value).tobytes()
    return type(value).__name__, repr(value)


def _lazy(function, name: str, values: list, tensors: list[int], keywords: dict):
    """function(*values, **keywords) per output chunk; values[i] for i in tensors are the arrays.

    Errors and dtype are decided now, on stand-ins of the whole shapes (_stand_ins). Under torch
    semantics each chunk runs inside torch_loops.place: where torch's bits depend on its loop split
    (hardtanh_backward at NaN x, leaky_relu_backward's bfloat16 NaNs) the chunk gets the whole
    array's split, so a chunked result equals the whole-array call."""
    import dask.array as da
    from dask.base import tokenize
    from dask.layers import ArraySliceDep

    values = list(values)
    for i in tensors:
        values[i] = _as_dask(values[i])
    arrays = [values[i] for i in tensors]
    shapes = [_known_shape(a, f"argument {i}") for i, a in zip(tensors, arrays, strict=True)]
    dtype = _check(function, _stand_ins(arrays), arrays, values, tensors, keywords)
    from opsnn.op_common.operands import broadcast_shape
    shape = broadcast_shape(*shapes)
    placed = keywords.get("semantics") == "torch"
    pair = (shapes * 2)[:2]  # the operands torch_loops' split is for (a unary operator: x twice)

    out_ind = tuple(range(len(shape)))[::-1]  # numpy broadcasting: operands align on trailing axes
    pairs = []
    for i, v in enumerate(values):
        pairs += [v, out_ind[len(out_ind) - v.ndim:]] if i in tensors else [v, None]
    chunkss, aligned = da.core.unify_chunks(*pairs)  # what blockwise would do; the chunk offsets then known
    chunks = tuple(chunkss[i] for i in out_ind)
    n = len(values)

    def block(*blocks):
        blocks, where = list(blocks[:n]), blocks[n]
        if not placed:
            return function(*blocks, **keywords)
        for i in tensors:
            b = np.asarray(blocks[i])
            blocks[i] = b if b.flags.c_contiguous else b.copy(order="C")  # as the whole arrays are
        region = [(s.start, s.stop) for s in where]
        with torch_loops.place(pair[0], pair[1], region):  # fast: auto's express lanes do not ask for the split
            return function(*blocks, **{**keywords, "backend": "fast" if keywords.get("backend") == "auto"
                                        else keywords.get("backend")})

    key = tokenize(name, [v.name if i in tensors else _scalar_key(v) for i, v in enumerate(values)],
                   sorted((k, _scalar_key(v)) for k, v in keywords.items()))
    arguments = [x for a, i in zip(aligned, pairs[1::2], strict=True) for x in (a, i)]
    return da.blockwise(block, out_ind, *arguments, ArraySliceDep(chunks), out_ind, dtype=dtype,
                        meta=np.empty((0,) * len(shape), dtype), name=f"opsnn-{name}-{key}", align_arrays=False,
                        concatenate=True)


def threshold_backward(grad: Any, feature: Any, threshold: float | int, *, semantics: str = "torch",
                       backend: str = "auto"):
    """opsnn.threshold_backward on dask arrays (or anything dask.array.asarray takes); lazy."""
    return _lazy(api.threshold_backward, "threshold_backward", [grad, feature, threshold], [0, 1],
                 {"semantics": semantics, "backend": backend})


def threshold(x: Any, threshold: float | int, value: float | int, *, semantics: str = "torch",
              backend: str = "auto"):
    """opsnn.threshold on a dask array (or anything dask.array.asarray takes); lazy."""
    return _lazy(api.threshold, "threshold", [x, threshold, value], [0], {"semantics": semantics, "backend": backend})


def __getattr__(name: str):
    from opsnn.aclnn.declarations import all_apis

    api = next((a for a in all_apis() if a.numpy_api == name and name not in ("threshold", "threshold_backward")),
               None)
    if api is None:
        raise AttributeError(f"module 'opsnn.dask' has no attribute {name!r}")
    import opsnn

    function = getattr(opsnn, name)
    tensors = [i for i, p in enumerate(api.inputs) if p.kind in ("tensor", "ref")]
    # the numpy function's signature without out= (dask arrays are immutable): passing out= is
    # Python's TypeError, as for threshold_backward
    signature = inspect.signature(function)
    signature = signature.replace(parameters=[p for p in signature.parameters.values() if p.name != "out"])
    keyword_names = ("semantics", "backend")

    def lazy(*args, **named):
        bound = signature.bind(*args, **named)
        bound.apply_defaults()
        keywords = {k: bound.arguments.pop(k) for k in keyword_names}
        return _lazy(function, name, list(bound.arguments.values()), tensors, keywords)

    lazy.__name__ = lazy.__qualname__ = name
    lazy.__signature__ = signature
    lazy.__doc__ = f"opsnn.{name} on dask arrays (or anything dask.array.asarray takes); lazy, no out=."
    lazy.__module__ = __name__
    return lazy
