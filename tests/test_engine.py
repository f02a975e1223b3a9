"""opsnn.engine: the bit ranges of keys.py against every value of the 16-bit types, the modes'
constants against the C module's, and the LeakyReluGrad and HardtanhGrad rules on the engine
against their references over every 16-bit pattern (grad for LeakyReluGrad, x for HardtanhGrad)."""
from __future__ import annotations

import math
import shutil

import numpy as np
import pytest

import opsnn
from opsnn.dtypes import bfloat16
from opsnn.engine import keys, lanes, modes

F16 = np.dtype(np.float16)
HALVES = (F16, bfloat16)
ALL16 = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
CUTS = [0.0, -0.0, 1.0, -1.0, 0.1, -0.1, 6.0, 65504.0, 65520.0, 1e5, -1e5, 1e-8, -1e-8, 5.9604645e-08,
        2.9802322e-08, 3.4e38, math.inf, -math.inf, math.nan, 0.33333334]


def values(dtype: np.dtype) -> np.ndarray:
    with np.errstate(invalid="ignore"):  # ml_dtypes < 0.7 warns on bfloat16 NaN casts
        return ALL16.view(dtype).astype(np.float64)


def kept(dtype: np.dtype, ranges, keyed: bool) -> np.ndarray:
    """Which of the 65536 patterns two cyclic ranges keep (of keys, or of raw bits)."""
    u = ALL16.astype(np.int64)
    if keyed:
        u = np.array([keys.float_key(int(b), 16) for b in ALL16], np.int64)
    lo1, hi1, lo2, hi2 = ranges
    return ((u - lo1) % (1 << 16) <= (hi1 - lo1) % (1 << 16)) | ((u - lo2) % (1 << 16) <= (hi2 - lo2) % (1 << 16))


@pytest.mark.parametrize("dtype", HALVES, ids=str)
@pytest.mark.parametrize("cut", CUTS)
def test_first_above_and_last_below_are_exact(dtype, cut):
    v = values(dtype)
    finite_or_inf = ~np.isnan(v)
    above = v[finite_or_inf & (v > cut)]
    below = v[finite_or_inf & (v < cut)]
    first, last = keys.first_above(cut, dtype), keys.last_below(cut, dtype)
    if above.size:
        assert first == keys.key_of(above.min(), dtype) or (above.min() == 0 and first == keys.key_of(-0.0, dtype))
    else:
        assert first == keys.key_of(math.inf, dtype) + 1
    if below.size:
        assert last == keys.key_of(below.max(), dtype) or (below.max() == 0 and last == keys.key_of(0.0, dtype))
    else:
        assert last == keys.key_of(-math.inf, dtype) - 1


@pytest.mark.parametrize("dtype", HALVES, ids=str)
@pytest.mark.parametrize(("lo", "hi"), [(-1.0, 1.0), (0.0, 6.0), (0.5, 2.0), (-3.0, -0.5), (2.0, 1.0), (1.0, 1.0),
                                        (-math.inf, math.inf), (math.nan, 1.0), (-0.0, 0.0), (1e-8, 1e5)])
def test_open_interval_or_nan_is_that_set(dtype, lo, hi):
    v = values(dtype)
    with np.errstate(invalid="ignore"):
        expected = ((v > lo) & (v < hi)) | np.isnan(v)
    inside, nans = keys.open_interval_or_nan(dtype, lo, hi)
    np.testing.assert_array_equal(kept(dtype, inside + nans, keyed=True), expected)


@pytest.mark.parametrize("dtype", HALVES, ids=str)
@pytest.mark.parametrize("cut", CUTS)
def test_raw_greater_is_that_set(dtype, cut):
    v = values(dtype)
    lo1, hi1, lo2, hi2 = keys.raw_greater(dtype, cut)
    u = ALL16.astype(np.int64)
    got = ((u >= lo1) & (u <= hi1)) | ((u >= lo2) & (u <= hi2))
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(got, v > cut)


needs_c = pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None, reason="no C compiler")


