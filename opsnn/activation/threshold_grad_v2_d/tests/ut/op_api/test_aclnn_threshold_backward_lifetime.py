"""Phase 2 refuses what is not its own (docs/threshold-grad-v2d.md §8): an executor from before a
finalize, one planned on another runtime, arguments of the wrong type; and a plan no uint64
workspaceSize can state is refused alike on every SoC."""
import numpy as np
import pytest

from opsnn import acl, aclnn

F32 = np.float32
HUGE = acl.ACL_MEM_MALLOC_HUGE_FIRST
API = "aclnnThresholdBackward: "


def _start(runtime: acl.Runtime, soc: str = "Ascend910B2") -> list[int]:
    """init + set_device, then three 4000-byte buffers (grad, feature, out: 1000 float32 each)."""
    assert runtime.init(soc) == 0 and runtime.set_device(0) == 0
    ptrs = []
    for fill in (3.0, 2.0, -1.0):
        host = np.full(1000, fill, F32)
        ptr, ret = runtime.malloc(host.nbytes, HUGE)
        assert ret == 0 and runtime.memcpy(ptr, host.nbytes, acl.util.numpy_to_ptr(host), host.nbytes,
                                           acl.ACL_MEMCPY_HOST_TO_DEVICE) == 0
        ptrs.append(ptr)
    return ptrs


def _phase1(ptrs: list[int]):
    tensors = [acl.create_tensor((1000,), acl.ACL_FLOAT, None, 0, acl.ACL_FORMAT_ND, (1000,), p) for p in ptrs]
    ws, executor, ret = aclnn.threshold_backward_get_workspace_size(
        tensors[0], tensors[1], acl.create_scalar(0.5, acl.ACL_FLOAT), tensors[2])
    assert ret == 0, aclnn.get_recent_err_msg()
    return ws, executor


