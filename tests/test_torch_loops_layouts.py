"""op_common.torch_loops.torch_vector_mask against torch itself: softshrink_backward's two loop
bodies disagree on a NaN x (the vectorised one gives 0, the scalar one grad), so torch's result
on an all-NaN x shows which elements each body ran, for operands in many layouts."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from opsnn.op_common.torch_loops import torch_vector_mask

torch = pytest.importorskip("torch")


def _make(shape, kind, dtype, value):
    """(array, the buffer it views): C, Fortran, stride-2, transposed, or broadcast from a row."""
    if kind == "c":
        a = np.full(shape, value, dtype)
        return a, a
    if kind == "f":
        a = np.asfortranarray(np.full(shape, value, dtype))
        return a, a
    if kind == "s2":
        base = np.full(shape[:-1] + (shape[-1] * 2,), value, dtype)
        return base[..., ::2], base
    if kind == "t":
        base = np.full(shape[::-1], value, dtype)
        return base.T, base
    base = np.full(shape[-1:], value, dtype)
    return np.broadcast_to(base, shape), base


def _tensor(a, base):
    """a as a torch tensor with a's strides over the same buffer."""
    offset = (a.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // a.itemsize
    flat = torch.from_numpy(base.reshape(-1, order="A"))
    return torch.as_strided(flat, a.shape, [s // a.itemsize for s in a.strides], offset)


@pytest.mark.parametrize("threads", [1, 2])
def test_the_mask_is_torchs_split(threads):
    previous = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        for shape, (kg, kx), (gt, xt) in itertools.product(
                [(40,), (7, 37), (3, 50, 2), (1, 70), (2, 3, 6000)],
                itertools.product(("c", "f", "s2", "t", "b"), repeat=2),
                [(np.float32, np.float32), (np.float16, np.float32)]):
            if len(shape) == 1 and {kg, kx} & {"f", "t"}:
                continue
            g, gb = _make(shape, kg, gt, 1)
            x, xb = _make(shape, kx, xt, np.nan)
            torch_result = torch.ops.aten.softshrink_backward(_tensor(g, gb), _tensor(x, xb), 0.5).numpy()
            mask = torch_vector_mask((g, x), np.result_type(g.dtype, x.dtype))
            assert (mask == (torch_result == 0)).all(), (shape, kg, kx, gt, xt)
    finally:
        torch.set_num_threads(previous)