@needs_c
def test_the_modes_are_the_modules():
    module = lanes.engine_module("c")
    for name in ("PLAIN", "RELU", "VIA_FLOAT32", "LEAKY", "LEAKY_BF16", "CYCLIC", "HOST_NAN", "KEYED"):
        assert getattr(module, name) == getattr(modes, name), name


@needs_c
@pytest.mark.parametrize("bad", [modes.RELU | modes.HOST_NAN, modes.LEAKY | modes.KEYED, 3, 6, modes.PLAIN | 0x800])
def test_a_lane_refuses_modes_and_flags_it_has_no_loop_for(bad):
    module = lanes.engine_module("c")
    with pytest.raises(ValueError):
        module.Lane(np.float32, [0, 1, 0, 1, 0, 0, 0, 0, bad], 8, 3, 64, 0, 1)


@needs_c
# (torch's bfloat16: the engine, then its NaN elements by torch's loop split)
@pytest.mark.parametrize(("dtype", "semantics"), [(F16, "torch"), (F16, "ascend910b"), (F16, "ascend950"),
                                                  (bfloat16, "torch"), (bfloat16, "ascend910b"),
                                                  (bfloat16, "ascend950")], ids=str)
@pytest.mark.parametrize("slope", [0.01, -0.3, 7.0, 1e-7, 65504.0, math.inf, math.nan, 0.0])
def test_leaky_relu_backward_on_every_grad_pattern(dtype, semantics, slope):
    g = ALL16.view(dtype)
    for x in (np.full(g.shape, -1.0, dtype), np.full(g.shape, 2.0, dtype), ALL16[::-1].copy().view(dtype)):
        got = opsnn.leaky_relu_backward(g, x, slope, semantics=semantics)
        expected = opsnn.leaky_relu_backward(g, x, slope, semantics=semantics, backend="reference")
        np.testing.assert_array_equal(got.view(np.uint16), expected.view(np.uint16))


@needs_c
@pytest.mark.parametrize("dtype", HALVES, ids=str)
@pytest.mark.parametrize("semantics", ["torch", "ascend910b", "ascend950"])
@pytest.mark.parametrize(("lo", "hi"), [(-1.0, 1.0), (0.0, 6.0), (0.5, 2.0), (2.0, 1.0), (-math.inf, math.inf)])
def test_hardtanh_backward_on_every_x_pattern(dtype, semantics, lo, hi):
    x = ALL16.view(dtype)
    if semantics == "torch":  # torch's NaN answers follow its loop split (the numpy path answers those)
        with np.errstate(invalid="ignore"):
            x = x[~np.isnan(x.astype(np.float32))]
    rng = np.random.default_rng(7)
    g = rng.integers(0, 1 << 16, x.size, dtype=np.uint32).astype(np.uint16).view(dtype)
    got = opsnn.hardtanh_backward(g, x, lo, hi, semantics=semantics)
    expected = opsnn.hardtanh_backward(g, x, lo, hi, semantics=semantics, backend="reference")
    np.testing.assert_array_equal(got.view(np.uint16), expected.view(np.uint16))


@needs_c
@pytest.mark.parametrize("op", ["leaky", "hardtanh"])
@pytest.mark.parametrize("semantics", ["torch", "ascend910b", "ascend950"])
def test_the_express_entries_answer_only_what_the_general_way_would(op, semantics):
    """After a call taught an operator's express entry, the same scalars with other arguments
    still get the general way's errors and answers (rank, shape, out, dtype, signed zero)."""
    call = {"leaky": lambda g, x, *a, **k: opsnn.leaky_relu_backward(g, x, *a, semantics=semantics, **k),
            "hardtanh": lambda g, x, *a, **k: opsnn.hardtanh_backward(g, x, *a, semantics=semantics, **k)}[op]
    scalars = {"leaky": (0.25,), "hardtanh": (-0.5, 0.5)}[op]
    rng = np.random.default_rng(1)
    g = rng.standard_normal((3, 5)).astype(np.float32)
    x = rng.standard_normal((3, 5)).astype(np.float32)
    for _ in range(2):  # the second call takes the express entry
        np.testing.assert_array_equal(call(g, x, *scalars), call(g, x, *scalars, backend="reference"))
    deep = g.reshape((1,) * 7 + (3, 5))
    if semantics == "torch":
        np.testing.assert_array_equal(call(deep, deep, *scalars), call(deep, deep, *scalars, backend="reference"))
    else:
        with pytest.raises(ValueError):
            call(deep, deep, *scalars)  # rank 9: aclnn refuses it
    with pytest.raises(TypeError):
        call(g, x, *scalars, out=np.empty((3, 5), np.float64))
    with pytest.raises(ValueError):
        call(g, x, *scalars, out=np.empty((5, 3), np.float32))
    with pytest.raises(TypeError):
        call(g.astype(np.int32), x.astype(np.int32), *scalars)
    if op == "leaky":  # a negative zero slope is another call than a positive one (taught first)
        for _ in range(2):
            call(-np.abs(g), -np.abs(x), 0.0)
        negative = call(-np.abs(g), -np.abs(x), -0.0)
        np.testing.assert_array_equal(negative.view(np.uint32),
                                      call(-np.abs(g), -np.abs(x), -0.0, backend="reference").view(np.uint32))