def _read(runtime: acl.Runtime, ptr: int) -> np.ndarray:
    host = np.zeros(1000, F32)
    assert runtime.memcpy(acl.util.numpy_to_ptr(host), host.nbytes, ptr, host.nbytes,
                          acl.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    return host


def _stop(runtime: acl.Runtime, ptrs: list[int]) -> None:
    for ptr in ptrs:
        assert runtime.free(ptr) == 0
    assert runtime.reset_device(0) == 0 and runtime.finalize() == 0 and runtime.leak_report == []


def test_phase2_after_finalize_says_not_initialized():
    runtime = acl.Runtime()
    ptrs = _start(runtime)
    ws, executor = _phase1(ptrs)
    _stop(runtime, ptrs)
    assert aclnn.threshold_backward(0, ws, executor, None) == aclnn.ACLNN_ERR_RUNTIME_ERROR
    assert aclnn.get_recent_err_msg() == (
        API + "the executor's runtime is not initialized (acl.finalize was called; acl status 100001 "
        "ACL_ERROR_UNINITIALIZE)")


def test_an_executor_from_before_finalize_never_runs_on_the_next_init():
    runtime = acl.Runtime()
    old = _start(runtime)
    ws, executor = _phase1(old)
    _stop(runtime, old)
    new = _start(runtime)  # the same runtime object, initialized again: its memory is another arena
    assert not set(new) & set(old)
    workspace, ret = runtime.malloc(ws, HUGE)
    assert ret == 0
    assert aclnn.threshold_backward(workspace, ws, executor, None) == aclnn.ACLNN_ERR_INNER_NULLPTR
    assert aclnn.get_recent_err_msg() == (
        API + "the executor was planned before its runtime's last acl.finalize and died with it "
        "(call phase 1 again)")
    assert runtime.synchronize_stream(None) == 0
    np.testing.assert_array_equal(_read(runtime, new[2]), np.full(1000, -1.0, F32))  # untouched
    _stop(runtime, new + [workspace])


@pytest.mark.parametrize("stream_of", ["B", None])
def test_an_executor_runs_only_on_its_own_runtime(stream_of):
    a, b = acl.Runtime(), acl.Runtime()
    a_ptrs = _start(a)
    a_context, _ = acl.rt.get_context()
    ws, executor = _phase1(a_ptrs)
    b_ptrs = _start(b)  # this thread's device is now b's
    b_stream, ret = b.create_stream()
    workspace, _ = b.malloc(ws, HUGE)
    stream = b_stream if stream_of == "B" else None
    assert aclnn.threshold_backward(workspace, ws, executor, stream) == aclnn.ACLNN_ERR_RUNTIME_ERROR
    where = "the stream" if stream_of == "B" else "this thread's device"
    assert aclnn.get_recent_err_msg() == (
        API + f"the executor was planned on another runtime than {where} belongs to; an executor runs on "
        "the runtime of its phase 1")
    assert b.synchronize_stream(b_stream) == 0
    np.testing.assert_array_equal(_read(b, b_ptrs[2]), np.full(1000, -1.0, F32))  # b's buffer untouched
    assert b.destroy_stream(b_stream) == 0
    _stop(b, b_ptrs + [workspace])
    assert acl.rt.set_context(a_context) == 0
    np.testing.assert_array_equal(_read(a, a_ptrs[2]), np.full(1000, -1.0, F32))
    _stop(a, a_ptrs)


@pytest.mark.parametrize(("workspace", "workspace_size", "message"), [
    ("0x10", None, "workspace must be a device pointer (an unsigned 64-bit integer) or None, got '0x10'"),
    ([1], None, "workspace must be a device pointer (an unsigned 64-bit integer) or None, got [1]"),
    (1.5, None, "workspace must be a device pointer (an unsigned 64-bit integer) or None, got 1.5"),
    (-1, None, "workspace must be a device pointer (an unsigned 64-bit integer) or None, got -1"),
    (None, "big", "workspace_size must be an unsigned 64-bit integer, got 'big'"),
    (None, 1e12, "workspace_size must be an unsigned 64-bit integer, got 1000000000000.0"),
    (None, -1, "workspace_size must be an unsigned 64-bit integer, got -1"),
    (None, 2**64, "workspace_size must be an unsigned 64-bit integer, got 18446744073709551616"),
    (None, [1], "workspace_size must be an unsigned 64-bit integer, got [1]"),
])
def test_phase2_arguments_of_the_wrong_type_are_161002(dev, workspace, workspace_size, message):
    g, f, out = dev.empty(4, F32, 3.0), dev.empty(4, F32, 2.0), dev.empty(4, F32, -1.0)
    ws, executor, ret = aclnn.threshold_backward_get_workspace_size(g, f, dev.scalar(0.5), out)
    assert ret == 0
    size = ws if workspace_size is None else workspace_size
    assert aclnn.threshold_backward(workspace, size, executor, dev.stream) == aclnn.ACLNN_ERR_PARAM_INVALID
    assert aclnn.get_recent_err_msg() == API + message
    assert dev.runtime.synchronize_stream(dev.stream) == 0
    np.testing.assert_array_equal(dev.read(out), np.full(4, -1.0, F32))


def test_a_workspace_no_uint64_can_state_is_561002_on_every_soc(dev, dev950):
    """A stride-0 view claiming 2**80 elements on a 24-byte allocation: its contiguous copy alone
    would need 4 * 2**80 bytes."""
    for d in (dev, dev950):
        d.use()
        t = [acl.create_tensor((2**40, 2**40), acl.ACL_FLOAT, (0, 0), 0, acl.ACL_FORMAT_ND, (6,), d.malloc(24))
             for _ in range(3)]
        ws, executor, ret = aclnn.threshold_backward_get_workspace_size(t[0], t[1], d.scalar(0.5), t[2])
        assert (ws, executor, ret) == (0, None, aclnn.ACLNN_ERR_INNER_TILING)
        assert aclnn.get_recent_error().kind == "tiling"
        assert aclnn.get_recent_err_msg() == (
            API + f"workspace of {4 * 2**80} bytes with Contiguous ({4 * 2**80} bytes) does not fit the uint64 "
            "workspaceSize")


def test_tensors_of_another_runtime_fault_the_stream_instead_of_naming_its_memory():
    """Each init's memory starts at its own base: A's pointers are nothing on B, so work planned on
    B with A's tensors faults at synchronize and writes no byte of B's."""
    a, b = acl.Runtime(), acl.Runtime()
    a_ptrs = _start(a)
    a_context, _ = acl.rt.get_context()
    b_ptrs = _start(b)
    ws, executor = _phase1(a_ptrs)  # planned on b (this thread's device) with a's addresses
    workspace, _ = b.malloc(ws, HUGE)
    assert aclnn.threshold_backward(workspace, ws, executor, None) == 0
    assert b.synchronize_stream(None) == acl.ACL_ERROR_RT_AICORE_EXCEPTION
    assert "is not inside one live allocation" in acl.get_recent_err_msg()
    for ptr, fill in zip(b_ptrs, (3.0, 2.0, -1.0), strict=True):
        np.testing.assert_array_equal(_read(b, ptr), np.full(1000, fill, F32))
    _stop(b, b_ptrs + [workspace])
    assert acl.rt.set_context(a_context) == 0
    _stop(a, a_ptrs)
