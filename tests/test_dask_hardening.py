"""Issue 27, the dask side: a chunked call equals the whole-array call under torch semantics (each
chunk knows its place), one shape check on the whole shapes, no token collisions between NaN
payloads, real signatures without out=."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

import opsnn
from opsnn.dtypes import bfloat16

da = pytest.importorskip("dask.array")
import opsnn.dask as odask  # noqa: E402


def bits(a):
    a = np.asarray(a)
    return a.view(f"u{a.dtype.itemsize}")


def compute(x):
    return x.compute(scheduler="sync")


def nan_heavy(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape).astype(dtype)
    x.reshape(-1)[rng.random(x.size) < 0.3] = np.nan
    return x


CHUNKINGS = [(1, 1), (3, 7), (16, 5), (40, 64), (-1, 1), (5, -1)]


@pytest.mark.parametrize("chunks", CHUNKINGS)
@pytest.mark.parametrize("case", ["hardtanh-float16", "hardtanh-float32", "hardtanh-bound-nan",
                                  "leaky-bfloat16", "hardtanh-broadcast"])
def test_torch_semantics_chunked_equals_whole_call(case, chunks):
    """issue 27 item 4: torch's vectorised/scalar split is the whole array's in every chunk (at a
    NaN x hardtanh's sum was 64.0 chunked against 0.0 whole)."""
    dtype = {"float16": np.float16, "float32": np.float32, "bfloat16": bfloat16}.get(case.split("-")[-1], np.float16)
    g, x = nan_heavy(dtype, (40, 64), 1), nan_heavy(dtype, (40, 64), 2)
    if case.startswith("leaky"):
        function, scalars = opsnn.leaky_relu_backward, (0.25,)
        lazy = odask.leaky_relu_backward
    else:
        function, scalars = opsnn.hardtanh_backward, ((np.nan, 1.0) if case.endswith("bound-nan") else (-1.0, 1.0))
        lazy = odask.hardtanh_backward
    if case.endswith("broadcast"):
        g = g[:1]
    expected = function(g, x, *scalars)
    gd = da.from_array(g, chunks=(1, chunks[1]) if g.shape[0] == 1 else chunks)
    result = compute(lazy(gd, da.from_array(x, chunks=chunks), *scalars))
    assert bits(result).tolist() == bits(expected).tolist()


def test_torch_semantics_chunked_across_thread_ranges(monkeypatch):
    """Beyond torch's grain size the split depends on the thread ranges: still the whole call's."""
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    g, x = nan_heavy(np.float32, (300, 250), 3), nan_heavy(np.float32, (300, 250), 4)
    expected = opsnn.hardtanh_backward(g, x)
    for chunks in ((77, 33), (300, 1), (1, 250)):
        result = compute(odask.hardtanh_backward(da.from_array(g, chunks=chunks), da.from_array(x, chunks=chunks)))
        assert bits(result).tolist() == bits(expected).tolist(), chunks


def test_the_issue_example_sum():
    g = np.ones((64, 64), np.float16)
    x = np.full((64, 64), np.nan, np.float16)
    whole = opsnn.hardtanh_backward(g, x)
    chunked = odask.hardtanh_backward(da.from_array(g, chunks=(4, 4)), da.from_array(x, chunks=(4, 4)))
    assert float(compute(chunked).astype(np.float64).sum()) == float(whole.astype(np.float64).sum())


def test_one_shape_check_on_the_whole_shapes():
    """issue 27 item 5: refused by the numpy API, refused by dask whatever the chunks, at graph build,
    the message naming the whole shapes."""
    g, x = np.ones((1, 1, 1, 1), np.float32), np.ones((1, 5, 1, 2), np.float32)
    with pytest.raises(ValueError):
        opsnn.hardtanh_backward(g, x, semantics="ascend910b")
    for chunks in (1, 2, -1):
        with pytest.raises(ValueError, match=r"\(1, 5, 1, 2\)"):
            odask.hardtanh_backward(da.from_array(g, chunks=chunks), da.from_array(x, chunks=chunks),
                                    semantics="ascend910b")
        with pytest.raises(ValueError):
            odask.leaky_relu_backward(da.from_array(np.ones((3, 4)), chunks=1),
                                      da.from_array(np.ones((5, 4)), chunks=1))
    # what broadcasts stays accepted
    ok = odask.threshold_backward(da.from_array(np.ones((1, 4), np.float32), chunks=1),
                                  da.from_array(np.ones((3, 4), np.float32), chunks=1), 0.5)
    assert ok.shape == (3, 4) and compute(ok).tolist() == [[1.0] * 4] * 3


def test_zero_d_operands_keep_their_nan_payloads():
    """issue 27 item 6: different NaN payloads in 0-d inputs are different inputs."""
    payloads = [0x7E01, 0x7E02, 0xFE03, 0x7C01]
    arrays = [np.array(p, np.uint16).view(np.float16) for p in payloads]
    for g in arrays:
        for f in arrays:
            expected = opsnn.threshold_backward(g, f, 0.5)
            result = compute(odask.threshold_backward(g, f, 0.5))
            assert bits(result).tolist() == bits(expected).tolist()
            expected = opsnn.threshold(g, 0.5, f[()])
            assert bits(compute(odask.threshold(g, 0.5, f[()]))).tolist() == bits(expected).tolist()
    a, b = (odask.threshold(np.float32(1), 5.0, v) for v in (float(np.float32(np.nan)), -float(np.float32(np.nan))))
    assert a.name != b.name


def test_dask_functions_have_real_signatures_and_refuse_out():
    """issue 27 item 8: the generated functions show their parameters and refuse out= (as
    threshold_backward does) instead of ignoring it."""
    g = da.from_array(np.ones(4, np.float32))
    for name in ("leaky_relu_backward", "hardtanh_backward", "threshold_backward", "threshold"):
        function = getattr(odask, name)
        parameters = inspect.signature(function).parameters
        assert "out" not in parameters and "semantics" in parameters and "backend" in parameters, name
        with pytest.raises(TypeError, match="out"):
            args = (g, 0.5, 0.0) if name == "threshold" else (g, g)
            function(*args, out=np.empty(4, np.float32))
    assert list(inspect.signature(odask.leaky_relu_backward).parameters)[:4] == [
        "grad", "x", "negative_slope", "self_is_result"]
    r = odask.leaky_relu_backward(g, -g, negative_slope=0.5, semantics="ascend950")
    assert compute(r).tolist() == [0.5] * 4
