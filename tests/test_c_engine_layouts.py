"""The C engine's general way (opsnn/engine/_select.c): every layout numpy can describe, bit for
bit the reference, under every semantics and dtype, split over threads or not.

Operands are views of random bit patterns: transposed (any axis order), sliced with steps
(negative too), broadcast (size-1 axes, missing leading axes, 0-d), unaligned, byte-swapped, of
another dtype (cast on the way), and `out` may be strided or a shifted alias of an input."""
from __future__ import annotations

import math
import shutil

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from opsnn.backends.keep_range import selection
from opsnn.backends.plan import plan_backward, plan_forward

import opsnn
from opsnn.backends import fast
from opsnn.dtypes import bfloat16

if shutil.which("cc") is None and shutil.which("gcc") is None:
    pytest.skip("no C compiler: the C engine is not built here", allow_module_level=True)
_select = fast.engine_lane("c")

DTYPES = [np.dtype(t) for t in (np.uint8, np.int8, np.int16, np.int32, np.int64, np.float16, np.float32,
                                np.float64, np.bool_)] + [bfloat16]
SEMANTICS = ("torch", "ascend910b", "ascend950")
THRESHOLDS = (0.0, 0.5, -1.5, 1e-8, 3, math.inf, math.nan)


def bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a).view(f"u{a.dtype.itemsize}")


def raw(dtype: np.dtype, n: int, rng) -> np.ndarray:
    if dtype == np.bool_:
        return rng.random(n) < 0.5
    w = dtype.itemsize
    anything = rng.integers(0, 2 ** (8 * w), n, dtype=np.uint64).astype(f"u{w}").view(dtype)
    ordinary = (rng.standard_normal(n) * 4).astype(np.float32).astype(dtype)
    return np.where(rng.random(n) < 0.5, anything, ordinary)


def view_of(shape: tuple, dtype: np.dtype, kind: str, rng) -> np.ndarray:
    """An array of `shape` (or broadcastable to it) laid out as `kind` says."""
    if kind == "broadcast":
        shape = tuple(1 if rng.random() < 0.5 else d for d in shape)[int(rng.integers(0, len(shape) + 1)):]
        kind = "contiguous"
    if kind == "zero-d":
        return raw(dtype, 1, rng).reshape(())
    if kind == "transposed":
        order = rng.permutation(len(shape))
        base = raw(dtype, math.prod(shape), rng).reshape(tuple(shape[i] for i in order))
        return base.transpose(np.argsort(order))
    if kind == "stepped":
        steps = [int(rng.choice([-2, -1, 1, 2, 3])) for _ in shape]
        base = raw(dtype, math.prod(d * abs(s) for d, s in zip(shape, steps, strict=True)), rng)
        base = base.reshape(tuple(d * abs(s) for d, s in zip(shape, steps, strict=True)))
        return base[tuple(slice(None, None, s) for s in steps) + (...,)][tuple(slice(0, d) for d in shape) + (...,)]
    if kind == "unaligned" and dtype.itemsize > 1:
        n = math.prod(shape)
        buffer = np.zeros(n * dtype.itemsize + 1, np.uint8)
        a = np.frombuffer(buffer.data, dtype, n, offset=1).reshape(shape)
        a[...] = raw(dtype, n, rng).reshape(shape)
        return a
    if kind == "swapped" and dtype.itemsize > 1 and dtype != bfloat16:
        return raw(dtype, math.prod(shape), rng).reshape(shape).astype(dtype.newbyteorder())
    return raw(dtype, math.prod(shape), rng).reshape(shape)


KINDS = ("contiguous", "transposed", "stepped", "broadcast", "zero-d", "unaligned", "swapped")
SHAPES = st.lists(st.integers(0, 6), min_size=0, max_size=4).map(tuple) | st.sampled_from(
    [(300, 257), (64, 3, 130), (1, 4096), (4096, 1), (33, 65)])


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(DTYPES), st.sampled_from(DTYPES), st.sampled_from(SEMANTICS), st.sampled_from(THRESHOLDS),
       SHAPES, st.sampled_from(KINDS), st.sampled_from(KINDS), st.integers(0, 2**32 - 1), st.integers(1, 3),
       st.sampled_from(["none", "contiguous", "stepped"]))
def test_every_layout_matches_the_reference(gdtype, fdtype, semantics, threshold, shape, gkind, fkind, seed,
                                            threads, out_kind):
    rng = np.random.default_rng(seed)
    if semantics != "torch":
        fdtype = gdtype  # the ascend semantics take one dtype (the planner refuses others)
    grad, feature = view_of(shape, gdtype, gkind, rng), view_of(shape, fdtype, fkind, rng)
    try:
        plan = plan_backward(grad, feature, threshold, semantics)
    except (TypeError, ValueError):
        return
    sel = selection(plan)
    if sel.empty:
        return
    expected = opsnn.threshold_backward(grad, feature, threshold, semantics=semantics, backend="reference")
    out = None if out_kind == "none" else view_of(plan.shape, plan.dtype, out_kind, rng)
    lane = _select.Lane(plan.dtype, [int(v) for v in sel.params], 1 << 30, 3, 64, int(rng.integers(0, 1 << 20)),
                        threads)
    with np.errstate(over="ignore", invalid="ignore"):  # as fast.py calls it: casts may overflow
        got = lane.cast(grad, feature, out)
    assert got is not None
    assert got.shape == expected.shape and got.dtype == expected.dtype and (out is None or got is out)
    np.testing.assert_array_equal(bits(got), bits(expected))
    # the public API agrees (it takes the express lane or the general way)
    np.testing.assert_array_equal(bits(opsnn.threshold_backward(grad, feature, threshold, semantics=semantics)),
                                  bits(expected))


