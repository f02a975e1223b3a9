"""The numpy APIs' array operands, read one way by every operator and every backend.

- `operand`: anything np.asarray takes, as an array in this machine's byte order. A non-native
  array (`>f4` on x86) is converted first, as numpy's ufuncs convert it: the same values, and a
  native result. The backends (the C engine, the bit-level kernels, the emulator's ACL types) then
  see native dtypes only.
- `broadcast_shape`: the operands' broadcast shape, or opsnn's ValueError naming them.
- `fold_rank`: numpy's iterators take at most 32 dimensions (broadcast_to, nditer, where...);
  torch takes 64. An elementwise result does not depend on the output's size-1 axes (torch's loop
  coalesces them away too), so a call of higher rank runs on the operands without those axes and
  its result is reshaped back: the same answer whichever path (the engine's express lanes take any
  rank) answers it. Beyond 32 axes of size > 1: opsnn's ValueError.
"""
from __future__ import annotations

import numpy as np

MAX_ITER_RANK = 32  # numpy's NPY_MAXDIMS_LEGACY_ITERS: the rank its broadcasting iterators take


def operand(value, what: str) -> np.ndarray:
    """np.asarray(value) in native byte order; ValueError (opsnn's) where numpy cannot read it."""
    try:
        a = np.asarray(value)
    except (ValueError, TypeError) as error:  # ragged nesting, objects without a shape...
        raise ValueError(f"{what} cannot be read as an array: {error}") from None
    if not a.dtype.isnative:
        a = a.astype(a.dtype.newbyteorder("="))
    return a


def broadcast_shape(*shapes: tuple) -> tuple:
    """The broadcast shape of the shapes (of any rank); ValueError (opsnn's) where they do not broadcast."""
    shapes = [tuple(shape) for shape in shapes]
    rank = max(map(len, shapes), default=0)
    if rank <= MAX_ITER_RANK:
        try:
            return tuple(np.broadcast_shapes(*shapes))
        except ValueError:
            pass
    else:  # numpy's broadcast_shapes takes 32 axes at most
        result = []
        for axis in range(-rank, 0):
            sizes = {shape[axis] for shape in shapes if len(shape) >= -axis} - {1}
            if len(sizes) > 1:
                break
            result.append(sizes.pop() if sizes else 1)
        else:
            return tuple(result)
    raise ValueError(f"shapes {' and '.join(map(str, shapes))} are not broadcastable")


def fold_rank(arrays: tuple[np.ndarray, ...], out) -> tuple | None:
    """None where no operand (nor out) has more than MAX_ITER_RANK dimensions; else (arrays, out,
    shape): the operands and out without the broadcast shape's size-1 axes (an operand of rank >= 1
    keeps at least one axis, so torch's 0-d promotion rule reads it as before), and the result's
    shape to reshape back to. ValueError where even that leaves too many axes (or shapes that do
    not broadcast)."""
    ranks = [a.ndim for a in arrays]
    if max(ranks) <= MAX_ITER_RANK and (out is None or np.ndim(out) <= MAX_ITER_RANK):
        return None
    shape = broadcast_shape(*(a.shape for a in arrays))
    kept = [axis for axis, n in enumerate(shape) if n != 1] or [len(shape) - 1]
    if len(kept) > MAX_ITER_RANK:
        raise ValueError(f"the result has {len(kept)} axes longer than 1; opsnn (numpy's iterators) takes at most "
                         f"{MAX_ITER_RANK}")

    def fold(a: np.ndarray) -> np.ndarray:
        if a.ndim == 0:
            return a
        first = len(shape) - a.ndim  # a's axes are the result's last a.ndim
        mine = tuple(a.shape[axis - first] for axis in kept if axis >= first)
        return a.reshape(mine or (1,))

    folded_out = out
    if isinstance(out, np.ndarray):
        if out.shape != shape:
            raise ValueError(f"out has shape {out.shape}, the result is {shape}")
        folded_out = out.reshape(tuple(shape[axis] for axis in kept))  # a view: only size-1 axes go
    return tuple(fold(a) for a in arrays), folded_out, shape