@pytest.mark.parametrize("itemsize", [2, 4, 8])
@pytest.mark.parametrize("threads", [1, 2, 3, 8])
@pytest.mark.parametrize("n", [0, 1, 15, 16, 17, 4096, 32767, 32768, 40001, 65537, 100003])
def test_torch_scalar_runs_are_what_torch_vector_lanes_leaves_scalar(itemsize, threads, n):
    """HardtanhGrad's express path fixes torch's scalar-body elements only: those runs must be
    exactly the elements torch_vector_lanes says are not vectorised (one contiguous shape)."""
    from opsnn.op_common.torch_loops import torch_scalar_runs, torch_vector_lanes
    scalar = np.zeros(n, bool)
    for start, stop in torch_scalar_runs(n, itemsize, threads):
        scalar[start:stop] = True
    np.testing.assert_array_equal(scalar, ~torch_vector_lanes((n,), (n,), itemsize, threads))


@needs_c
@pytest.mark.parametrize("dtype", [F16, bfloat16, np.dtype(np.float32), np.dtype(np.float64)], ids=str)
@pytest.mark.parametrize("n", [17, 40001, 100003])
def test_hardtanh_torch_semantics_with_nan_x_on_the_express_path(dtype, n):
    """NaN x under torch semantics: the engine's vectorised-body rule plus the scalar tails equal the
    reference (which reproduces torch's loop split), on the first call and on the express entry."""
    rng = np.random.default_rng(n)
    x = (rng.standard_normal(n) * 2).astype(np.float32).astype(dtype)
    x[rng.random(n) < 0.05] = np.nan
    g = rng.standard_normal(n).astype(np.float32).astype(dtype)
    expected = opsnn.hardtanh_backward(g, x, -1.0, 1.0, backend="reference")
    for _ in range(2):
        got = opsnn.hardtanh_backward(g, x, -1.0, 1.0)
        np.testing.assert_array_equal(got.view(f"u{dtype.itemsize}"), expected.view(f"u{dtype.itemsize}"))
    inplace = x.copy()  # out = x: the tails are read before the lane writes
    assert opsnn.hardtanh_backward(g, inplace, -1.0, 1.0, out=inplace) is inplace
    np.testing.assert_array_equal(inplace.view(f"u{dtype.itemsize}"), expected.view(f"u{dtype.itemsize}"))


