"""The torch surfaces the platform builds from the declaration (AclnnApi.numpy_api / aten):
torch.ops.opsnn.hardtanh_backward (opcheck clean, autograd) and npu_semantics, under which an
unchanged nn.ReLU6 / nn.Hardtanh model gets the NPU kernels' gradients."""
import numpy as np
import pytest

import opsnn

torch = pytest.importorskip("torch")
opsnn_torch = pytest.importorskip("opsnn.torch")


def test_custom_op_matches_aten_and_passes_opcheck():
    g = torch.tensor([1.0, -2.0, 3.0, 4.0, 5.0])
    x = torch.tensor([-1.0, 0.5, 1.0, float("nan"), 0.0])
    op = torch.ops.opsnn.hardtanh_backward
    got = op(g, x, -1.0, 1.0)
    want = torch.ops.aten.hardtanh_backward(g, x, -1.0, 1.0)
    assert torch.equal(got.view(torch.int32), want.view(torch.int32))
    np.testing.assert_array_equal(op(g, x, -1.0, 1.0, "ascend950").numpy(),
                                  opsnn.hardtanh_backward(g.numpy(), x.numpy(), semantics="ascend950"))
    torch.library.opcheck(op, (g, x, -1.0, 1.0))
    torch.library.opcheck(op, (g.half(), x.half(), 0, 6, "ascend910b"))


def test_custom_op_autograd_is_linear_in_grad():
    g = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    x = torch.tensor([0.0, 2.0, 0.5])
    out = torch.ops.opsnn.hardtanh_backward(g, x, -1.0, 1.0)
    out.backward(torch.tensor([10.0, 20.0, 30.0]))
    np.testing.assert_array_equal(g.grad.numpy(), [10.0, 0.0, 30.0])


@pytest.mark.parametrize("module", [torch.nn.ReLU6(), torch.nn.Hardtanh(-2.0, 2.0)])
def test_npu_semantics_gives_the_npu_gradients(module):
    x = torch.tensor([-3.0, -2.0, 0.5, 2.0, 7.0, 6.0, 0.0], requires_grad=True)
    upstream = torch.tensor([-1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0])
    grads = {}
    for semantics in ("ascend910b", "ascend950"):
        x.grad = None
        with opsnn_torch.npu_semantics(semantics) as mode:
            module(x).backward(upstream)
        assert mode.calls["hardtanh_backward"] >= 1 or sum(mode.calls.values()) >= 1
        grads[semantics] = x.grad.clone()
    lo, hi = (0.0, 6.0) if isinstance(module, torch.nn.ReLU6) else (-2.0, 2.0)
    for semantics, got in grads.items():
        want = opsnn.hardtanh_backward(upstream.numpy(), x.detach().numpy(), lo, hi, semantics=semantics)
        np.testing.assert_array_equal(got.numpy().view(np.uint32), want.view(np.uint32))
    # out of range with a negative gradient: 910B's 0 * grad is -0.0, 950's select +0.0
    assert np.signbit(grads["ascend910b"].numpy()[0]) and not np.signbit(grads["ascend950"].numpy()[0])
