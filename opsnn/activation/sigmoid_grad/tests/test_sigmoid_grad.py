"""SigmoidGrad at the three layers: op_host (tiling), op_kernel (both kernels on the emulator,
bit for bit with the functional models, sanitizer clean), op_api / numpy (aclnn statuses, the
emulator backend equal to the models, torch's bits)."""
import numpy as np
import pytest

import opsnn
from opsnn.activation.sigmoid_grad import functional_models as fm
from opsnn.activation.sigmoid_grad.op_host import sigmoid_grad_tiling
from opsnn.activation.sigmoid_grad.op_host.arch35 import sigmoid_grad_tiling_arch35
from opsnn.activation.sigmoid_grad.tools import prepare_run
from opsnn.dtypes import bfloat16
from opsnn.platform import get_platform
from opsnn.registry import ToolRequest

DTYPES = ("float16", "bfloat16", "float32")


def _bits(a):
    return np.asarray(a).view(f"u{np.asarray(a).dtype.itemsize}")


def test_tiling_910b_and_arch35():
    t = sigmoid_grad_tiling(100_000, "float16", "Ascend910B2")
    d = t.tiling_data
    assert t.block_dim > 1 and d.big_core_data_num - d.small_core_data_num == 128
    with pytest.raises(ValueError):
        sigmoid_grad_tiling(10, "int32", "Ascend910B2")
    a = sigmoid_grad_tiling_arch35([(4, 5)] * 3, ["bfloat16"] * 3, "Ascend950")
    assert a.tiling_key == 2 * 10**14 + 100
    with pytest.raises(ValueError):
        sigmoid_grad_tiling_arch35([(4, 5), (4, 5), (5, 4)], ["float32"] * 3, "Ascend950")


@pytest.mark.parametrize("soc", ["Ascend910B2", "Ascend950"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_kernel_bit_exact_and_clean(soc, dtype):
    run = prepare_run(ToolRequest(((1000,), (1000,)), dtype, get_platform(soc)))
    report = run.launch(sanitize=True)
    assert not report.errors
    assert run.mismatches() == []


def test_kernels_differ_in_association():
    y, dy = np.float32([0.3]), np.float32([0.7000001])
    assert fm.sigmoid_grad_910b(y, dy)[0] == np.float32(0.7000001) * (np.float32(0.7) * np.float32(0.3))


@pytest.mark.parametrize("semantics", ["ascend910b", "ascend950"])
def test_emulator_equals_model(semantics):
    rng = np.random.default_rng(1)
    for dt in (np.float16, bfloat16, np.float32, np.float64, np.complex64):
        g = rng.standard_normal(37).astype(dt)
        y = rng.random(37).astype(dt)
        if dt == np.complex64:
            y = (y + 1j * rng.random(37)).astype(dt)
        fast = opsnn.sigmoid_backward(g, y, semantics=semantics)
        emu = opsnn.sigmoid_backward(g, y, semantics=semantics, backend="emulator")
        assert np.array_equal(_bits(fast), _bits(emu)), dt


def test_ascend_refusals_and_promotion():
    with pytest.raises(TypeError):
        opsnn.sigmoid_backward(np.ones(3, np.int32), np.ones(3, np.int32), semantics="ascend910b")
    with pytest.raises(ValueError):
        opsnn.sigmoid_backward(np.ones(3, np.float32), np.ones(4, np.float32), semantics="ascend950")
    r = opsnn.sigmoid_backward(np.ones((2, 1), np.float16), np.full(3, 0.5, np.float32), semantics="ascend910b")
    assert r.dtype == np.float32 and r.shape == (2, 3)


def test_aclnn_statuses_without_device():
    from opsnn.activation.sigmoid_grad.op_api import sigmoid_backward_get_workspace_size
    assert sigmoid_backward_get_workspace_size(None, None, None)[2] == 561101  # the executor first


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_torch_bits(dtype):
    torch = pytest.importorskip("torch")
    from opsnn.torch._convert import from_numpy
    rng = np.random.default_rng(2)
    dt = bfloat16 if dtype == "bfloat16" else np.dtype(dtype)
    g = rng.uniform(-10, 10, 333).astype(dt)
    y = rng.uniform(-1, 2, 333).astype(dt)
    g[:3] = [np.nan, np.inf, -0.0]
    from opsnn.torch._convert import to_numpy
    want = to_numpy(torch.ops.aten.sigmoid_backward(from_numpy(g), from_numpy(y)))
    got = opsnn.sigmoid_backward(g, y)
    assert np.array_equal(_bits(got), _bits(want))  # NaNs too (bfloat16: 0xFFFF from the vectorised body)


@pytest.mark.parametrize("semantics", ["ascend910b", "ascend950"])
def test_float64_nan_bits_do_not_depend_on_the_layout(semantics):
    """AICPU's float64 model: a NaN result is dy's NaN where dy is NaN, else y's, whatever layout
    numpy's loops see (a broadcast operand, a chunk of it). Found by the fuzz's dask surface:
    seed 27506 case 10254, a broadcast (2, 41, 1) x (1, 1707) whose chunks kept the other NaN."""
    dy_nan, y_nan = np.uint64(0xFFFA7C89DD9CB230), np.uint64(0x7FFD7867E7F9DB13)  # both quiet already
    y = np.full((1, 1707), 0.25)
    y[0, 402] = y_nan.view(np.float64)
    dy = np.full((2, 41, 1), 2.0)
    dy[1, 22, 0] = dy_nan.view(np.float64)
    dy[0, 5, 0] = np.nan
    whole = opsnn.sigmoid_backward(dy, y, semantics=semantics)
    chunk = opsnn.sigmoid_backward(dy[1:, 22:33], y, semantics=semantics)
    bits = whole.view(np.uint64)
    assert bits[1, 22, 402] == dy_nan and chunk.view(np.uint64)[0, 0, 402] == dy_nan  # both NaN: dy's
    assert bits[1, 22, 0] == dy_nan and bits[0, 0, 402] == y_nan  # one NaN: its own
    assert np.array_equal(bits[1:, 22:33], chunk.view(np.uint64))
    assert bits[0, 5, 7] == np.float64(np.nan).view(np.uint64) | np.uint64(1 << 51)
