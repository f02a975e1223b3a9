"""An unchanged model gets the NPU's gradients for the platform's operators too: npu_semantics
intercepts aten.leaky_relu_backward (nn.LeakyReLU) and aten.hardtanh_backward (nn.Hardtanh,
nn.ReLU6) through the declarations alone (opsnn/torch/_generic.py), and the gradients are the
numpy API's under that semantics, bit for bit."""
from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import opsnn  # noqa: E402
import opsnn.torch as ot  # noqa: E402


def _grads(model, x, semantics=None):
    x = x.clone().requires_grad_(True)
    if semantics is None:
        y = model(x)
        y.backward(torch.ones_like(y))
        return x.grad
    with ot.npu_semantics(semantics) as mode:
        y = model(x)
        y.backward(torch.ones_like(y))
    return x.grad, mode.calls


@pytest.mark.parametrize("semantics", ["ascend910b", "ascend950"])
def test_leaky_relu_model(semantics):
    model = torch.nn.LeakyReLU(0.01)
    x = torch.tensor([-3.0, -0.0, 0.0, 2.0, float("nan"), -1e-3], dtype=torch.float16)
    grad, calls = _grads(model, x, semantics)
    assert calls["aten::leaky_relu_backward"] == 1
    ones = np.ones(6, np.float16)
    want = opsnn.leaky_relu_backward(ones, x.numpy(), 0.01, semantics=semantics)
    assert np.array_equal(grad.numpy().view(np.uint16), want.view(np.uint16))


@pytest.mark.parametrize("module", [torch.nn.ReLU6(), torch.nn.Hardtanh(-0.5, 0.8)], ids=["ReLU6", "Hardtanh"])
def test_hardtanh_family_models(module):
    x = torch.tensor([-1.0, -0.5, 0.0, 0.3, 0.8, 6.0, 7.0, float("nan")], dtype=torch.float32)
    grad, calls = _grads(module, x, "ascend950")
    assert calls["aten::hardtanh_backward"] == 1
    lo, hi = (0.0, 6.0) if isinstance(module, torch.nn.ReLU6) else (-0.5, 0.8)
    want = opsnn.hardtanh_backward(np.ones(8, np.float32), x.numpy(), lo, hi, semantics="ascend950")
    assert np.array_equal(grad.numpy().view(np.uint32), want.view(np.uint32))
    assert grad[-1].item() == 1.0  # a NaN input keeps the gradient on the NPU


def test_other_ops_and_semantics_are_torchs():
    x = torch.randn(16)
    assert torch.equal(_grads(torch.nn.LeakyReLU(0.2), x), _grads(torch.nn.LeakyReLU(0.2), x))
    with pytest.raises(ValueError):
        ot.npu_semantics("torch")
