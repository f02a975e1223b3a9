"""fast == reference (== emulator) bit for bit, for every semantics; both fast engines; threads; tiles."""
from __future__ import annotations

import importlib.util

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from opsnn.backends import express, fast, plan, reference
from opsnn.engine import lanes, machine

BF16 = np.dtype(ml_dtypes.bfloat16)
ASCEND_DTYPES = [np.dtype(d) for d in (np.float32, np.float16, np.int32, np.int8, np.uint8)] + [BF16]
SEMANTICS = ("torch", "ascend910b", "ascend950")
ENGINES = ["numpy"] + (["c"] if importlib.util.find_spec("opsnn.engine._select") else [])
FLOAT_SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 1e-7, -1e-7, 1.1920929e-07, 1e-40, -1e-40,
                  65504.0, 3e38, 0.5, 2.0]


def bits(a: np.ndarray) -> np.ndarray:
    return a.view(f"u{a.dtype.itemsize}")


def nan_bits(a: np.ndarray) -> np.ndarray:
    """Bits with every NaN made the same (for engines whose NaN payloads may legitimately differ)."""
    b = bits(a).copy()
    if a.dtype.kind == "f" or a.dtype == BF16:
        with np.errstate(invalid="ignore"):  # ml_dtypes < 0.7 warns on a bfloat16 NaN
            b[np.isnan(a)] = 0
    return b


def values(dtype: np.dtype, n: int, seed: int, specials=True) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        raw = rng.integers(info.min, info.max, n, endpoint=True, dtype=np.int64)
        small = rng.integers(max(info.min, -5), min(info.max, 5), n, endpoint=True)
        pick = rng.random(n) < 0.5
        return np.where(pick, raw, small).astype(dtype)
    # random bit patterns (every NaN payload, subnormal, inf) mixed with plain numbers and specials
    raw = rng.integers(0, 2 ** (8 * dtype.itemsize), n, dtype=np.uint64).astype(f"u{dtype.itemsize}").view(dtype)
    plain = (rng.standard_normal(n) * 2).astype(dtype)
    out = np.where(rng.random(n) < 0.3, raw, plain)
    if specials:
        sp = np.array(FLOAT_SPECIALS, np.float64)
        with np.errstate(over="ignore"):
            out[: len(sp)] = sp.astype(dtype)[: min(n, len(sp))][: n]
    return out


def run_both(grad, feature, t, semantics, engine="numpy", tile=None, threads=None):
    p = plan.plan_backward(grad, feature, t, semantics)
    expected = reference.threshold_backward(grad, feature, p)
    g0, f0 = grad.copy(), feature.copy()
    got = fast.threshold_backward(grad, feature, p, engine=engine, tile=tile, threads=threads)
    np.testing.assert_array_equal(bits(grad), bits(g0))   # inputs untouched
    np.testing.assert_array_equal(bits(feature), bits(f0))
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(bits(got), bits(expected))
    return expected


thresholds = st.one_of(
    st.sampled_from([0.0, -0.0, 1.0, -1.0, 0.5, 1e-7, -1e-7, 1.1920929e-07, 1.2e-7, 2e-7, 65504.0, 65520.0, 1e6,
                     3e38, np.inf, -np.inf, np.nan, 2.0**24 + 1, 2.0**31, -(2.0**31), 127.5, -128.5, 255.0]),
    st.floats(allow_nan=True, allow_infinity=True, width=32),
    st.integers(-300, 300))


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("semantics", SEMANTICS[1:])
@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(dtype=st.sampled_from(ASCEND_DTYPES), n=st.integers(1, 3000), seed=st.integers(0, 2**16), t=thresholds,
       tile=st.sampled_from([None, 7, 64, 1000]))
def test_fast_equals_reference_ascend(engine, semantics, dtype, n, seed, t, tile):
    run_both(values(dtype, n, seed), values(dtype, n, seed + 1), t, semantics, engine, tile)


@pytest.mark.parametrize("engine", ENGINES)
@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(dtype=st.sampled_from(ASCEND_DTYPES + [np.dtype(np.float64), np.dtype(np.int16), np.dtype(np.int64)]),
       n=st.integers(1, 3000), seed=st.integers(0, 2**16), t=thresholds)
