"""Phase 2 (docs/threshold-grad-v2d.md §8): the workspace and what lives in it, single-use executors, streams."""
import numpy as np
import pytest

from opsnn import acl, aclnn
from opsnn.activation.threshold_grad_v2_d import op_kernel

F32 = np.float32
MiB = 1024 * 1024
SYSTEM_WORKSPACE = 16 * MiB


def plan(dev, g, f, t=1.0, out=None):
    g_t = g if isinstance(g, acl.AclTensor) else dev.tensor(g)
    f_t = f if isinstance(f, acl.AclTensor) else dev.tensor(f)
    shape = np.broadcast_shapes(g_t.view_dims, f_t.view_dims)
    out = dev.empty(shape, f_t.numpy_dtype) if out is None else out
    ws, executor, ret = aclnn.threshold_backward_get_workspace_size(g_t, f_t, dev.scalar(t), out)
    assert ret == 0, aclnn.get_recent_err_msg()
    return ws, executor, out


def test_reference_example_workspace_is_output_slot_plus_system_workspace(dev):
    ws, executor, _ = plan(dev, np.ones((2, 2), F32), np.ones((2, 2), F32))
    assert ws == 512 + SYSTEM_WORKSPACE
    assert [s.label for s in executor.plan.slots] == ["ThresholdGradV2D output"]


def test_workspace_counts_every_intermediate_512_aligned(dev):
    g = dev.strided(np.ones(200, F32), (10, 3), (1, 20), 0)  # transposed-ish: needs Contiguous
    f = np.ones((6, 10, 3), F32)  # grad broadcasts to (6, 10, 3)
    ws, executor, _ = plan(dev, g, f)
    slots = executor.plan.slots
    assert [s.label for s in slots] == ["Contiguous", "BroadcastTo", "ThresholdGradV2D output"]
    assert [s.nbytes for s in slots] == [512, 1024, 1024]  # 120, 720 and 720 bytes, rounded up to 512s
    assert all(s.offset % 512 == 0 for s in slots)
    assert ws == 512 + 1024 + 1024 + SYSTEM_WORKSPACE
    assert [s.name for s in executor.steps] == ["Contiguous", "BroadcastTo", "ThresholdGradV2D", "ViewCopy"]


def test_relu_grad_and_950_paths_count_the_system_workspace_too(dev, dev950):
    assert plan(dev, np.ones(4, F32), np.ones(4, F32), t=0.0)[0] == 512 + SYSTEM_WORKSPACE
    assert plan(dev950, np.ones(4, F32), np.ones(4, F32), t=1.0)[0] == 512 + SYSTEM_WORKSPACE


