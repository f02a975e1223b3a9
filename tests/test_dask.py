"""opsnn.dask against the numpy API, bit for bit: every semantics and dtype, broadcasting across
different chunkings, lazy, one task per output chunk, dtype and errors at graph-build time."""
from __future__ import annotations

import math

import numpy as np
import pytest

import opsnn
from opsnn.dtypes import bfloat16

da = pytest.importorskip("dask.array")
import dask  # noqa: E402

import opsnn.dask as odask  # noqa: E402

SEMANTICS = ("torch", "ascend910b", "ascend950")
DTYPES = [np.dtype(t) for t in (np.bool_, np.uint8, np.int8, np.int16, np.int32, np.int64, np.float16,
                                np.float32, np.float64)] + [bfloat16]
SPECIALS = [math.nan, 0.0, -0.0, 1e-8, -1e-8, 0.5, 0.4999, 1.0, -1.0, math.inf, -math.inf, 3.0, 65504.0]


def sample(dtype: np.dtype, shape, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    n = math.prod(shape)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.kind in "iu":
        lo = 0 if dtype.kind == "u" else -6
        return rng.integers(lo, 7, shape).astype(dtype)
    x = rng.standard_normal(n) * 2
    k = min(n, len(SPECIALS))
    x[rng.choice(n, k, replace=False)] = SPECIALS[:k]
    return x.astype(dtype).reshape(shape)


def bits(a: np.ndarray) -> np.ndarray:
    return a.view(f"u{a.dtype.itemsize}") if a.dtype != np.bool_ else a.view(np.uint8)


def assert_bits(a: np.ndarray, b: np.ndarray):
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(bits(a), bits(b))


def compute(x):
    return x.compute(scheduler="sync")


@pytest.mark.parametrize("semantics", SEMANTICS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("threshold", [0.5, 0.0, -2])
def test_backward_bit_equal_to_numpy_api(dtype, semantics, threshold):
    g, f = sample(dtype, (7, 1, 10), 1), sample(dtype, (5, 10), 2)  # broadcast to (7, 5, 10)
    try:
        expected = opsnn.threshold_backward(g, f, threshold, semantics=semantics)
    except (TypeError, ValueError) as e:
        with pytest.raises(type(e)):  # at graph-build time
            odask.threshold_backward(da.from_array(g, chunks=(3, 1, 4)), da.from_array(f), threshold,
                                     semantics=semantics)
        return
    out = odask.threshold_backward(da.from_array(g, chunks=(3, 1, 4)), da.from_array(f, chunks=(2, 7)),
                                   threshold, semantics=semantics)
    assert out.dtype == expected.dtype and out.shape == expected.shape
    assert_bits(compute(out), expected)


@pytest.mark.parametrize(("gdt", "fdt", "fshape"), [(np.int8, np.float16, (6,)), (np.uint8, np.int8, (4, 6)),
                                                     (np.int32, np.float64, ()), (bfloat16, np.float16, (6,))])
def test_torch_promotion_including_zero_dim(gdt, fdt, fshape):
    g, f = sample(np.dtype(gdt), (4, 6), 3), sample(np.dtype(fdt), fshape, 4)
    expected = opsnn.threshold_backward(g, f, 0.5)
    out = odask.threshold_backward(da.from_array(g, chunks=(3, 2)), da.from_array(f), 0.5)
    assert out.dtype == expected.dtype  # decided before compute
    assert_bits(compute(out), expected)


def test_numpy_and_scalar_inputs():
    g, f = sample(np.dtype(np.float32), (6, 8), 5), sample(np.dtype(np.float32), (6, 8), 6)
    expected = opsnn.threshold_backward(g, f, 0.5, semantics="ascend910b")
    assert_bits(compute(odask.threshold_backward(g, da.from_array(f, chunks=3), 0.5, semantics="ascend910b")),
                expected)
    assert_bits(compute(odask.threshold_backward(g, f, 0.5, semantics="ascend910b")), expected)


def test_lazy_and_one_task_per_output_chunk(monkeypatch):
    calls = []
    real = opsnn.api.threshold_backward

    def spy(*args, **kwargs):
        calls.append(np.shape(args[0]))
        return real(*args, **kwargs)

    monkeypatch.setattr(opsnn.api, "threshold_backward", spy)
    g = da.from_array(sample(np.dtype(np.float32), (12, 10), 7), chunks=(4, 5))
    f = da.from_array(sample(np.dtype(np.float32), (12, 10), 8), chunks=(6, 10))
    out = odask.threshold_backward(g, f, 0.5, semantics="ascend950")
    assert len(calls) == 1 and calls[0] == (1, 1)  # the graph-build stand-in only: nothing computed
    layer = out.dask.layers[out.name]
    assert len(layer) == out.npartitions == 8  # one task per output chunk (unified: (4, 2, 2, 4) x (5, 5))
    compute(out)
    assert len(calls) == 1 + out.npartitions


@pytest.mark.parametrize(("args", "kwargs", "error"), [
    ((np.ones(3, np.float16), np.ones(3, np.float32), 0.5), {"semantics": "ascend910b"}, TypeError),
    ((np.ones(3, bool), np.ones(3, bool), 0.5), {}, TypeError),
    ((np.ones(3, np.int8), np.ones(3, np.int8), 1000), {}, ValueError),
    ((np.ones((2, 3)), np.ones(4), 0.5), {}, ValueError),
    ((np.ones(3, np.int64), np.ones(3, np.int64), 0.5), {"semantics": "ascend950"}, TypeError),
    ((np.ones(3), np.ones(3), 0.5), {"semantics": "npu"}, ValueError),
    ((np.ones(3), np.ones(3), 0.5), {"backend": "emulator"}, ValueError),
    ((np.ones((1,) * 9, np.float32), np.ones(1, np.float32), 0.5), {"semantics": "ascend910b"}, ValueError),
])
def test_bad_input_fails_at_graph_build(args, kwargs, error, monkeypatch):
    with pytest.raises(error):
        opsnn.threshold_backward(*args, **kwargs)
    monkeypatch.setattr(dask, "compute", None)  # no compute can have run
    with pytest.raises(error):
        odask.threshold_backward(*(da.from_array(a, chunks=1) for a in args[:2]), args[2], **kwargs)


def test_unknown_chunk_sizes_are_refused():
    x = da.from_array(np.arange(10.0), chunks=3)
    y = x[x > 3]  # unknown chunks
    with pytest.raises(ValueError, match="compute_chunk_sizes"):
        odask.threshold_backward(y, y, 0.5)


def test_emulator_backend_per_chunk():
    g, f = sample(np.dtype(np.float16), (3, 70), 9), sample(np.dtype(np.float16), (3, 70), 10)
    expected = opsnn.threshold_backward(g, f, 0.25, semantics="ascend910b", backend="emulator")
    out = odask.threshold_backward(da.from_array(g, chunks=(2, 40)), da.from_array(f, chunks=(3, 35)), 0.25,
                                   semantics="ascend910b", backend="emulator")
    assert_bits(compute(out), expected)


def test_threaded_scheduler():
    g, f = sample(np.dtype(np.float32), (400, 300), 11), sample(np.dtype(np.float32), (300,), 12)
    expected = opsnn.threshold_backward(g, f, 0.1)
    out = odask.threshold_backward(da.from_array(g, chunks=(64, 128)), da.from_array(f, chunks=100), 0.1)
    assert_bits(out.compute(scheduler="threads"), expected)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("args", [(0.5, -2.0), (0, 7)])
def test_forward_bit_equal_to_numpy_api(dtype, args):
    x = sample(dtype, (9, 11), 13)
    try:
        expected = opsnn.threshold(x, *args)
    except (TypeError, ValueError) as e:
        with pytest.raises(type(e)):
            odask.threshold(da.from_array(x, chunks=4), *args)
        return
    out = odask.threshold(da.from_array(x, chunks=(4, 5)), *args)
    assert out.dtype == expected.dtype
    assert_bits(compute(out), expected)


@pytest.mark.parametrize("semantics", ["ascend910b", "ascend950"])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_forward_ascend_semantics_bit_equal(dtype, semantics):
    x = sample(dtype, (9, 11), 14)
    try:
        expected = opsnn.threshold(x, 0.5, -2.0, semantics=semantics)
    except (TypeError, ValueError) as e:
        with pytest.raises(type(e)):
            odask.threshold(da.from_array(x, chunks=4), 0.5, -2.0, semantics=semantics)
        return
    assert_bits(compute(odask.threshold(da.from_array(x, chunks=(4, 5)), 0.5, -2.0, semantics=semantics)), expected)


def test_importing_opsnn_dask_does_not_import_dask():
    import subprocess
    import sys
    code = "import sys, opsnn.dask; print('dask' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.split() == ["False"]
