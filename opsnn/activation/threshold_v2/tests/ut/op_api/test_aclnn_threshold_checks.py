"""Phase 1 of aclnnThreshold / aclnnInplaceThreshold (docs/threshold-v2.md §3): upstream's op_api
cases, each status with its message, and the order the checks run in."""
import numpy as np
import pytest

from opsnn import acl, aclnn

F32 = np.float32


def phase1(x, t, v, out):
    return aclnn.threshold_get_workspace_size(x, t, v, out)


def assert_refused(result, status, *parts, api="aclnnThreshold"):
    ws, executor, ret = result
    assert (ret, ws, executor) == (status, 0, None)
    msg = aclnn.get_recent_err_msg()
    assert msg.startswith(f"{api}: "), msg
    for part in parts:
        assert part in msg, msg


def assert_ok(result):
    ws, executor, ret = result
    assert ret == aclnn.ACLNN_SUCCESS, aclnn.get_recent_err_msg()
    assert executor is not None and ws >= 0
    return ws, executor


# -- upstream's cases (test_aclnn_threshold.cpp; its SoC is pre-arch35) ------------------------

def test_null_self_out_threshold_value(dev):
    x, out = dev.empty((2, 3), F32), dev.empty((2, 3), F32)
    t, v = dev.scalar(4.0), dev.scalar(10.1)
    assert_refused(phase1(None, t, v, out), aclnn.ACLNN_ERR_PARAM_NULLPTR, "self is nullptr")
    assert_refused(phase1(x, t, v, None), aclnn.ACLNN_ERR_PARAM_NULLPTR, "out is nullptr")
    assert_refused(phase1(x, None, v, out), aclnn.ACLNN_ERR_PARAM_NULLPTR, "threshold is nullptr")
    assert_refused(phase1(x, t, None, out), aclnn.ACLNN_ERR_PARAM_NULLPTR, "value is nullptr")


def test_empty_self_succeeds_with_workspace_0_and_no_kernel(any_dev):
    dev = any_dev
    x, out = dev.empty((0,), F32), dev.empty((0,), F32)
    ws, executor = assert_ok(phase1(x, dev.scalar(1.0), dev.scalar(2.0), out))
    assert ws == 0 and executor.steps == []
    assert aclnn.threshold(0, 0, executor, dev.stream) == aclnn.ACLNN_SUCCESS
    assert dev.runtime.synchronize_stream(dev.stream) == 0


@pytest.mark.parametrize("dtype", [np.int64, np.int16, np.float32, np.float16, np.int8, np.uint8, np.int32])
def test_supported_dtypes_2x3(any_dev, dtype):
    dev = any_dev
    scalars = (dev.scalar(1, acl.ACL_INT64), dev.scalar(10, acl.ACL_INT64)) if np.dtype(dtype).kind in "iu" \
        else (dev.scalar(4.0), dev.scalar(10.1))
    assert_ok(phase1(dev.empty((2, 3), dtype), *scalars, dev.empty((2, 3), dtype)))


@pytest.mark.parametrize("dtype", [np.float64, np.bool_, np.complex64, np.complex128])
def test_unsupported_self_dtypes(any_dev, dtype):
    dev = any_dev
    assert_refused(phase1(dev.empty((2, 3), dtype), dev.scalar(1.0), dev.scalar(2.0), dev.empty((2, 3), dtype)),
                   aclnn.ACLNN_ERR_PARAM_INVALID, "self dtype", "should be in the dtype support list")


def test_rank_8_ok_rank_9_invalid(dev):
    assert_ok(phase1(dev.empty((1,) * 8, np.int32), dev.scalar(1, acl.ACL_INT64), dev.scalar(5, acl.ACL_INT64),
                     dev.empty((1,) * 8, np.int32)))
    assert_refused(phase1(dev.empty((1,) * 9, np.int32), dev.scalar(1.0), dev.scalar(5.0),
                          dev.empty((1,) * 9, np.int32)),
                   aclnn.ACLNN_ERR_PARAM_INVALID, "self dim 9 should not be greater than 8")