def test_fast_equals_reference_torch(engine, dtype, n, seed, t):
    g, f = values(dtype, n, seed), values(dtype, n, seed + 1)
    try:
        plan.plan_backward(g, f, t, "torch")
    except ValueError:
        return  # out of the integer dtype's range: torch refuses, tested elsewhere
    run_both(g, f, t, "torch", engine)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("semantics", SEMANTICS)
def test_broadcast_strided_threaded(engine, semantics):
    """Staged N-d blocks (broadcast, negative strides) and the threaded flat path."""
    for dtype in ASCEND_DTYPES:
        g = values(dtype, 2 * 300 * 700, 11).reshape(2, 300, 700)
        f = values(dtype, 700, 12)
        run_both(g, f, 0.5, semantics, engine)                        # trailing-dim broadcast
        run_both(g[:, ::-1, ::2], f[::2], -0.0, semantics, engine)    # ReluGrad on ascend, strided
        run_both(g[:1, :, :1], f, 1.0, semantics, engine)             # both broadcast
        run_both(g, g, 1.0, semantics, engine, threads=2)             # flat, two threads
        run_both(g.reshape(-1), values(dtype, g.size, 13), 1.0, semantics, engine, tile=5000, threads=3)


@pytest.mark.parametrize("engine", ENGINES)
def test_out_aliasing_grad_and_views(engine, monkeypatch):
    monkeypatch.setenv("OPSNN_FAST_ENGINE", engine)
    _reread_engine(monkeypatch)
    for semantics in SEMANTICS:
        for dtype in ASCEND_DTYPES:
            g = values(dtype, 400_000, 21)
            f = values(dtype, 400_000, 22)
            expected = opsnn.threshold_backward(g, f, 0.25, semantics=semantics, backend="reference")
            inplace = g.copy()
            result = opsnn.threshold_backward(inplace, f, 0.25, out=inplace, semantics=semantics)
            assert result is inplace
            np.testing.assert_array_equal(bits(inplace), bits(expected))
            # out a non-contiguous view
            base = np.zeros((400_000, 2), dtype)
            opsnn.threshold_backward(g, f, 0.25, out=base[:, 1], semantics=semantics)
            np.testing.assert_array_equal(bits(base[:, 1]), bits(expected))
            # out overlapping grad shifted by one element: must still read grad before writing
            buf = np.concatenate([g, g[:1]])
            shifted_in, shifted_out = buf[:-1], buf[1:]
            expected_shift = opsnn.threshold_backward(shifted_in.copy(), f, 0.25, semantics=semantics,
                                                      backend="reference")
            opsnn.threshold_backward(shifted_in, f, 0.25, out=shifted_out, semantics=semantics)
            np.testing.assert_array_equal(bits(shifted_out), bits(expected_shift))


def _reread_engine(monkeypatch):
    """fast resolves its engine (the environment, the C engine's presence) once per process; for
    this test, resolve it on every call instead (undone with the monkeypatch)."""
    monkeypatch.setattr(fast, "compiled_lane", lambda: fast.engine_lane(None))
    # the express lane remembers per process which engine answered: fresh memos for this test
    monkeypatch.setattr(express, "_BACKWARD", {})
    monkeypatch.setattr(express, "_FORWARD", {})
    monkeypatch.setattr(lanes, "_LANES", {})


def test_numpy_fallback_is_used_without_the_c_engine(monkeypatch):
    """With the C engine unimportable (not built), 'auto' falls back to the numpy engine, and 'c'
    says in one line what is missing."""
    import sys
    monkeypatch.setitem(sys.modules, "opsnn.engine._select", None)
    _reread_engine(monkeypatch)
    assert fast.engine_lane("auto") is None
    with pytest.raises(ImportError, match="OPSNN_FAST_ENGINE=c needs the C engine") as raised:
        fast.engine_lane("c")
    assert "\n" not in str(raised.value)
    g, f = values(np.dtype(np.float32), 300_000, 1), values(np.dtype(np.float32), 300_000, 2)
    out = opsnn.threshold_backward(g, f, 0.5)
    ref = opsnn.threshold_backward(g, f, 0.5, backend="reference")
    np.testing.assert_array_equal(bits(out), bits(ref))
    assert express._BACKWARD and not any(express._BACKWARD.values())  # no lane: the general way


