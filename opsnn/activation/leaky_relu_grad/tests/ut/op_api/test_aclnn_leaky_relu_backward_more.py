"""The rest of aclnnLeakyReluBackward: a private format (upstream's NC1HWC0 case, read as ND with
a warning), phase 2's framework statuses, many threads on both SoCs at once, and the generic torch
surface the declaration gives (torch.ops.opsnn.leaky_relu_backward)."""
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from opsnn import acl, aclnn
from opsnn.acl.tensor import AclFormatWarning
from opsnn.aclnn import status as st
from opsnn.activation.leaky_relu_grad import functional_models as fm

from .harness import Device, bits


def test_nc1hwc0_is_read_as_nd(any_dev):
    shape = (1, 2, 3, 4, 16)
    tensors = []
    for fill in (2.0, -1.0, 0.0):
        ptr = any_dev.upload_storage(np.full(shape, fill, np.float16))
        with pytest.warns(AclFormatWarning):
            tensors.append(acl.create_tensor(shape, acl.ACL_FLOAT16, None, 0, acl.ACL_FORMAT_NC1HWC0, shape, ptr))
        any_dev._objects.append(tensors[-1])
    assert any_dev.leaky_relu_backward(*tensors[:2], any_dev.scalar(0.5), False, tensors[2]) == 0
    assert (any_dev.read(tensors[2]) == 1.0).all()


def test_phase2_statuses(any_dev):
    g = any_dev.tensor(np.ones(4, np.float32))
    out = any_dev.empty((4,), np.float32)
    ws, executor, ret = any_dev.phase1(g, g, any_dev.scalar(0.1), False, out)
    assert ret == 0
    assert aclnn.leaky_relu_backward(0, ws, None, any_dev.stream) == st.ACLNN_ERR_PARAM_NULLPTR
    workspace = any_dev.malloc(ws)
    assert aclnn.leaky_relu_backward(workspace, ws, executor, any_dev.stream) == 0
    assert aclnn.leaky_relu_backward(workspace, ws, executor, any_dev.stream) == st.ACLNN_ERR_INNER_NULLPTR  # run once
    assert any_dev.runtime.synchronize_stream(any_dev.stream) == 0
    ws, executor, ret = any_dev.phase1(g, g, any_dev.scalar(0.1), False, out)
    if ws:
        assert aclnn.leaky_relu_backward(0, ws - 1, executor, any_dev.stream) == st.ACLNN_ERR_RUNTIME_ERROR


def _one(i: int) -> bool:
    soc = ("Ascend950", "Ascend910B2")[i % 2]
    dev = Device(soc)
    try:
        rng = np.random.default_rng(i)
        dtype = (np.float16, np.float32, np.float64, np.float16)[i % 4]
        g = rng.standard_normal((7, 100 + i)).astype(dtype)
        x = rng.standard_normal((100 + i,)).astype(dtype)
        out = dev.empty(g.shape, dtype)
        slope = 0.1 * i - 0.5
        assert dev.leaky_relu_backward(dev.tensor(g), dev.tensor(x), dev.scalar(slope, acl.ACL_DOUBLE), False,
                                       out) == 0
        want = fm.leaky_relu_grad(g, x, slope, "ascend950" if soc == "Ascend950" else "ascend910b")
        return bool((bits(dev.read(out)) == bits(want)).all())
    finally:
        assert dev.close() == []


def test_concurrent_calls_on_both_socs():
    with ThreadPoolExecutor(4) as pool:
        assert all(pool.map(_one, range(12)))


def test_torch_surface():
    torch = pytest.importorskip("torch")
    from torch.library import opcheck

    import opsnn.torch  # noqa: F401 - registers torch.ops.opsnn.<numpy_api> for every declared operator

    g = torch.tensor([1.0, -2.0, 3.0, float("inf")], dtype=torch.float16)
    x = torch.tensor([1.0, -1.0, 0.0, -0.0], dtype=torch.float16)
    want = torch.ops.aten.leaky_relu_backward(g, x, 0.1, False)
    assert torch.equal(torch.ops.opsnn.leaky_relu_backward(g, x, 0.1, False), want)
    got = torch.ops.opsnn.leaky_relu_backward(g, x, 0.1, False, "ascend910b")
    assert got[2].item() != want[2].item()  # the 910B multiplies by half(0.1)
    gg = torch.randn(5, requires_grad=True)
    result = opcheck(torch.ops.opsnn.leaky_relu_backward.default, (gg, torch.randn(5), 0.2, False))
    assert set(result.values()) == {"SUCCESS"}