def test_float_self_int_out_invalid_before_arch35(dev):
    assert_refused(phase1(dev.empty((2, 3), F32), dev.scalar(1.0), dev.scalar(2.0), dev.empty((2, 3), np.int32)),
                   aclnn.ACLNN_ERR_PARAM_INVALID, "self dtype float32 can not cast to out dtype int32")


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int8, np.uint8, np.int32, np.int64])
def test_inplace_2x3(any_dev, dtype):
    dev = any_dev
    result = aclnn.inplace_threshold_get_workspace_size(dev.empty((2, 3), dtype), dev.scalar(1.0), dev.scalar(2.0))
    assert_ok(result)


# -- beyond upstream's cases ---------------------------------------------------------------

def test_bfloat16_on_both_socs(any_dev):
    dev = any_dev
    bf = acl.DATA_TYPES[acl.ACL_BF16][1]
    assert_ok(phase1(dev.empty((4,), bf), dev.scalar(1.0), dev.scalar(2.0), dev.empty((4,), bf)))


def test_any_out_dtype_on_arch35(dev950):
    dev = dev950
    for out_dtype in (np.int32, np.bool_, np.float64, np.int8):
        assert_ok(phase1(dev.empty((2, 3), F32), dev.scalar(1.0), dev.scalar(2.0), dev.empty((2, 3), out_dtype)))


@pytest.mark.parametrize("self_dtype, out_dtype, ok", [
    (np.int32, np.float32, True), (np.int8, np.int64, True), (np.float16, np.float64, True),
    (np.float32, np.complex64, True), (np.int32, np.bool_, False), (np.float16, np.uint8, False),
    (np.int64, np.int8, True)])
def test_can_cast_rules_before_arch35(dev, self_dtype, out_dtype, ok):
    result = phase1(dev.empty((2,), self_dtype), dev.scalar(1.0), dev.scalar(2.0), dev.empty((2,), out_dtype))
    if ok:
        assert_ok(result)
    else:
        assert_refused(result, aclnn.ACLNN_ERR_PARAM_INVALID, "can not cast to out dtype")


def test_out_shape_must_equal_self_no_broadcast(any_dev):
    dev = any_dev
    for out_shape in ((2, 1), (3,), (1, 2, 3), (3, 2)):
        assert_refused(phase1(dev.empty((2, 3), F32), dev.scalar(1.0), dev.scalar(2.0), dev.empty(out_shape, F32)),
                       aclnn.ACLNN_ERR_PARAM_INVALID, "out shape", "should be the shape of self [2, 3]")


def test_zero_d_self_is_accepted(any_dev):
    dev = any_dev
    assert_ok(phase1(dev.tensor(np.array(3.0, F32)), dev.scalar(1.0), dev.scalar(2.0), dev.tensor(np.array(0, F32))))


def test_scalar_dtypes_are_never_checked(any_dev):
    dev = any_dev
    for data_type, value in ((acl.ACL_BOOL, True), (acl.ACL_COMPLEX64, 1 + 2j), (acl.ACL_FLOAT16, 1.5),
                             (acl.ACL_UINT64, 2**64 - 1), (acl.ACL_DOUBLE, 1e300)):
        assert_ok(phase1(dev.empty((2,), F32), dev.scalar(value, data_type), dev.scalar(value, data_type),
                         dev.empty((2,), F32)))


def test_empty_self_still_checks_dtype_and_shape(dev):
    t, v = dev.scalar(1.0), dev.scalar(2.0)
    assert_refused(phase1(dev.empty((0,), np.float64), t, v, dev.empty((0,), np.float64)),
                   aclnn.ACLNN_ERR_PARAM_INVALID, "dtype")
    assert_refused(phase1(dev.empty((0,), F32), t, v, dev.empty((0,), np.int32)),
                   aclnn.ACLNN_ERR_PARAM_INVALID, "can not cast")
    assert_refused(phase1(dev.empty((0,), F32), t, v, dev.empty((0, 1), F32)), aclnn.ACLNN_ERR_PARAM_INVALID,
                   "out shape")


