"""Phase 1's checks (docs/threshold-grad-v2d.md §8): the upstream op_api cases, every status with its message, and
the order in which the checks run."""
import numpy as np
import pytest

from opsnn import acl, aclnn

F32 = np.float32


def phase1(grad, feature, threshold, out):
    return aclnn.threshold_backward_get_workspace_size(grad, feature, threshold, out)


def assert_refused(result, status, *message_parts):
    ws, executor, ret = result
    assert (ret, ws, executor) == (status, 0, None)
    msg = aclnn.get_recent_err_msg()
    assert msg.startswith("aclnnThresholdBackward: ")
    for part in message_parts:
        assert part in msg, msg


# -- upstream cases ----------------------------------------------------------------------------

def test_int64_on_910b_is_invalid(dev):
    g = dev.tensor(np.ones((2, 3), np.int64))
    f = dev.tensor(np.ones((2, 3), np.int64))
    out = dev.empty((2, 3), np.int64)
    for t in (1.0, 0.0):  # int64 is refused on A2 even on the ReluGrad path
        assert_refused(phase1(g, f, dev.scalar(t), out), aclnn.ACLNN_ERR_PARAM_INVALID,
                       "gradOutput dtype int64 should be in the dtype support list")


def test_grad_int64_self_int32_is_invalid(dev):
    assert_refused(phase1(dev.tensor(np.ones((2, 3), np.int64)), dev.tensor(np.ones((2, 3), np.int32)),
                          dev.scalar(1.0), dev.empty((2, 3), np.int32)),
                   aclnn.ACLNN_ERR_PARAM_INVALID, "int64")


def test_broadcast_grad_2x1_self_2x3(dev):
    g = dev.tensor(np.array([[4.5], [-2.0]], F32))
    f = dev.tensor(np.array([[0.5, 1.0, 1.5], [2.0, -3.0, 7.0]], F32))
    out = dev.empty((2, 3), F32)
    assert dev.threshold_backward(g, f, dev.scalar(1.0), out) == aclnn.ACLNN_SUCCESS
    np.testing.assert_array_equal(dev.read(out), np.array([[0, 0, 4.5], [-2.0, 0, -2.0]], F32))


def test_out_2x4_for_2x1_and_2x3_is_invalid(dev):
    assert_refused(phase1(dev.tensor(np.ones((2, 1), F32)), dev.tensor(np.ones((2, 3), F32)), dev.scalar(1.0),
                          dev.empty((2, 4), F32)),
                   aclnn.ACLNN_ERR_PARAM_INVALID, "out shape [2, 4] should be the broadcast shape", "[2, 3]")


def test_grad_none_is_nullptr(dev):
    assert_refused(phase1(None, dev.tensor(np.ones(2, F32)), dev.scalar(1.0), dev.empty(2, F32)),
                   aclnn.ACLNN_ERR_PARAM_NULLPTR, "gradOutput is nullptr")


def test_empty_2x0_succeeds_with_workspace_0(dev):
    g, f, out = dev.empty((2, 0), F32), dev.empty((2, 0), F32), dev.empty((2, 0), F32)
    ws, executor, ret = phase1(g, f, dev.scalar(1.0), out)
    assert (ret, ws) == (aclnn.ACLNN_SUCCESS, 0) and executor is not None and executor.steps == []
    assert aclnn.threshold_backward(0, 0, executor, dev.stream) == aclnn.ACLNN_SUCCESS
    assert dev.runtime.synchronize_stream(dev.stream) == 0


def test_empty_broadcast_against_size_1(dev):
    ws, _, ret = phase1(dev.empty((2, 0), F32), dev.empty((2, 1), F32), dev.scalar(1.0), dev.empty((2, 0), F32))
    assert (ret, ws) == (aclnn.ACLNN_SUCCESS, 0)


def test_10d_is_invalid(dev):
    shape = (1,) * 10
    assert_refused(phase1(dev.empty(shape, F32), dev.empty(shape, F32), dev.scalar(1.0), dev.empty(shape, F32)),
                   aclnn.ACLNN_ERR_PARAM_INVALID, "gradOutput dim 10 should not be greater than 8")


def test_9d_self_is_invalid(dev):
    assert_refused(phase1(dev.empty((1,), F32), dev.empty((1,) * 9, F32), dev.scalar(1.0),
                          dev.empty((1,) * 9, F32)),
                   aclnn.ACLNN_ERR_PARAM_INVALID, "self dim 9 should not be greater than 8")


