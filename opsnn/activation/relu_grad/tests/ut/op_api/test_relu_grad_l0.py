"""l0 ReluGrad behind aclnnThresholdBackward: at |t| <= FLT_EPSILON on Ascend910B the ReluGrad
kernel is launched (not ThresholdGradV2D), with its tiling and declared padding."""
import numpy as np
import pytest

from opsnn import aclnn
from opsnn.aclnn.steps import KernelLaunchStep
from opsnn.activation.relu_grad import functional_models
from opsnn.activation.threshold_grad_v2_d.tests.ut.op_api.aclnn_harness import Device


@pytest.fixture
def dev():
    d = Device("Ascend910B2")
    yield d
    assert d.close() == []


def _steps(executor):
    return [s for s in executor.steps if isinstance(s, KernelLaunchStep)]


@pytest.mark.parametrize("t,kernel", [(0.0, "ReluGrad"), (1e-7, "ReluGrad"), (-1.1920929e-07, "ReluGrad"),
                                      (1.2e-7, "ThresholdGradV2D")])
def test_which_kernel_runs(dev, t, kernel):
    g = np.array([np.inf, -2.0, 3.0, np.nan] * 100, np.float32)
    f = np.array([0.0, -1.0, 2.0, -3.0] * 100, np.float32)
    out = dev.empty(400, np.float32)
    ws, executor, ret = aclnn.threshold_backward_get_workspace_size(dev.tensor(g), dev.tensor(f), dev.scalar(t), out)
    assert ret == 0 and [s.name for s in _steps(executor)] == [kernel]
    assert aclnn.threshold_backward(dev.malloc(ws), ws, executor, dev.stream) == 0
    assert dev.runtime.synchronize_stream(dev.stream) == 0
    if kernel == "ReluGrad":
        expected = functional_models.relu_grad(g, f)
        np.testing.assert_array_equal(dev.read(out).view(np.uint32), expected.view(np.uint32))
        assert np.isnan(dev.read(out)[0]) and dev.read(out)[1].view(np.uint32) == 0x80000000  # a multiply


def test_padding_is_declared_for_the_last_core_only(dev):
    g = np.ones(100_003, np.float32)
    ws, executor, ret = aclnn.threshold_backward_get_workspace_size(
        dev.tensor(g), dev.tensor(g), dev.scalar(0.0), dev.empty(100_003, np.float32))
    (step,) = _steps(executor)
    assert set(step.padding) == {"gradients", "features", "backprops"}
    (pad,) = step.padding["backprops"]
    assert pad.core == step.block_dim - 1 and pad.offset == 100_003 * 4 and 0 < pad.nbytes < 256
    assert aclnn.threshold_backward(dev.malloc(ws), ws, executor, dev.stream) == 0
    assert dev.runtime.synchronize_stream(dev.stream) == 0


def test_missing_kernel_is_561003(dev, monkeypatch):
    from opsnn.op_common import l0_launch

    real = l0_launch.importlib.import_module
    monkeypatch.setattr(l0_launch.importlib, "import_module",
                        lambda name, *a: (_ for _ in ()).throw(ImportError("gone")) if "relu_grad" in name
                        else real(name, *a))
    g = np.ones(4, np.float32)
    _, _, ret = aclnn.threshold_backward_get_workspace_size(dev.tensor(g), dev.tensor(g), dev.scalar(0.0),
                                                            dev.empty(4, np.float32))
    assert ret == aclnn.ACLNN_ERR_INNER_FIND_KERNEL and "ReluGrad kernel not found" in aclnn.get_recent_err_msg()
