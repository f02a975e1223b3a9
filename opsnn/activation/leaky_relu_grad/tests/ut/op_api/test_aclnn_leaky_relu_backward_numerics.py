"""aclnnLeakyReluBackward end to end (both phases, a synchronize, the result read back) against the
functional models, bit for bit: each SoC's kernel, promotion, broadcasting, strided in and out,
casts to out's dtype, float64 through AiCpu; and the example's numbers."""
import numpy as np
import pytest

from opsnn import acl
from opsnn.activation.leaky_relu_grad import functional_models as fm
from opsnn.dtypes import bfloat16

from .harness import bits

SOC_FAMILY = {"Ascend910B2": "ascend910b", "Ascend950": "ascend950"}
VALUES = np.array([3.0, -2.5, 0.0, -0.0, 1e-3, -7.0, np.inf, -np.inf, np.nan, 65504.0, 1e-7, -1e-7], np.float64)


def data(rng, shape, dtype):
    with np.errstate(over="ignore"):
        return (rng.choice(VALUES, shape) * rng.uniform(0.5, 1.5, shape)).astype(dtype)


def family(dev) -> str:
    return SOC_FAMILY[dev.runtime.get_soc_name()]


def expected(g, x, slope, fam, out_dtype):
    p = fm.promote_type(g.dtype, x.dtype)
    r = fm.leaky_relu_grad(g.astype(p), x.astype(p), slope, fam)
    with np.errstate(over="ignore", invalid="ignore"):
        return r.astype(out_dtype)


@pytest.mark.parametrize("dtype", [np.float16, bfloat16, np.float32, np.float64])
@pytest.mark.parametrize("shapes", [((6, 40), (6, 40)), ((4, 1, 16), (1, 8, 16)), ((), (5,)), ((33,), ())])
def test_against_the_models(any_dev, dtype, shapes):
    rng = np.random.default_rng(7)
    g, x = data(rng, shapes[0], dtype), data(rng, shapes[1], dtype)
    shape = np.broadcast_shapes(*shapes)
    for slope, code in ((0.01, acl.ACL_FLOAT), (-3.0, acl.ACL_DOUBLE), (0, acl.ACL_INT64), (7e4, acl.ACL_FLOAT)):
        out = any_dev.empty(shape, dtype)
        assert any_dev.leaky_relu_backward(any_dev.tensor(g), any_dev.tensor(x), any_dev.scalar(slope, code), False,
                                           out) == 0
        want = expected(g, x, slope, family(any_dev), dtype)
        np.testing.assert_array_equal(bits(any_dev.read(out)), bits(want))


@pytest.mark.parametrize("a, b, out_dtype", [(np.float16, bfloat16, np.float32), (bfloat16, np.float32, np.float16),
                                             (np.float16, np.float64, np.float64), (np.float32, np.float32, bfloat16),
                                             (np.float32, np.float16, np.complex64)])
def test_promotion_and_cast_to_out(any_dev, a, b, out_dtype):
    rng = np.random.default_rng(3)
    g, x = data(rng, (50,), a), data(rng, (50,), b)
    out = any_dev.empty((50,), out_dtype)
    assert any_dev.leaky_relu_backward(any_dev.tensor(g), any_dev.tensor(x), any_dev.scalar(0.3), False, out) == 0
    want = expected(g, x, 0.3, family(any_dev), np.float64 if out_dtype == np.complex64 else out_dtype)
    got = any_dev.read(out)
    if out_dtype == np.complex64:
        np.testing.assert_array_equal(got.real, want.astype(np.float32))
        assert not got.imag.any()
    else:
        np.testing.assert_array_equal(bits(got), bits(want))


def test_strided_inputs_and_out(any_dev):
    rng = np.random.default_rng(5)
    storage = data(rng, (200,), np.float32)
    g = any_dev.strided(storage, (4, 5), (1, 8), 3)  # a transposed-like view
    x_host = data(rng, (4, 5), np.float32)
    out_storage = np.full(60, 99.0, np.float32)
    out = any_dev.strided(out_storage, (4, 5), (15, 3), 0)
    assert any_dev.leaky_relu_backward(g, any_dev.tensor(x_host), any_dev.scalar(0.5), True, out) == 0
    g_host = np.lib.stride_tricks.as_strided(storage[3:], (4, 5), (4, 32))
    want = fm.leaky_relu_grad(np.ascontiguousarray(g_host), x_host, 0.5, family(any_dev))
    np.testing.assert_array_equal(bits(any_dev.read(out)), bits(want))
    rest = any_dev.read_storage(out).copy()
    rest[np.arange(4)[:, None] * 15 + np.arange(5) * 3] = 99.0
    assert (rest == 99.0).all()  # ViewCopy wrote the view and nothing else


def test_socs_differ_for_fp16_only_in_the_slope_rounding(dev, dev950):
    g = np.array([1.0, 3.0, -5.0, 7.0, 1000.0], np.float16)
    x = np.full(5, -1.0, np.float16)
    slope = 0.1  # not a half: 910B multiplies by 0.0999755859375
    got = {}
    for d in (dev, dev950):
        out = d.empty((5,), np.float16)
        assert d.leaky_relu_backward(d.tensor(g), d.tensor(x), d.scalar(slope), False, out) == 0
        got[family(d)] = d.read(out)
    np.testing.assert_array_equal(got["ascend950"], (g.astype(np.float32) * np.float32(slope)).astype(np.float16))
    np.testing.assert_array_equal(got["ascend910b"], g * np.float16(slope))
    assert (got["ascend950"] != got["ascend910b"]).any()


def test_the_example(any_dev):
    out = any_dev.empty((4,), np.float32)
    assert any_dev.leaky_relu_backward(any_dev.tensor(np.array([2, 3, 4, 5], np.float32)),
                                       any_dev.tensor(np.array([1, 2, 3, 4], np.float32)),
                                       any_dev.scalar(0.01), True, out) == 0
    assert [f"{v:f}" for v in any_dev.read(out)] == ["2.000000", "3.000000", "4.000000", "5.000000"]


def test_the_arch35_kernel_runs_under_the_sanitizer(dev950):
    """Phase 1 records the arch35 launch: the executor's step is the emulated kernel."""
    g, x = np.ones((8, 16), np.float16), -np.ones((16,), np.float16)
    ws, executor, ret = dev950.phase1(dev950.tensor(g), dev950.tensor(x), dev950.scalar(0.25), False,
                                      dev950.empty((8, 16), np.float16))
    assert ret == 0 and ws >= 16 * 2**20  # the 16 MiB tiling workspace
    assert [type(s).__name__ for s in executor.steps].count("KernelLaunchStep") == 1