def test_int64_at_threshold_0_on_950(dev950):
    g = dev950.tensor(np.array([3, -4, 2**62], np.int64))
    f = dev950.tensor(np.array([1, 1, 5], np.int64))
    out = dev950.empty(3, np.int64)
    assert dev950.threshold_backward(g, f, dev950.scalar(0.0), out) == aclnn.ACLNN_SUCCESS
    np.testing.assert_array_equal(dev950.read(out), [3, -4, 2**62])


def test_int64_at_threshold_1_on_950_is_invalid(dev950):
    g, f, out = (dev950.empty(3, np.int64) for _ in range(3))
    assert_refused(phase1(g, f, dev950.scalar(1.0), out), aclnn.ACLNN_ERR_PARAM_INVALID, "int64")


# -- every other refusal --------------------------------------------------------------------

def test_threshold_none_is_nullptr(dev):
    assert_refused(phase1(dev.empty(2, F32), dev.empty(2, F32), None, dev.empty(2, F32)),
                   aclnn.ACLNN_ERR_PARAM_NULLPTR, "threshold is nullptr")


def test_out_none_is_nullptr(dev):
    assert_refused(phase1(dev.empty(2, F32), dev.empty(2, F32), dev.scalar(1.0), None),
                   aclnn.ACLNN_ERR_PARAM_NULLPTR, "out is nullptr")


def test_self_none_is_nullptr(dev):
    assert_refused(phase1(dev.empty(2, F32), None, dev.scalar(1.0), dev.empty(2, F32)),
                   aclnn.ACLNN_ERR_PARAM_NULLPTR, "self is nullptr")


def test_destroyed_tensor_is_refused_like_nullptr(dev):
    f = dev.empty(2, F32)
    t = acl.create_tensor((2,), acl.ACL_FLOAT, None, 0, acl.ACL_FORMAT_ND, (2,), f.data_ptr)
    assert acl.destroy_tensor(t) == 0
    assert_refused(phase1(t, f, dev.scalar(1.0), dev.empty(2, F32)), aclnn.ACLNN_ERR_PARAM_NULLPTR,
                   "gradOutput has been destroyed")


def test_not_a_tensor_is_invalid(dev):
    assert_refused(phase1(np.ones(2, F32), dev.empty(2, F32), dev.scalar(1.0), dev.empty(2, F32)),
                   aclnn.ACLNN_ERR_PARAM_INVALID, "gradOutput must be an AclTensor")


@pytest.mark.parametrize("dtype", [np.float64, np.int16, np.bool_, np.uint16])
def test_unsupported_dtypes(dev, dtype):
    g, f, out = (dev.empty(2, dtype) for _ in range(3))
    assert_refused(phase1(g, f, dev.scalar(1.0), out), aclnn.ACLNN_ERR_PARAM_INVALID, "dtype support list")


def test_out_dtype_differs(dev):
    assert_refused(phase1(dev.empty(2, F32), dev.empty(2, F32), dev.scalar(1.0), dev.empty(2, np.float16)),
                   aclnn.ACLNN_ERR_PARAM_INVALID, "out dtype float16 should be the same as self dtype float32")


def test_grad_dtype_differs_within_the_list(dev):
    assert_refused(phase1(dev.empty(2, np.float16), dev.empty(2, F32), dev.scalar(1.0), dev.empty(2, F32)),
                   aclnn.ACLNN_ERR_PARAM_INVALID, "gradOutput dtype float16 should be the same as self dtype float32")


def test_not_broadcastable(dev):
    assert_refused(phase1(dev.empty((2, 3), F32), dev.empty((4,), F32), dev.scalar(1.0), dev.empty((2, 3), F32)),
                   aclnn.ACLNN_ERR_PARAM_INVALID, "can not broadcast")


def test_no_device_cannot_create_executor():
    # A thread with no device set: the executor (bound to the device's SoC) cannot be made.
    previous, _ = acl.rt.get_context()
    acl.rt.set_context(None)
    try:
        assert_refused(phase1(None, None, None, None), aclnn.ACLNN_ERR_INNER_CREATE_EXECUTOR, "no device")
    finally:
        acl.rt.set_context(previous)