@needs_c
@pytest.mark.parametrize("dtype", [F16, bfloat16, np.dtype(np.float32), np.dtype(np.float64)], ids=str)
@pytest.mark.parametrize("semantics", ["torch", "ascend910b", "ascend950"])
def test_a_feature_broadcast_along_the_rows_on_every_rule(dtype, semantics):
    """x of shape (N, 1) against grad (N, C): the engine's broadcast-feature loops (each rule's,
    the feature's one value read once per row) against the references; NaN and signed zeros in x."""
    rng = np.random.default_rng(11)
    g = ALL16[: 64 * 300].view(np.float16).astype(dtype).reshape(64, 300) if dtype.itemsize > 2 \
        else ALL16[: 64 * 300].copy().view(dtype).reshape(64, 300)
    x = rng.standard_normal((64, 1)).astype(np.float32).astype(dtype)
    x[::7] = np.nan
    x[1::9] = -0.0
    calls = [(opsnn.threshold_backward, (0.25,)), (opsnn.leaky_relu_backward, (0.1,)),
             (opsnn.hardtanh_backward, (-0.5, 0.5))]
    for op, scalars in calls:
        if semantics != "torch" and op is not opsnn.threshold_backward:
            args = (g, np.broadcast_to(x, g.shape).copy())  # the ascend APIs of these two do not broadcast
        else:
            args = (g, x)
        if semantics != "torch" and (dtype == np.float64 or (op is opsnn.threshold_backward and dtype == bfloat16
                                                              and semantics == "ascend910b")):
            continue  # not in these semantics' dtype lists
        try:
            expected = op(*args, *scalars, semantics=semantics, backend="reference")
        except TypeError:
            continue
        got = op(*args, *scalars, semantics=semantics)
        np.testing.assert_array_equal(got.view(f"u{dtype.itemsize}"), expected.view(f"u{dtype.itemsize}"))


@needs_c
@pytest.mark.parametrize("dtype", [*HALVES, *(np.dtype(t) for t in (np.int8, np.uint8, np.int16))], ids=str)
@pytest.mark.parametrize("layout", ["contiguous", "strided", "feature"])
def test_narrow_operands_into_float32_are_widened_exactly(dtype, layout):
    """torch's promotion of a float16 / bfloat16 / int8 / uint8 / int16 operand with float32: the
    engine widens it itself (every bit pattern, each four times against other values: subnormals,
    infinities, signalling NaN payloads kept as numpy's cast keeps them)."""
    rng = np.random.default_rng(5)
    values = ALL16.view(dtype) if dtype.itemsize == 2 else np.arange(256, dtype=np.uint8).view(dtype)
    values = np.tile(values, 4)
    wide = rng.standard_normal(values.size).astype(np.float32) * 200
    if layout == "strided":
        values = np.repeat(values, 2)[::2]
    grad, feature = (wide, values) if layout == "feature" else (values, wide)
    for threshold in (0.25, -100.0):
        got = opsnn.threshold_backward(grad, feature, threshold)
        expected = opsnn.threshold_backward(grad, feature, threshold, backend="reference")
        assert got.dtype == np.float32
        np.testing.assert_array_equal(got.view(np.uint32), expected.view(np.uint32))


@needs_c
def test_torch_bfloat16_leaky_relu_backward_into_one_of_its_inputs():
    """out = grad or x: the NaN fix-up reads them again, so these calls take the reference's way."""
    g = ALL16.copy().view(bfloat16)
    x = ALL16[::-1].copy().view(bfloat16)
    expected = opsnn.leaky_relu_backward(g, x, 0.0, backend="reference")
    for target in ("grad", "x"):
        gg, xx = g.copy(), x.copy()
        out = gg if target == "grad" else xx
        assert opsnn.leaky_relu_backward(gg, xx, 0.0, out=out) is out
        np.testing.assert_array_equal(out.view(np.uint16), expected.view(np.uint16))


@pytest.mark.parametrize("dtype", [F16, bfloat16, np.dtype(np.float32), np.dtype(np.float64)], ids=str)
def test_has_nan_on_every_float_layout(dtype):
    """lanes.has_nan: the engine's pass (C-contiguous) and numpy's (strided) agree with np.isnan."""
    a = np.linspace(-3, 3, 1001).astype(dtype)
    for view in (a, a[::3], a[::-1]):
        assert not lanes.has_nan(view)
    for position in (0, 500, 1000):
        b = a.copy()
        b[position] = np.nan
        assert lanes.has_nan(b) and lanes.has_nan(b[::-1])
        assert bool(lanes.has_nan(b[1::2])) == bool(position % 2)
    assert not lanes.has_nan(np.arange(10)) and not lanes.has_nan(np.ones(3, bool)) and not lanes.has_nan(a[:0])
