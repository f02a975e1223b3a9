"""The fast path's own machinery: first calls from many threads, a read-only install (nothing is
compiled or written at run time), the row-broadcast, strided and mixed-dtype paths of the C engine,
bit for bit against the reference."""
from __future__ import annotations

import importlib.util
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import opsnn
from opsnn.backends import express, fast

BF16 = np.dtype(ml_dtypes.bfloat16)
DTYPES = [np.dtype(d) for d in (np.float32, np.float16, np.int32, np.int8, np.uint8)] + [BF16]
SEMANTICS = ("torch", "ascend910b", "ascend950")
HAS_C = importlib.util.find_spec("opsnn.engine._select") is not None
ROOT = Path(__file__).resolve().parents[1]
needs_c = pytest.mark.skipif(not HAS_C, reason="the C engine was not built here")


def bits(a):
    a = np.asarray(a)
    return a.view(f"u{a.dtype.itemsize}")


def values(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -50), min(info.max, 50), n, endpoint=True).astype(dtype).reshape(shape)
    raw = rng.integers(0, 2 ** (8 * dtype.itemsize), n, dtype=np.uint64).astype(f"u{dtype.itemsize}").view(dtype)
    plain = (rng.standard_normal(n) * 2).astype(dtype)
    return np.where(rng.random(n) < 0.2, raw, plain).reshape(shape)


def _fresh_python(code: str, env=None, cwd=None):
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.mark.parametrize("engine", ["auto", "numpy"] + (["c"] if HAS_C else []))
def test_first_calls_from_many_threads_in_a_fresh_process(engine):
    """The reproducer of the import race: 8 threads make the process's very first fast calls (the
    express lane's flat call and the general way's transposed one), on each engine."""
    code = ("import numpy as np, opsnn; from concurrent.futures import ThreadPoolExecutor as T;"
            "a=np.ones((50,100),np.float32);"
            "print(list(T(8).map(lambda i: float(opsnn.threshold_backward(a,a,0.5).sum()"
            " + opsnn.threshold_backward(a.T,a.T[::-1],0.5).sum()), range(8))))")
    env = dict(os.environ, OPSNN_FAST_ENGINE=engine)
    assert _fresh_python(code, env).strip() == str([10000.0] * 8)


def test_many_threads_many_dtypes_and_paths_agree_with_reference():
    from concurrent.futures import ThreadPoolExecutor
    cases = []
    for k, dtype in enumerate(DTYPES):
        for shape, fshape in (((3000,), (3000,)), ((300, 1000), (300, 1000)), ((64, 512), (512,))):
            cases.append((values(dtype, shape, k), values(dtype, fshape, k + 100), SEMANTICS[k % 3]))

    def one(case):
        g, f, semantics = case
        got = opsnn.threshold_backward(g, f, 0.5, semantics=semantics)
        want = opsnn.threshold_backward(g, f, 0.5, semantics=semantics, backend="reference")
        return bool(np.array_equal(bits(got), bits(want)))

    with ThreadPoolExecutor(8) as pool:
        assert all(pool.map(one, cases * 3))


