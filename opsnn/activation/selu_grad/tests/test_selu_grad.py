"""SeluGrad at the three layers: tilings, both kernels on the emulator (bit for bit with the
functional models, sanitizer clean), the API (emulator = models, refusals, torch's bits)."""
import numpy as np
import pytest

import opsnn
from opsnn.activation.selu_grad.op_host import selu_grad_tiling
from opsnn.activation.selu_grad.tools import prepare_run
from opsnn.dtypes import bfloat16
from opsnn.platform import get_platform
from opsnn.registry import ToolRequest


def _bits(a):
    return np.asarray(a).view(f"u{np.asarray(a).dtype.itemsize}")


def test_tiling_910b():
    t = selu_grad_tiling(100_000, "float16", "Ascend910B2")
    assert (t.block_dim, t.tiling_key, t.tiling_data.total_num) == (7, 0, 100_000)
    assert t.tiling_data.block_factor % 256 == 0 and t.tiling_data.ub_factor % 256 == 0
    with pytest.raises(ValueError):
        selu_grad_tiling(10, "int32", "Ascend910B2")


@pytest.mark.parametrize("soc", ["Ascend910B2", "Ascend950"])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
def test_kernel_bit_exact_and_clean(soc, dtype):
    run = prepare_run(ToolRequest(((777,), (777,)), dtype, get_platform(soc)))
    assert not run.launch(sanitize=True).errors
    assert run.mismatches() == []


def test_zero_output_branch_differs_by_scheme():
    g, o = np.float32([2.0, 2.0]), np.float32([0.0, -0.0])
    assert np.all(opsnn.selu_backward(g, o, semantics="ascend910b") == np.float32(2 * np.float32(1.0507009873554805)))
    assert np.all(opsnn.selu_backward(g, o, semantics="ascend950") == np.float32(2 * np.float32(1.7580993408473769)))


@pytest.mark.parametrize("semantics", ["ascend910b", "ascend950"])
def test_emulator_equals_model(semantics):
    rng = np.random.default_rng(3)
    for dt in (np.float16, bfloat16, np.float32):
        g, o = rng.standard_normal(41).astype(dt), rng.standard_normal(41).astype(dt)
        o[:3] = [np.nan, 0.0, -np.inf]
        fast = opsnn.selu_backward(g, o, semantics=semantics)
        assert np.array_equal(_bits(fast), _bits(opsnn.selu_backward(g, o, semantics=semantics, backend="emulator")))


def test_refusals():
    with pytest.raises(TypeError):
        opsnn.selu_backward(np.ones(3, np.float16), np.ones(3, np.float32), semantics="ascend910b")
    with pytest.raises(ValueError):
        opsnn.selu_backward(np.ones(3, np.float32), np.ones(4, np.float32), semantics="ascend950")
    with pytest.raises(TypeError):
        opsnn.selu_backward(np.ones(3, np.int32), np.ones(3, np.int32))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_torch_bits(dtype):
    torch = pytest.importorskip("torch")
    from opsnn.torch._convert import from_numpy, to_numpy
    dt = bfloat16 if dtype == "bfloat16" else np.dtype(dtype)
    rng = np.random.default_rng(4)
    g, o = rng.uniform(-3, 3, 301).astype(dt), rng.uniform(-2, 2, 301).astype(dt)
    o[:2] = 0.0
    x = torch.nn.functional.selu(torch.zeros(1))  # noqa: F841 - nn.SELU's constants are torch's
    want = to_numpy(torch.ops.aten.elu_backward(from_numpy(g), 1.6732632423543772848170429916717,
                                                1.0507009873554804934193349852946, 1.0, True, from_numpy(o)))
    assert np.array_equal(_bits(opsnn.selu_backward(g, o)), _bits(want))