@pytest.mark.parametrize("semantics", SEMANTICS[1:])
@settings(deadline=None, max_examples=15, suppress_health_check=[HealthCheck.too_slow])
@given(dtype=st.sampled_from(ASCEND_DTYPES), n=st.integers(1, 600), seed=st.integers(0, 2**16),
       t=st.sampled_from([1.0, 0.0, -0.5, 0.25, 1e-8, np.nan, 70000.0, -np.inf]),
       feature_shape=st.sampled_from(["same", "row", "scalar"]))
def test_emulator_equals_fast(semantics, dtype, n, seed, t, feature_shape):
    g = values(dtype, n, seed)
    f = {"same": values(dtype, n, seed + 1), "row": values(dtype, 1, seed + 1),
         "scalar": values(dtype, 1, seed + 1).reshape(())}[feature_shape]
    ours = opsnn.threshold_backward(g, f, t, semantics=semantics, backend="fast")
    emulated = opsnn.threshold_backward(g, f, t, semantics=semantics, backend="emulator")
    assert emulated.dtype == ours.dtype and emulated.shape == ours.shape
    # bit for bit except NaN payloads, which a kernel's float casts may rewrite (bfloat16 through
    # float32 and back); the ReluGrad kernel's NaNs are checked bit for bit in its own tests
    np.testing.assert_array_equal(nan_bits(emulated), nan_bits(ours))


@pytest.mark.skipif("c" not in ENGINES, reason="the C engine is not built")
@pytest.mark.parametrize("semantics", SEMANTICS)
def test_streaming_stores(semantics, monkeypatch):
    """The non-temporal-store path (big outputs): unaligned heads and tails, in place, both thread counts.
    stream_min is lowered so that small, oddly sized arrays take it too."""
    monkeypatch.setenv("OPSNN_TUNING", "stream_min=0")
    machine.tuning.cache_clear()
    monkeypatch.setattr(lanes, "_LANES", {})
    assert fast.stream_moved_min() == 0
    try:
        for dtype in ASCEND_DTYPES + [np.dtype(np.float64), np.dtype(np.int64)]:
            if semantics != "torch" and dtype.itemsize == 8:
                continue
            for n, offset in ((1, 0), (63, 1), (200, 3), (5000, 0), (70_001, 5)):
                g = values(dtype, n + offset, 31)[offset:]
                f = values(dtype, n + offset, 32)[offset:]
                for t in (0.5, 0.0):  # ascend: the int32-through-float32 loop, then ReluGrad's
                    for threads in (1, 2):
                        run_both(g, f, t, semantics, "c", threads=threads)
                    expected = reference.threshold_backward(g, f, plan.plan_backward(g, f, t, semantics))
                    inplace = g.copy()
                    fast.threshold_backward(inplace, f, plan.plan_backward(g, f, t, semantics), out=inplace)
                    np.testing.assert_array_equal(bits(inplace), bits(expected))
        if semantics != "torch":  # int32 through float32 near the saturation point, in whole streamed blocks
            edge = np.array([2**31 - 1, 2**31 - 64, 2**31 - 65, 2**31 - 128, 2**24 + 1, -(2**31), -(2**24) - 3, 7],
                            np.int32)
            g = np.tile(edge, 4096)
            run_both(g, np.ones_like(g), 0.5, semantics, "c", threads=2)
    finally:
        monkeypatch.undo()
        machine.tuning.cache_clear()
    n = fast.stream_moved_min() // 3 + 64
    big = values(np.dtype(np.uint8), n + 7, 33)[7:]   # over the real crossover, misaligned
    feature = values(np.dtype(np.uint8), n, 34)
    expected = run_both(big, feature, 100, "torch", "c")
    np.testing.assert_array_equal(opsnn.threshold_backward(big, feature, 100), expected)  # the express lane
