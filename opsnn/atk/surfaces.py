"""opsnn's surface checks for any registered operator, in-tree or in a package of its own: the
numpy function `opsnn.<name>` against what `opsnn.dask.<name>` (chunked) and `opsnn.torch.<name>`
(the custom op, with torch.library.opcheck) return, bit for bit, under every semantics; the same
error type from each surface for a call the numpy function refuses.

An out-of-tree package runs them from its own tests:

    from opsnn.atk.surfaces import check_surfaces
    def test_surfaces():
        import mypkg.myop  # registers the operator (or: installed with an opsnn.operators entry point)
        check_surfaces("my_backward", np.float32([1, -2, 3]), np.float32([0.5, -1, 2]), 0.5)

(dask and torch are checked where installed; pytest.importorskip them to require them)."""
from __future__ import annotations

import importlib.util

import numpy as np

SEMANTICS = ("torch", "ascend910b", "ascend950")


def _bits(a) -> np.ndarray:
    a = np.asarray(a)
    return a.view(f"u{a.dtype.itemsize}") if a.dtype.itemsize in (1, 2, 4, 8) else a


def _same(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(_bits(a), _bits(b))


def check_surfaces(name: str, *args, semantics: tuple[str, ...] = SEMANTICS, torch: bool | None = None,
                   dask: bool | None = None, opcheck: bool = True) -> None:
    """Assert that every surface answers `opsnn.<name>(*args, semantics=s)` as the numpy function
    does (arrays first, then every scalar: the torch op takes no defaults). torch / dask: None =
    where installed. AssertionError naming the surface, semantics and what differs."""
    import opsnn
    function = getattr(opsnn, name)
    arrays = [a for a in args if isinstance(a, np.ndarray)]
    scalars = args[len(arrays):]
    if torch is None:
        torch = importlib.util.find_spec("torch") is not None
    if dask is None:
        dask = importlib.util.find_spec("dask") is not None
    for s in semantics:
        try:
            want, error = function(*args, semantics=s), None
        except (TypeError, ValueError) as e:
            want, error = None, type(e)
        if dask:
            _check_dask(name, arrays, scalars, s, want, error)
        if torch:
            _check_torch(name, arrays, scalars, s, want, error, opcheck)


def _check_dask(name, arrays, scalars, semantics, want, error) -> None:
    import dask.array as da

    import opsnn.dask
    lazy = [da.from_array(a, chunks=max(1, (a.shape[-1] + 1) // 2) if a.ndim else ()) for a in arrays]
    try:
        got = getattr(opsnn.dask, name)(*lazy, *scalars, semantics=semantics).compute()
    except (TypeError, ValueError) as e:
        assert error is type(e), f"dask/{semantics}: {type(e).__name__} {e}, the numpy function: {error}"
        return
    assert error is None, f"dask/{semantics}: answered where the numpy function raises {error.__name__}"
    assert _same(got, want), f"dask/{semantics}: {got!r} != numpy's {want!r}"


def _check_torch(name, arrays, scalars, semantics, want, error, opcheck) -> None:
    import torch

    import opsnn.torch
    tensors = [opsnn.torch.from_numpy(np.asarray(a, order="C")) for a in arrays]  # bfloat16, 0-d too
    try:
        got = getattr(opsnn.torch, name)(*tensors, *scalars, semantics=semantics)
    except (TypeError, ValueError, NotImplementedError, RuntimeError) as e:
        assert error is not None, f"torch/{semantics}: {type(e).__name__} {e} where the numpy function answers"
        return
    assert error is None, f"torch/{semantics}: answered where the numpy function raises {error.__name__}"
    assert _same(opsnn.torch.to_numpy(got), want), f"torch/{semantics}: {got!r} != numpy's {want!r}"
    if opcheck:
        from torch.library import opcheck as run
        op = getattr(torch.ops.opsnn, name).default
        # opcheck compares its traced runs with assert_close, to which NaN != NaN: NaN-free operands
        finite = [torch.nan_to_num(t, nan=0.0) if t.is_floating_point() else t for t in tensors]
        results = run(op, (*finite, *scalars), {"semantics": semantics})
        assert set(results.values()) == {"SUCCESS"}, f"torch/{semantics}: opcheck {results}"