def test_a_read_only_install_runs_every_layout_and_writes_nothing(tmp_path):
    """The package copied to a read-only folder (a system site-packages): every layout runs, and
    nothing is written, neither beside the package nor in the user's cache folder (no code is
    compiled at run time)."""
    install = tmp_path / "site"
    shutil.copytree(ROOT / "opsnn", install / "opsnn", ignore=shutil.ignore_patterns("__pycache__"))
    for path in [install, *install.rglob("*")]:
        mode = path.stat().st_mode
        path.chmod(mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    cache = tmp_path / "home-cache"
    env = dict(os.environ, PYTHONPATH=str(install), XDG_CACHE_HOME=str(cache), PYTHONDONTWRITEBYTECODE="1")
    for name in ("OPSNN_CACHE_DIR", "OPSNN_FAST_ENGINE", "OPSNN_TUNING"):
        env.pop(name, None)
    before = sorted(str(p) for p in install.rglob("*"))
    code = ("import sys, numpy as np, opsnn; from opsnn.backends import fast;"
            f"assert fast.__file__.startswith({str(install)!r}), fast.__file__;"
            "a = np.ones((100, 50), np.float32);"
            "r = [opsnn.threshold_backward(a, a, 0.5), opsnn.threshold_backward(a.T, a.T[::-1], 0.5),"
            " opsnn.threshold_backward(a, a[0], 0.5), opsnn.threshold_backward(a, a.astype(np.float16), 0.5),"
            " opsnn.threshold_backward(a[:, ::2], a[:, 1::2], 0.5, backend='fast')];"
            "print(*(float(x.sum()) for x in r), fast.compiled_lane() is not None)")
    try:
        got = _fresh_python(code, env, cwd=tmp_path).split()
        assert got == ["5000.0", "5000.0", "5000.0", "5000.0", "2500.0", str(HAS_C)]
        assert sorted(str(p) for p in install.rglob("*")) == before
        assert not cache.exists() or not any(cache.rglob("*")), sorted(cache.rglob("*"))
    finally:
        for path in [install, *install.rglob("*")]:
            path.chmod(path.stat().st_mode | stat.S_IWUSR)


@pytest.mark.parametrize("semantics", SEMANTICS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_row_broadcast_both_ways_and_threads(semantics, dtype):
    """Feature (C,) against grad (N, C), the reverse, a (1, C) row, both thread counts, in place."""
    for gshape, fshape in (((40, 300), (300,)), ((300,), (40, 300)), ((2, 512, 300), (1, 1, 300)),
                           ((1024, 256), (256,)), ((3, 4, 100), (4, 100)), ((50, 7), (7,))):
        g, f = values(dtype, gshape, 1), values(dtype, fshape, 2)
        for t in (0.5, 0.0, 2.0):
            got = opsnn.threshold_backward(g, f, t, semantics=semantics)
            want = opsnn.threshold_backward(g, f, t, semantics=semantics, backend="reference")
            assert got.shape == want.shape
            np.testing.assert_array_equal(bits(got), bits(want))
            if g.shape == got.shape:
                inplace = g.copy()
                assert opsnn.threshold_backward(inplace, f, t, out=inplace, semantics=semantics) is inplace
                np.testing.assert_array_equal(bits(inplace), bits(want))


@pytest.mark.parametrize("dtype", DTYPES + [np.dtype(np.float64), np.dtype(np.int64)], ids=str)
def test_flat_calls_every_size_class(dtype):
    """Tiny, serial, parallel and streaming sizes, 1-D and N-d, allocating and into out=, forward too."""
    for n in (1, 4, 63, 1000, 5000, (1 << 17) + 3, (1 << 19) + 5):
        g, f = values(dtype, (n,), n), values(dtype, (n,), n + 1)
        want = opsnn.threshold_backward(g, f, 0.5, backend="reference")
        np.testing.assert_array_equal(bits(opsnn.threshold_backward(g, f, 0.5)), bits(want))
        out = np.empty_like(g)
        assert opsnn.threshold_backward(g, f, 0.5, out=out) is out
        np.testing.assert_array_equal(bits(out), bits(want))
        if n % 3 == 0 or n > 1000:
            m = n - n % 3
            nd = opsnn.threshold_backward(g[:m].reshape(3, -1), f[:m].reshape(3, -1), 0.5)
            np.testing.assert_array_equal(bits(nd).reshape(-1), bits(want[:m]))
        fwd = opsnn.threshold(f, 0.5, 2)
        np.testing.assert_array_equal(bits(fwd), bits(opsnn.threshold(f, 0.5, 2, backend="reference")))


def test_misaligned_and_read_only_operands():
    """Arrays the compiled entry point must not be handed: unaligned buffers, read-only inputs."""
    n = 3001
    raw = np.zeros(4 * n + 1, np.uint8)
    g = np.frombuffer(raw.data, np.float32, n, offset=1)
    assert not g.flags.aligned
    f = values(np.dtype(np.float32), (n,), 9)
    f.flags.writeable = False
    want = opsnn.threshold_backward(g, f, 0.25, backend="reference")
    np.testing.assert_array_equal(bits(opsnn.threshold_backward(g, f, 0.25)), bits(want))
    out_raw = np.zeros(4 * n + 1, np.uint8)
    out = np.frombuffer(out_raw.data, np.float32, n, offset=1)
    opsnn.threshold_backward(f, f, 0.25, out=out)
    np.testing.assert_array_equal(bits(out), bits(opsnn.threshold_backward(f, f, 0.25, backend="reference")))


def test_plan_memo_keeps_signed_zero_and_nan_thresholds_apart():
    g = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    f = np.array([-0.0, 0.0, np.nan, -1.0], np.float32)
    for t in (1.0, 0.0, -0.0, np.nan, 1.0, -0.0):
        np.testing.assert_array_equal(bits(opsnn.threshold_backward(g, f, t)),
                                      bits(opsnn.threshold_backward(g, f, t, backend="reference")))
    for value in (0.0, -0.0, 0.0, np.nan, 2):
        np.testing.assert_array_equal(bits(opsnn.threshold(f, 0.5, value)),
                                      bits(opsnn.threshold(f, 0.5, value, backend="reference")))


def test_engine_is_resolved_once():
    assert fast.compiled_lane() is fast.compiled_lane()
    assert (fast.compiled_lane() is not None) == HAS_C


MIXED = [np.dtype(d) for d in (np.bool_, np.uint8, np.int8, np.int16, np.int32, np.int64, np.float16, np.float32,
                               np.float64)] + [BF16]


def _mixed_values(dtype, n, seed):
    if dtype == np.bool_:
        return np.random.default_rng(seed).random(n) < 0.5
    a = values(dtype, (n,), seed)
    if dtype.kind == "f" or dtype == BF16:
        a[:6] = np.array([np.nan, np.inf, -np.inf, -0.0, 0.5, 1e-8]).astype(dtype)
    return a


def _mixed_pairs() -> list:
    """Every ordered pair of distinct dtypes with OPSNN_TEST_ALL_PAIRS=1 (`make fuzz`: ~90 pairs,
    about a minute); by default each dtype as grad and as feature against float32, and the
    pairs whose result is neither (integer promotion, halves into float32, into float64)."""
    if os.environ.get("OPSNN_TEST_ALL_PAIRS") == "1":
        return [(g, f) for g in MIXED for f in MIXED if g != f]
    f32 = np.dtype(np.float32)
    pairs = [(d, f32) for d in MIXED if d != f32] + [(f32, d) for d in MIXED if d != f32]
    named = [(np.uint8, np.int8), (np.int16, np.int64), (np.bool_, np.int32), (np.float16, BF16),
             (BF16, np.int16), (np.int64, np.float64), (np.float64, np.int8), (np.float16, np.float64),
             (np.float64, BF16)]
    return pairs + [(np.dtype(g), np.dtype(f)) for g, f in named]


@pytest.mark.parametrize(("grad_dtype", "feature_dtype"), _mixed_pairs(), ids=str)
def test_mixed_dtypes_cast_on_the_fly(grad_dtype, feature_dtype):
    """torch's promotion on the cast-as-you-go loop: pairs of dtypes, serial and parallel sizes,
    N-d and into out=, against the reference (which casts whole arrays with numpy first)."""
    for n in (7, (1 << 18) + 3):
        g, f = _mixed_values(grad_dtype, n, 3), _mixed_values(feature_dtype, n, 4)
        for t in (0.5, 0, -2):
            want = opsnn.threshold_backward(g, f, t, backend="reference")
            got = opsnn.threshold_backward(g, f, t)
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(bits(got), bits(want))
        want = opsnn.threshold_backward(g, f, 0.5, backend="reference")
        m = n - n % 7
        out = np.empty((7, m // 7), want.dtype)
        assert opsnn.threshold_backward(g[:m].reshape(7, -1), f[:m].reshape(7, -1), 0.5, out=out) is out
        np.testing.assert_array_equal(bits(out).reshape(-1), bits(want[:m]))


def test_mixed_out_aliasing_grad_and_feature():
    """out may be grad itself (same dtype as the result); a feature of another item size sharing
    out's memory is copied first, never read after being written."""
    g = values(np.dtype(np.float32), (4096,), 5)
    f = values(np.dtype(np.float16), (4096,), 6)
    want = opsnn.threshold_backward(g, f, 0.25, backend="reference")
    inplace = g.copy()
    assert opsnn.threshold_backward(inplace, f, 0.25, out=inplace) is inplace
    np.testing.assert_array_equal(bits(inplace), bits(want))
    buf = np.zeros(4096, np.float32)
    f16 = buf.view(np.float16)[:4096]  # the first half of out's bytes, as float16 features
    f16[:] = f
    want = opsnn.threshold_backward(g, f16.copy(), 0.25, backend="reference")
    assert opsnn.threshold_backward(g, f16, 0.25, out=buf) is buf
    np.testing.assert_array_equal(bits(buf), bits(want))


@needs_c
@pytest.mark.parametrize("semantics", SEMANTICS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_strided_2d_operands_and_out(semantics, dtype):
    """Transposed, reversed and sliced 2-d views, column broadcasts, a strided out: the C engine's
    strided walk (tiles for transposed operands; every loop kind: t=0.5, and ReluGrad at t=0 on
    ascend), serial and parallel sizes; the C lane answers each of them itself."""
    for rows, cols in ((3, 5), (70, 130), (700, 300)):
        base_g, base_f = values(dtype, (cols * 2, rows * 2), 7), values(dtype, (cols * 2, rows * 2), 8)
        cases = [
            (base_g[:cols, :rows].T, base_f[:cols, :rows].T),                # both transposed
            (base_g[::2, ::2][:cols, :rows].T, base_f[:cols, :rows].T[::-1]),  # strided + reversed
            (base_g[:cols, :rows].T.copy(), base_f[:cols, :1].T),             # a (1, C) row ...
            (base_g[:cols, :rows].T.copy(), values(dtype, (rows, 1), 11)),    # ... and an (R, 1) column
        ]
        for g, f in cases:
            for t in (0.5, 0.0):
                want = opsnn.threshold_backward(g, f, t, semantics=semantics, backend="reference")
                lane = express.threshold_backward(g, f, t, semantics, None)
                assert lane is not None, "the C lane declined a same-dtype layout"
                np.testing.assert_array_equal(bits(lane), bits(want))
                got = opsnn.threshold_backward(g, f, t, semantics=semantics, backend="fast")
                np.testing.assert_array_equal(bits(got), bits(want))
                holder = np.zeros((want.shape[1], want.shape[0]), dtype)
                out = holder.T  # a transposed out
                assert opsnn.threshold_backward(g, f, t, semantics=semantics, out=out) is out
                np.testing.assert_array_equal(bits(out), bits(want))
                numpy_out = np.zeros((want.shape[1], want.shape[0]), dtype).T  # the numpy engine agrees
                fast.threshold_backward(g, f, _plan(g, f, t, semantics), numpy_out, engine="numpy")
                np.testing.assert_array_equal(bits(numpy_out), bits(want))


def _plan(g, f, t, semantics):
    from opsnn.backends.plan import plan_backward
    return plan_backward(g, f, t, semantics)


def test_strided_2d_out_overlapping_an_input_is_copied_first():
    g = values(np.dtype(np.float32), (300, 300), 9)
    f = values(np.dtype(np.float32), (300, 300), 10)
    want = opsnn.threshold_backward(g.T, f, 0.25, backend="reference")
    opsnn.threshold_backward(g.T, f, 0.25, out=g)  # out is grad's memory, read transposed
    np.testing.assert_array_equal(bits(g), bits(want))