def test_order_nulls_before_dtypes_before_shapes(dev):
    bad_dtype, bad_rank = dev.empty((2,), np.float64), dev.empty((1,) * 9, F32)
    t, v = dev.scalar(1.0), dev.scalar(2.0)
    # self null wins over everything after it; out null over threshold null
    assert_refused(phase1(None, None, None, None), aclnn.ACLNN_ERR_PARAM_NULLPTR, "self is nullptr")
    assert_refused(phase1(bad_dtype, None, None, None), aclnn.ACLNN_ERR_PARAM_NULLPTR, "out is nullptr")
    assert_refused(phase1(bad_dtype, None, None, bad_dtype), aclnn.ACLNN_ERR_PARAM_NULLPTR, "threshold is nullptr")
    assert_refused(phase1(bad_dtype, t, None, bad_dtype), aclnn.ACLNN_ERR_PARAM_NULLPTR, "value is nullptr")
    # dtype before cast-ability before rank before shape
    assert_refused(phase1(bad_dtype, t, v, dev.empty((3,), F32)), aclnn.ACLNN_ERR_PARAM_INVALID, "self dtype float64")
    assert_refused(phase1(bad_rank, t, v, dev.empty((3,), np.int8)), aclnn.ACLNN_ERR_PARAM_INVALID, "can not cast")
    assert_refused(phase1(bad_rank, t, v, dev.empty((3,), F32)), aclnn.ACLNN_ERR_PARAM_INVALID, "dim 9")


def test_wrong_kinds_and_destroyed_handles(dev):
    x, out = dev.empty((2,), F32), dev.empty((2,), F32)
    t = dev.scalar(1.0)
    assert_refused(phase1(x, x, t, out), aclnn.ACLNN_ERR_PARAM_INVALID, "threshold must be an AclScalar")
    gone = acl.create_scalar(1.0, acl.ACL_FLOAT)
    acl.destroy_scalar(gone)
    assert_refused(phase1(x, t, gone, out), aclnn.ACLNN_ERR_PARAM_NULLPTR, "value has been destroyed")


def test_inplace_checks_name_the_inplace_api(dev):
    result = aclnn.inplace_threshold_get_workspace_size(dev.empty((2,), np.float64), dev.scalar(1.0), dev.scalar(2.0))
    assert_refused(result, aclnn.ACLNN_ERR_PARAM_INVALID, "self dtype float64", api="aclnnInplaceThreshold")
    assert_refused(aclnn.inplace_threshold_get_workspace_size(None, dev.scalar(1.0), dev.scalar(2.0)),
                   aclnn.ACLNN_ERR_PARAM_NULLPTR, "self is nullptr", api="aclnnInplaceThreshold")


def test_no_device_cannot_create_executor():
    import threading
    got = []
    thread = threading.Thread(target=lambda: got.append(aclnn.threshold_get_workspace_size(None, None, None, None)))
    thread.start()
    thread.join()
    ws, executor, ret = got[0]
    assert (ws, executor, ret) == (0, None, aclnn.ACLNN_ERR_INNER_CREATE_EXECUTOR)


def test_phase2_runs_an_executor_once_and_checks_workspace(dev):
    x, out = dev.tensor(np.arange(4, dtype=F32)), dev.empty((4,), F32)
    ws, executor = assert_ok(phase1(x, dev.scalar(1.0), dev.scalar(9.0), out))
    if ws:
        # a refused run (too small a workspace, then none at all) leaves the executor usable
        assert aclnn.threshold(0, ws - 1, executor, dev.stream) == aclnn.ACLNN_ERR_RUNTIME_ERROR
        assert aclnn.threshold(0, ws, executor, dev.stream) == aclnn.ACLNN_ERR_RUNTIME_ERROR
        workspace = dev.malloc(ws)
        assert aclnn.threshold(workspace, ws, executor, dev.stream) == aclnn.ACLNN_SUCCESS
        assert aclnn.threshold(workspace, ws, executor, dev.stream) == aclnn.ACLNN_ERR_INNER_NULLPTR  # run once
    else:
        assert aclnn.threshold(0, 0, executor, dev.stream) == aclnn.ACLNN_SUCCESS
        assert aclnn.threshold(0, 0, executor, dev.stream) == aclnn.ACLNN_ERR_INNER_NULLPTR
    assert aclnn.threshold(0, 0, None, dev.stream) == aclnn.ACLNN_ERR_PARAM_NULLPTR