def test_intermediates_live_in_the_workspace(dev, monkeypatch):
    seen = {}
    real = op_kernel.run_kernel

    def spy(**kwargs):
        seen.update(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(op_kernel, "run_kernel", spy)
    g = np.arange(6, dtype=F32).reshape(2, 3)
    f_t = dev.tensor(np.full((1, 3), 2.0, F32))  # broadcast: copied into the workspace
    g_t = dev.tensor(g)  # dense from its first byte: the kernel reads the caller's buffer
    ws, executor, out = plan(dev, g_t, f_t)
    workspace = dev.malloc(ws)
    assert aclnn.threshold_backward(workspace, ws, executor, dev.stream) == 0
    assert seen == {}  # phase 2 only queued the work
    assert dev.runtime.synchronize_stream(dev.stream) == 0
    slots = {s.label: s for s in executor.plan.slots}
    assert seen["input_gradient"].addr == g_t.data_ptr
    assert seen["input_feature"].addr == workspace + slots["BroadcastTo"].offset
    assert seen["output_backprops"].addr == workspace + slots["ThresholdGradV2D output"].offset
    assert seen["output_backprops"].nbytes == 24 and seen["input_feature"].nbytes == 24
    for arg in ("input_feature", "output_backprops"):
        assert workspace <= seen[arg].addr < workspace + ws and (seen[arg].addr - workspace) % 512 == 0
    np.testing.assert_array_equal(dev.read(out), g)


def test_work_runs_at_synchronize(dev):
    ws, executor, out = plan(dev, np.full(4, 3.0, F32), np.full(4, 2.0, F32))
    assert aclnn.threshold_backward(dev.malloc(ws), ws, executor, dev.stream) == 0
    np.testing.assert_array_equal(dev.read(out), [0, 0, 0, 0])  # not yet
    assert dev.runtime.synchronize_stream(dev.stream) == 0
    np.testing.assert_array_equal(dev.read(out), [3, 3, 3, 3])


def test_default_stream(dev):
    ws, executor, out = plan(dev, np.full(4, 3.0, F32), np.full(4, 2.0, F32))
    assert aclnn.threshold_backward(dev.malloc(ws), ws, executor, None) == 0
    assert dev.runtime.synchronize_stream(None) == 0
    np.testing.assert_array_equal(dev.read(out), [3, 3, 3, 3])


def test_executor_runs_once(dev):
    ws, executor, _ = plan(dev, np.ones(4, F32), np.ones(4, F32))
    workspace = dev.malloc(ws)
    assert aclnn.threshold_backward(workspace, ws, executor, dev.stream) == 0
    assert aclnn.threshold_backward(workspace, ws, executor, dev.stream) == aclnn.ACLNN_ERR_INNER_NULLPTR
    assert "already been run" in aclnn.get_recent_err_msg()
    assert dev.runtime.synchronize_stream(dev.stream) == 0


def test_empty_executor_runs_once_too(dev):
    ws, executor, _ = plan(dev, np.ones((0, 2), F32), np.ones((0, 2), F32))
    assert aclnn.threshold_backward(0, ws, executor, dev.stream) == 0
    assert aclnn.threshold_backward(0, ws, executor, dev.stream) == aclnn.ACLNN_ERR_INNER_NULLPTR


def test_workspace_size_below_the_plan(dev):
    ws, executor, _ = plan(dev, np.ones(4, F32), np.ones(4, F32))
    assert aclnn.threshold_backward(dev.malloc(ws), ws - 1, executor, dev.stream) == aclnn.ACLNN_ERR_RUNTIME_ERROR
    assert "smaller than" in aclnn.get_recent_err_msg()


def test_workspace_allocation_smaller_than_its_stated_size(dev):
    ws, executor, out = plan(dev, np.ones(4, F32), np.full(4, 2.0, F32))
    small = dev.malloc(1024)
    assert aclnn.threshold_backward(small, ws, executor, dev.stream) == aclnn.ACLNN_ERR_RUNTIME_ERROR
    assert "does not hold" in aclnn.get_recent_err_msg()
    assert dev.runtime.synchronize_stream(dev.stream) == 0  # nothing was queued
    np.testing.assert_array_equal(dev.read(out), [0, 0, 0, 0])


def test_missing_workspace_and_executor(dev):
    ws, executor, _ = plan(dev, np.ones(4, F32), np.ones(4, F32))
    assert aclnn.threshold_backward(None, ws, executor, dev.stream) == aclnn.ACLNN_ERR_RUNTIME_ERROR
    assert aclnn.threshold_backward(0, 0, None, dev.stream) == aclnn.ACLNN_ERR_PARAM_NULLPTR
    assert "executor is nullptr" in aclnn.get_recent_err_msg()


def test_destroyed_stream(dev):
    ws, executor, _ = plan(dev, np.ones(4, F32), np.ones(4, F32))
    stream, ret = dev.runtime.create_stream()
    assert dev.runtime.destroy_stream(stream) == 0
    assert aclnn.threshold_backward(dev.malloc(ws), ws, executor, stream) == aclnn.ACLNN_ERR_RUNTIME_ERROR
    assert "not a live stream" in aclnn.get_recent_err_msg()


def test_tensors_may_be_destroyed_between_the_phases(dev):
    g_t, f_t = dev.tensor(np.full(4, 3.0, F32)), dev.tensor(np.full(4, 2.0, F32))
    ws, executor, out = plan(dev, g_t, f_t)
    acl.destroy_tensor(g_t)  # the executor holds a snapshot of the description, not the handle
    assert aclnn.threshold_backward(dev.malloc(ws), ws, executor, dev.stream) == 0
    assert dev.runtime.synchronize_stream(dev.stream) == 0
    np.testing.assert_array_equal(dev.read(out), [3, 3, 3, 3])


def test_threshold_belongs_to_its_call(dev):
    g, f = np.full(3, 5.0, F32), np.array([1.0, 2.0, 3.0], F32)
    ws1, ex1, out1 = plan(dev, g, f, t=1.5)
    ws2, ex2, out2 = plan(dev, g, f, t=2.5)
    assert aclnn.threshold_backward(dev.malloc(ws2), ws2, ex2, dev.stream) == 0  # run in the other order
    assert aclnn.threshold_backward(dev.malloc(ws1), ws1, ex1, dev.stream) == 0
    assert dev.runtime.synchronize_stream(dev.stream) == 0
    np.testing.assert_array_equal(dev.read(out1), [0, 5, 5])
    np.testing.assert_array_equal(dev.read(out2), [0, 0, 5])


def test_freed_workspace_faults_the_stream_without_touching_memory(dev):
    ws, executor, out = plan(dev, np.full(4, 3.0, F32), np.full(4, 2.0, F32))
    workspace, ret = dev.runtime.malloc(ws, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    assert aclnn.threshold_backward(workspace, ws, executor, dev.stream) == 0
    assert dev.runtime.free(workspace) == 0
    assert dev.runtime.synchronize_stream(dev.stream) == acl.ACL_ERROR_RT_AICORE_EXCEPTION
    assert "not inside one live allocation" in acl.get_recent_err_msg()
    np.testing.assert_array_equal(dev.read(out), [0, 0, 0, 0])
    assert dev.runtime.synchronize_stream(dev.stream) == 0  # the faulted work is gone


def test_kernel_errors_fault_the_stream(dev, monkeypatch):
    class Report:
        errors = ["[error] gm_write_past_allocation: core 0"]

    monkeypatch.setattr(op_kernel, "run_kernel", lambda **kwargs: Report())
    ws, executor, _ = plan(dev, np.ones(4, F32), np.ones(4, F32))
    assert aclnn.threshold_backward(dev.malloc(ws), ws, executor, dev.stream) == 0
    assert dev.runtime.synchronize_stream(dev.stream) == acl.ACL_ERROR_RT_AICORE_EXCEPTION
    assert "gm_write_past_allocation" in acl.get_recent_err_msg()


def test_missing_kernel_is_561003(dev, monkeypatch):
    from opsnn.op_common import l0_launch

    real_import = l0_launch.importlib.import_module

    def no_kernel(name, *args):
        if name.endswith("threshold_grad_v2_d.op_kernel"):
            raise ImportError("op_kernel is not built")
        return real_import(name, *args)

    monkeypatch.setattr(l0_launch.importlib, "import_module", no_kernel)
    ws, executor, ret = aclnn.threshold_backward_get_workspace_size(
        dev.tensor(np.ones(2, F32)), dev.tensor(np.ones(2, F32)), dev.scalar(1.0), dev.empty(2, F32))
    assert ret == aclnn.ACLNN_ERR_INNER_FIND_KERNEL and "kernel not found" in aclnn.get_recent_err_msg()


@pytest.mark.parametrize("soc", ["Ascend910B1", "Ascend910B3", "Ascend910B4"])
def test_other_910b_socs(soc):
    from .aclnn_harness import Device

    dev = Device(soc)
    try:
        g = np.arange(30000, dtype=F32)
        f = np.where(np.arange(30000) % 3 == 0, F32(0), F32(2))
        out = dev.empty(30000, F32)
        assert dev.threshold_backward(dev.tensor(g), dev.tensor(f), dev.scalar(1.0), out) == 0
        np.testing.assert_array_equal(dev.read(out), np.where(f > 1, g, 0))
    finally:
        assert dev.close() == []
