"""sigmoid_backward on complex operands (issue 35 item 16). Ascend semantics (the AICPU model):
the same bits whatever the operands' layout, chunking or backend, NaNs included. Torch semantics:
torch's dtypes (complex with bfloat16, an integer or bool; a 0-d operand's category rule), its
vectorised body bit for bit, and its scalar loops within the documented bound (docs/sigmoid-grad.md)."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import opsnn
from opsnn.dtypes import bfloat16
from opsnn.op_common.torch_loops import torch_vector_mask

C64, C128 = np.dtype(np.complex64), np.dtype(np.complex128)
SPECIALS = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0])


def _values(rng, shape, dtype, special=True):
    v = rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4, shape) + 1j * rng.standard_normal(shape)
    if special:
        for part in (v.real, v.imag):
            pick = rng.random(shape) < 0.2
            part[pick] = SPECIALS[rng.integers(0, SPECIALS.size, int(pick.sum()))]
    return v.astype(dtype)


def _bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a).view(np.uint32 if a.dtype == C64 else np.uint64)


@pytest.mark.parametrize("dtype", [C64, C128])
@pytest.mark.parametrize("semantics", ["ascend910b", "ascend950"])
@pytest.mark.parametrize("seed", [7, 8, 9])
def test_ascend_complex_bits_do_not_depend_on_the_layout(dtype, semantics, seed):
    rng = np.random.default_rng(seed)
    g, y = _values(rng, (6, 40), dtype), _values(rng, (6, 40), dtype)
    want = _bits(opsnn.sigmoid_backward(g, y, semantics=semantics, backend="reference"))
    for name, got in {
        "fortran": opsnn.sigmoid_backward(np.asfortranarray(g), np.asfortranarray(y), semantics=semantics),
        "strided": opsnn.sigmoid_backward(np.repeat(g, 2, axis=1)[:, ::2], y, semantics=semantics),
        "rows": np.stack([opsnn.sigmoid_backward(g[i], y[i], semantics=semantics) for i in range(6)]),
        "0-d": np.array([[opsnn.sigmoid_backward(g[i, j], y[i, j], semantics=semantics) for j in range(40)]
                         for i in range(6)]),
        "emulator": opsnn.sigmoid_backward(g, y, semantics=semantics, backend="emulator"),
    }.items():
        assert (_bits(got) == want).all(), name


def test_ascend_complex_nan_rule():
    """A NaN component takes grad's NaN (real part first), else y's, else the default NaN."""
    nan = np.float32(np.nan).view(np.uint32)
    payload = np.uint32(0x7FC0_1234).view(np.float32)
    g = np.array([complex(payload, 1)], C64)
    y = np.array([complex(np.nan, 2)], C64)
    r = opsnn.sigmoid_backward(g, y, semantics="ascend950")
    assert r.view(np.uint32).tolist() == [0x7FC0_1234, 0x7FC0_1234]
    r = opsnn.sigmoid_backward(np.array([1 + 1j], C64), np.array([complex(np.inf, 0)], C64), semantics="ascend950")
    assert (r.view(np.uint32) == 0xFFC0_0000).all() and nan  # inf - inf: the default NaN


def test_torch_complex_dtypes_are_torchs():
    torch = pytest.importorskip("torch")
    for other in (bfloat16, np.dtype(np.int32), np.dtype(np.bool_), np.dtype(np.float64)):
        for g_dtype, y_dtype in ((C64, other), (other, C64)):
            g, y = np.ones(3, g_dtype), np.ones(3, y_dtype)
            got = opsnn.sigmoid_backward(g, y)
            tg, ty = (torch.ones(3, dtype={bfloat16: torch.bfloat16}.get(d) or getattr(torch, np.dtype(d).name))
                      for d in (g_dtype, y_dtype))
            assert str(got.dtype) == str(torch.ops.aten.sigmoid_backward(tg, ty).dtype).removeprefix("torch.")
    zero_d = opsnn.sigmoid_backward(np.array(1 + 1j, C128), np.ones(3, C64))
    assert zero_d.dtype == C64  # torch.result_type: the dimensioned complex64
    with pytest.raises(TypeError, match="complex32"):
        opsnn.sigmoid_backward(np.ones(3, np.float16), np.array(1j, C64))


@pytest.mark.parametrize("dtype", [C64, C128])
def test_torch_complex_values(dtype):
    """Bit for bit with torch where its vectorised body computes; within 8 eps |g| |1 - y| |y|
    per component in its scalar loops (fused multiply-adds there); NaN where torch has NaN."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(11)
    for n, layout in itertools.product((2, 45, 300), ("c", "strided")):
        g, y = _values(rng, n, dtype), _values(rng, n, dtype)
        if layout == "strided":
            wide = np.zeros(2 * n, dtype)
            wide[::2] = g
            g = wide[::2]
        want = torch.ops.aten.sigmoid_backward(torch.from_numpy(g), torch.from_numpy(y)).numpy()
        got = opsnn.sigmoid_backward(g, y)
        vector = torch_vector_mask((g, y), dtype, dtype.itemsize // 2)
        real = np.dtype(np.float32 if dtype == C64 else np.float64)
        with np.errstate(all="ignore"):
            wide_g, wide_y = g.astype(C128), y.astype(C128)
            bound = 8 * np.finfo(real).eps * np.abs(wide_g) * np.abs(1 - wide_y) * np.abs(wide_y)
        for part in ("real", "imag"):
            a, b = getattr(got, part), getattr(want, part)
            assert (np.isnan(a) == np.isnan(b)).all() and (np.isinf(a) == np.isinf(b)).all()
            finite = np.isfinite(a)
            same = a.view(f"u{real.itemsize}") == b.view(f"u{real.itemsize}")
            assert (same | np.isnan(a))[vector].all(), (n, layout, part)
            assert (np.abs(a[finite] - b[finite]) <= bound[finite]).all(), (n, layout, part)


def test_ascend_complex_is_the_textbook_product():
    """conj((1 - y) * y) * dy with each product (ac - bd) + (ad + bc)i rounded product by product
    (the documented AICPU model), checked element by element with numpy's float32 scalars, for
    values where a fused multiply-add (numpy's SIMD complex multiply uses one) rounds otherwise."""
    rng = np.random.default_rng(3)
    g, y = _values(rng, 257, C64, special=False), _values(rng, 257, C64, special=False)
    got = opsnn.sigmoid_backward(g, y, semantics="ascend950")
    f = np.float32

    def product(a, b, c, d):
        return f(f(a * c) - f(b * d)), f(f(a * d) + f(b * c))
    for i in range(g.size):
        yr, yi = f(y[i].real), f(y[i].imag)
        tr, ti = product(f(f(1) - yr), -yi, yr, yi)
        want = product(tr, -ti, f(g[i].real), f(g[i].imag))  # conj(t) * g
        assert (got[i].real.view(np.uint32), got[i].imag.view(np.uint32)) == \
               (want[0].view(np.uint32), want[1].view(np.uint32)), i


@pytest.mark.parametrize("semantics", ["torch", "ascend950"])
def test_dask_chunks_give_the_whole_arrays_bits(semantics):
    """NaN components included (fuzz seed 3901 case 85: one byte of a chunked complex64 call)."""
    da = pytest.importorskip("dask.array")
    import opsnn.dask
    rng = np.random.default_rng(4)
    g, y = _values(rng, (31, 9), C64), _values(rng, (31, 1), C64)
    whole = opsnn.sigmoid_backward(g, y, semantics=semantics)
    chunked = opsnn.dask.sigmoid_backward(da.from_array(g, chunks=(8, 4)), da.from_array(y, chunks=(16, 1)),
                                          semantics=semantics).compute()
    assert (_bits(chunked) == _bits(whole)).all()
