"""issue 27, "torch semantics: bits the docs promise": departures the differential fuzz found, each
checked against torch 2.13 CPU (the oracle) through the numpy API and torch.ops.opsnn."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import opsnn

torch = pytest.importorskip("torch")
ot = pytest.importorskip("opsnn.torch")
aten = torch.ops.aten
ARGS = {"threshold_backward": (2,), "leaky_relu_backward": (0.5, False), "hardtanh_backward": (1.0, 3.0)}
NUMPY_ARGS = {"threshold_backward": (2,), "leaky_relu_backward": (0.5,), "hardtanh_backward": (1.0, 3.0)}


def bits(a) -> np.ndarray:
    a = ot.to_numpy(a) if isinstance(a, torch.Tensor) else np.asarray(a)
    return a.view(f"u{a.dtype.itemsize}")


def assert_torch_bits(op, g, x):
    expected = getattr(aten, op)(g, x, *ARGS[op])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy RuntimeWarning may reach the caller
        got = getattr(opsnn, op)(ot.to_numpy(g), ot.to_numpy(x), *NUMPY_ARGS[op])
    assert np.asarray(got).dtype == ot.to_numpy(expected).dtype
    np.testing.assert_array_equal(bits(got), bits(expected))
    np.testing.assert_array_equal(bits(getattr(torch.ops.opsnn, op)(g, x, *ARGS[op])), bits(expected))


@pytest.mark.parametrize("op", list(ARGS))
@pytest.mark.parametrize("unsigned", [torch.uint16, torch.uint32, torch.uint64])
@pytest.mark.parametrize("floating", [torch.float16, torch.bfloat16, torch.float32, torch.float64])
@pytest.mark.parametrize("shapes", [((6,), (6,)), ((6,), ()), ((), (6,))])
def test_wide_unsigned_with_a_floating_operand_promotes_as_torch(op, unsigned, floating, shapes):
    """uint16 + float64 -> float64, uint16 + float16 -> float16 (65535: inf), either operand, 0-d too
    (opsnn raised TypeError for all three operators)."""
    u = torch.tensor([0, 1, 2, 3, 60000, 65535]).to(unsigned)
    f = torch.tensor([-2.0, -1, 0, 1, 2, float("nan")]).to(floating)
    u = u.reshape(shapes[0]) if shapes[0] else u[5]
    f = f.reshape(shapes[1]) if shapes[1] else f[3]
    assert_torch_bits(op, f, u)
    assert_torch_bits(op, u, f)


@pytest.mark.parametrize("op", list(ARGS))
@pytest.mark.parametrize("other", [torch.bool, torch.uint8, torch.int32, torch.uint16, torch.uint32])
def test_wide_unsigned_refused_where_torch_refuses(op, other):
    """With bool or another integer type torch does not promote; alone it has no kernel: TypeError
    (torch.ops.opsnn: NotImplementedError, torch's convention)."""
    u, o = torch.tensor([1, 2], dtype=torch.uint16), torch.tensor([1, 0]).to(other)
    with pytest.raises((RuntimeError, NotImplementedError)):
        getattr(aten, op)(o, u, *ARGS[op])
    with pytest.raises(TypeError):
        getattr(opsnn, op)(ot.to_numpy(o), ot.to_numpy(u), *NUMPY_ARGS[op])
    with pytest.raises(NotImplementedError):
        getattr(torch.ops.opsnn, op)(o, u, *ARGS[op])


@pytest.mark.parametrize("n", [5, 31, 37, 40])
@pytest.mark.parametrize("nan", [0x7FC5, 0x7FA5, 0xFFC1])
def test_bfloat16_leaky_kept_nan_grad_in_the_scalar_loop_is_0x7fc0(n, nan):
    """torch's scalar loop (n < 32, each block's tail) goes through float and c10's BFloat16
    rounding: a kept NaN grad comes out 0x7FC0, not its own bits; the vectorised body 0xFFFF."""
    g = torch.full((n,), int(np.uint16(nan).view(np.int16)), dtype=torch.int16).view(torch.bfloat16)
    x = torch.ones(n, dtype=torch.bfloat16)
    assert_torch_bits("leaky_relu_backward", g, x)


@pytest.mark.parametrize("op", list(ARGS))
def test_no_numpy_warning_reaches_the_caller(op):
    """A float32 signalling NaN promoted to float64 ("invalid value encountered in cast") and
    integers beyond 65504 promoted to float16 ("overflow encountered in cast")."""
    snan = torch.tensor([0x7FA00000] * 4, dtype=torch.int32).view(torch.float32)
    big = torch.tensor([70000, 100000, -70000, 5], dtype=torch.int32)
    for g, x in ((torch.ones(4, dtype=torch.float64), snan), (snan, torch.ones(4, dtype=torch.float64)),
                 (big, torch.ones(4, dtype=torch.float16)), (torch.ones(4, dtype=torch.float16), big)):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            getattr(opsnn, op)(ot.to_numpy(g), ot.to_numpy(x), *NUMPY_ARGS[op])