@settings(max_examples=100, deadline=None)
@given(st.sampled_from([d for d in DTYPES if d != np.bool_]), SHAPES, st.sampled_from(KINDS[:3]),
       st.integers(0, 2**32 - 1), st.sampled_from([(0.5, 2.0), (-1.0, -0.0), (3, 7)]))
def test_the_forward_on_every_layout(dtype, shape, kind, seed, scalars):
    rng = np.random.default_rng(seed)
    x = view_of(shape, dtype, kind, rng)
    try:
        plan_forward(x, *scalars)
    except (TypeError, ValueError):
        return
    expected = opsnn.threshold(x, *scalars, backend="reference")
    np.testing.assert_array_equal(bits(opsnn.threshold(x, *scalars)), bits(expected))
    inplace = x.copy() if kind != "contiguous" else x
    assert opsnn.threshold(inplace, *scalars, out=inplace) is inplace
    np.testing.assert_array_equal(bits(inplace), bits(expected))


@pytest.mark.parametrize("shift", [1, -1, 7, 64])
@pytest.mark.parametrize("operand", ["grad", "feature"])
def test_out_a_shifted_alias_of_an_input_reads_before_it_writes(shift, operand):
    rng = np.random.default_rng(abs(shift))
    n = 5000
    buffer = raw(np.dtype(np.float32), n + abs(shift), rng)
    start = max(shift, 0)
    alias, out = buffer[start:start + n], buffer[start - shift:start - shift + n]
    other = raw(np.dtype(np.float32), n, rng)
    grad, feature = (alias, other) if operand == "grad" else (other, alias)
    expected = opsnn.threshold_backward(grad.copy(), feature.copy(), 0.25, backend="reference")
    assert opsnn.threshold_backward(grad, feature, 0.25, out=out) is out
    np.testing.assert_array_equal(bits(out), bits(expected))


def test_a_transposed_view_is_walked_in_tiles_and_matches():
    """Big enough for the tiled walk (rows of a 1 KiB column slice, several threads, every width)."""
    rng = np.random.default_rng(3)
    for dtype in (np.dtype(np.uint8), np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)):
        g, f = raw(dtype, 700 * 1100, rng).reshape(700, 1100), raw(dtype, 1100 * 700, rng).reshape(1100, 700)
        for a, b in ((g, f.T), (f.T, g), (f.T, f.T[:, ::-1]), (g[::-1], f.T)):
            expected = opsnn.threshold_backward(a, b, 0.5, backend="reference")
            np.testing.assert_array_equal(bits(opsnn.threshold_backward(a, b, 0.5)), bits(expected))


ASCEND_FORWARD_DTYPES = [np.dtype(t) for t in (np.float16, np.float32, np.float64, np.int8, np.uint8, np.int16,
                                               np.int32, np.int64)] + [bfloat16]
SCALARS = [0.5, -1, 100, 1e10, -1e10, math.nan, math.inf, -math.inf, 2**31 - 1, 16777217, -16777217, 0, -0.0, 3.7]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(ASCEND_FORWARD_DTYPES), st.sampled_from(["ascend910b", "ascend950"]), SHAPES,
       st.sampled_from(KINDS[:4]), st.sampled_from(SCALARS), st.sampled_from(SCALARS), st.integers(0, 2**32 - 1),
       st.booleans())
def test_the_ascend_forward_on_the_engine(dtype, semantics, shape, kind, threshold, value, seed, into_out):
    """opsnn.threshold under the ascend semantics (aclnnThreshold: the scalars converted as the host
    does, int32 and int16 through float32 on the 910B) answers as the functional model."""
    rng = np.random.default_rng(seed)
    x = view_of(shape, dtype, kind, rng)
    if x.ndim > 8:
        return
    try:
        expected = opsnn.threshold(x, threshold, value, semantics=semantics, backend="reference")
    except (TypeError, ValueError):
        return
    out = np.zeros(x.shape, dtype) if into_out else None
    got = opsnn.threshold(x, threshold, value, semantics=semantics, out=out)
    assert out is None or got is out
    np.testing.assert_array_equal(bits(got), bits(expected))


@pytest.mark.parametrize("semantics", ["ascend910b", "ascend950"])
def test_the_ascend_forward_express_entry_answers_only_what_the_checks_accept(semantics):
    x = np.linspace(-2, 2, 24, dtype=np.float32).reshape(4, 6)
    for _ in range(2):  # the second call takes the express entry
        np.testing.assert_array_equal(opsnn.threshold(x, 0.5, -1.0, semantics=semantics),
                                      opsnn.threshold(x, 0.5, -1.0, semantics=semantics, backend="reference"))
    with pytest.raises(ValueError):
        opsnn.threshold(x.reshape((1,) * 8 + (4, 6)), 0.5, -1.0, semantics=semantics)  # rank 10 > 8
    with pytest.raises(TypeError):
        opsnn.threshold(x, 0.5, -1.0, semantics=semantics, out=np.empty((4, 6), np.float64))
    with pytest.raises(ValueError):
        opsnn.threshold(x, 0.5, -1.0, semantics=semantics, out=np.empty((6, 4), np.float32))
    negative_zero = opsnn.threshold(x, 5.0, -0.0, semantics=semantics)  # another value: another entry
    assert np.signbit(negative_zero).all()