def test_message_is_per_thread_and_cleared_by_success(dev):
    import threading

    phase1(None, None, dev.scalar(1.0), dev.empty(2, F32))
    assert "gradOutput is nullptr" in aclnn.get_recent_err_msg()
    seen = []
    thread = threading.Thread(target=lambda: seen.append(aclnn.get_recent_err_msg()))
    thread.start()
    thread.join()
    assert seen == [""]
    assert aclnn.get_recent_error().status == aclnn.ACLNN_ERR_PARAM_NULLPTR
    ws, executor, ret = phase1(dev.empty(2, F32), dev.empty(2, F32), dev.scalar(1.0), dev.empty(2, F32))
    assert ret == 0 and aclnn.get_recent_err_msg() == ""
    assert aclnn.threshold_backward(dev.malloc(ws), ws, executor, dev.stream) == 0


# -- the order of the checks ----------------------------------------------------------------

def test_threshold_is_checked_before_out_and_inputs(dev):
    assert_refused(phase1(None, None, None, None), aclnn.ACLNN_ERR_PARAM_NULLPTR, "threshold is nullptr")


def test_out_is_checked_before_inputs(dev):
    assert_refused(phase1(None, None, dev.scalar(1.0), None), aclnn.ACLNN_ERR_PARAM_NULLPTR, "out is nullptr")


def test_nullptr_before_dtype(dev):
    assert_refused(phase1(dev.empty(2, np.float64), None, dev.scalar(1.0), dev.empty(2, np.float64)),
                   aclnn.ACLNN_ERR_PARAM_NULLPTR, "self is nullptr")


def test_dtype_before_rank_before_shape(dev):
    big = (1,) * 9
    # dtype mismatch and too many dims and a bad out: the dtype is reported
    assert_refused(phase1(dev.empty(big, np.int32), dev.empty(big, F32), dev.scalar(1.0), dev.empty(3, F32)),
                   aclnn.ACLNN_ERR_PARAM_INVALID, "dtype")
    # too many dims and a bad out: the rank is reported
    assert_refused(phase1(dev.empty(big, F32), dev.empty(big, F32), dev.scalar(1.0), dev.empty(3, F32)),
                   aclnn.ACLNN_ERR_PARAM_INVALID, "dim 9")


def test_shape_checks_before_the_empty_shortcut(dev):
    assert_refused(phase1(dev.empty((2, 0), F32), dev.empty((2, 0), F32), dev.scalar(1.0), dev.empty((2, 1), F32)),
                   aclnn.ACLNN_ERR_PARAM_INVALID, "out shape")


def test_int64_dtype_decision_uses_the_threshold_as_float32(dev950):
    g, f, out = (dev950.empty(2, np.int64) for _ in range(3))
    eps = float(np.finfo(np.float32).eps)
    assert phase1(g, f, dev950.scalar(eps), out)[2] == aclnn.ACLNN_SUCCESS
    assert phase1(g, f, dev950.scalar(-eps), out)[2] == aclnn.ACLNN_SUCCESS
    assert phase1(g, f, dev950.scalar(eps * 1.01, acl.ACL_DOUBLE), out)[2] == aclnn.ACLNN_ERR_PARAM_INVALID
    assert phase1(g, f, dev950.scalar(float("nan")), out)[2] == aclnn.ACLNN_ERR_PARAM_INVALID


def test_tiling_failure_is_561002(dev, monkeypatch):
    from opsnn.activation.threshold_grad_v2_d.op_api import threshold_grad_v2_d as l0
    from opsnn.activation.threshold_grad_v2_d.op_host import TilingError

    def failing_tiling(*args, **kwargs):
        raise TilingError("UB of 0 bytes cannot hold one tile")

    monkeypatch.setattr(l0, "tiling", failing_tiling)
    assert_refused(phase1(dev.empty(2, F32), dev.empty(2, F32), dev.scalar(1.0), dev.empty(2, F32)),
                   aclnn.ACLNN_ERR_INNER_TILING, "tiling failed", "UB of 0 bytes")


def test_status_values():
    assert (aclnn.ACLNN_SUCCESS, aclnn.ACLNN_ERR_PARAM_NULLPTR, aclnn.ACLNN_ERR_PARAM_INVALID,
            aclnn.ACLNN_ERR_RUNTIME_ERROR, aclnn.ACLNN_ERR_INNER, aclnn.ACLNN_ERR_INNER_INFERSHAPE,
            aclnn.ACLNN_ERR_INNER_TILING, aclnn.ACLNN_ERR_INNER_FIND_KERNEL, aclnn.ACLNN_ERR_INNER_CREATE_EXECUTOR,
            aclnn.ACLNN_ERR_INNER_NULLPTR) == (0, 161001, 161002, 361001, 561000, 561001, 561002, 561003,
                                               561101, 561103)
