"""Phase 1 of aclnnHardtanhBackward: upstream's op_api UT cases (test_aclnn_hardtanh_backward.cpp,
23 TEST_F), then every status in upstream's check order (aclnn_hardtanh_backward.cpp)."""
import numpy as np
import pytest

from opsnn import acl, aclnn
from opsnn.aclnn import two_phase
from opsnn.dtypes import bfloat16

F32, F16 = np.float32, np.float16


def phase1(g, x, lo, hi, out):
    return aclnn.hardtanh_backward_get_workspace_size(g, x, lo, hi, out)


def assert_refused(result, status, *parts):
    ws, executor, ret = result
    assert (ret, ws, executor) == (status, 0, None)
    msg = aclnn.get_recent_err_msg()
    assert msg.startswith("aclnnHardtanhBackward: "), msg
    for part in parts:
        assert part in msg, msg


def assert_ok(result):
    ws, executor, ret = result
    assert ret == aclnn.ACLNN_SUCCESS, aclnn.get_recent_err_msg()
    assert executor is not None and ws >= 0 and aclnn.get_recent_err_msg() == ""
    return ws, executor


def bounds(dev):
    return dev.scalar(-1.0), dev.scalar(1.0)


# -- upstream's cases -----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [F32, F16, bfloat16])
def test_2x3_supported_dtypes(any_dev, dtype):
    dev = any_dev
    assert_ok(phase1(dev.empty((2, 3), dtype), dev.empty((2, 3), dtype), *bounds(dev), dev.empty((2, 3), dtype)))


@pytest.mark.parametrize(("fmt", "shape"), [
    (acl.ACL_FORMAT_NCHW, (2, 3, 4, 5)), (acl.ACL_FORMAT_NHWC, (2, 3, 4, 5)), (acl.ACL_FORMAT_HWCN, (2, 3, 4, 5)),
    (acl.ACL_FORMAT_NDHWC, (2, 3, 4, 5, 6)), (acl.ACL_FORMAT_NCDHW, (2, 3, 4, 5, 6))])
def test_other_formats(any_dev, fmt, shape):
    dev = any_dev

    def tensor():
        ptr = dev.upload_storage(np.ones(shape, F32))
        t = acl.create_tensor(shape, acl.ACL_FLOAT, None, 0, fmt, shape, ptr)
        dev._objects.append(t)
        return t
    assert_ok(phase1(tensor(), tensor(), *bounds(dev), tensor()))


def test_empty_succeeds_with_workspace_0_and_nothing_to_run(any_dev):
    dev = any_dev
    ws, executor = assert_ok(phase1(dev.empty((0, 3), F32), dev.empty((0, 3), F32), *bounds(dev),
                                    dev.empty((0, 3), F32)))
    assert ws == 0 and executor.steps == []
    assert aclnn.hardtanh_backward(0, 0, executor, dev.stream) == aclnn.ACLNN_SUCCESS
    assert dev.runtime.synchronize_stream(dev.stream) == 0


@pytest.mark.parametrize("dtype", [np.int64, np.int16, np.int8, np.uint8, np.complex64, np.complex128])
def test_unsupported_tensor_dtypes(any_dev, dtype):
    dev = any_dev
    t = (dev.empty((2, 3), dtype) for _ in range(3))
    assert_refused(phase1(*list(t)[:2], *bounds(dev), dev.empty((2, 3), dtype)), aclnn.ACLNN_ERR_PARAM_INVALID,
                   "gradOutput dtype")


def test_int64_grad_or_self(any_dev):
    dev = any_dev
    f, i = dev.empty((2, 3), F32), dev.empty((2, 3), np.int64)
    assert_refused(phase1(i, f, *bounds(dev), f), aclnn.ACLNN_ERR_PARAM_INVALID, "gradOutput dtype int64")
    assert_refused(phase1(f, i, *bounds(dev), f), aclnn.ACLNN_ERR_PARAM_INVALID, "self dtype int64")


def test_float32_with_float16(any_dev):
    dev = any_dev
    a, b = dev.empty((2, 3), F32), dev.empty((2, 3), F16)
    assert_refused(phase1(a, b, *bounds(dev), a), aclnn.ACLNN_ERR_PARAM_INVALID,
                   "gradOutput dtype float32 should be the same as self dtype float16")


def test_shapes_differ_no_broadcast(any_dev):
    dev = any_dev
    assert_refused(phase1(dev.empty((2, 3), F32), dev.empty((1, 3), F32), *bounds(dev), dev.empty((2, 3), F32)),
                   aclnn.ACLNN_ERR_PARAM_INVALID, "gradOutput shape [2, 3] should be the shape of self [1, 3]")


def test_rank_9(any_dev):
    dev = any_dev
    t = dev.empty((1,) * 9, F32)
    assert_refused(phase1(t, t, *bounds(dev), t), aclnn.ACLNN_ERR_PARAM_INVALID, "gradOutput dim 9")
    t8 = dev.empty((1,) * 8, F32)
    assert_refused(phase1(t8, t, *bounds(dev), t8), aclnn.ACLNN_ERR_PARAM_INVALID, "self dim 9")
    assert_ok(phase1(t8, t8, *bounds(dev), t8))


def test_nulls(any_dev):
    dev = any_dev
    t = dev.empty((2, 3), F32)
    lo, hi = bounds(dev)
    assert_refused(phase1(None, t, lo, hi, t), aclnn.ACLNN_ERR_PARAM_NULLPTR, "gradOutput is nullptr")
    assert_refused(phase1(t, None, lo, hi, t), aclnn.ACLNN_ERR_PARAM_NULLPTR, "self is nullptr")
    assert_refused(phase1(t, t, lo, hi, None), aclnn.ACLNN_ERR_PARAM_NULLPTR, "out is nullptr")
    assert_refused(phase1(t, t, None, hi, t), aclnn.ACLNN_ERR_PARAM_NULLPTR, "min is nullptr")
    assert_refused(phase1(t, t, lo, None, t), aclnn.ACLNN_ERR_PARAM_NULLPTR, "max is nullptr")


# -- the order of the checks ----------------------------------------------------------------------

def test_null_order_self_grad_out_min_max(dev):
    t = dev.empty((2, 3), F32)
    lo = dev.scalar(0.0)
    assert_refused(phase1(None, None, None, None, None), 161001, "self is nullptr")
    assert_refused(phase1(None, t, None, None, None), 161001, "gradOutput is nullptr")
    assert_refused(phase1(t, t, None, None, None), 161001, "out is nullptr")
    assert_refused(phase1(t, t, None, None, t), 161001, "min is nullptr")
    assert_refused(phase1(t, t, lo, None, t), 161001, "max is nullptr")


def test_a_tensor_where_a_scalar_belongs(dev):
    t = dev.empty((2, 3), F32)
    assert_refused(phase1(t, t, t, dev.scalar(1.0), t), aclnn.ACLNN_ERR_PARAM_INVALID, "min must be an AclScalar")


def test_nulls_before_dtypes(dev):
    bad = dev.empty((2, 3), np.int8)
    assert_refused(phase1(bad, bad, dev.scalar(0.0), None, bad), 161001, "max is nullptr")


def test_dtype_order_grad_self_out_then_same(dev):
    f, h, i = dev.empty((2, 3), F32), dev.empty((2, 3), F16), dev.empty((2, 3), np.int32)
    lo, hi = bounds(dev)
    assert_refused(phase1(i, i, lo, hi, i), 161002, "gradOutput dtype int32")
    assert_refused(phase1(f, i, lo, hi, i), 161002, "self dtype int32")
    assert_refused(phase1(f, h, lo, hi, i), 161002, "out dtype int32")  # out's list before the same-dtype rule
    assert_refused(phase1(f, h, lo, hi, f), 161002, "should be the same as self dtype")


def test_dtypes_before_ranks_before_shapes(dev):
    lo, hi = bounds(dev)
    big = dev.empty((1,) * 9, np.int8)
    assert_refused(phase1(big, dev.empty((2,), np.int8), lo, hi, big), 161002, "gradOutput dtype int8")
    g9, x = dev.empty((1,) * 9, F32), dev.empty((2, 3), F32)
    assert_refused(phase1(g9, x, lo, hi, x), 161002, "gradOutput dim 9")


def test_empty_after_the_checks(any_dev):
    """Refusals win over the empty shortcut; an empty gradOutput or self alone suffices."""
    dev = any_dev
    lo, hi = bounds(dev)
    e = dev.empty((0, 3), F32)
    assert_refused(phase1(e, dev.empty((0, 3), F16), lo, hi, e), 161002, "same as self")
    assert_refused(phase1(e, dev.empty((1, 3), F32), lo, hi, e), 161002, "shape")
    ws, ex = assert_ok(phase1(e, e, lo, hi, dev.empty((5, 7), F32)))  # out's shape is never checked here
    assert ws == 0 and ex.steps == []


def test_scalar_dtypes_are_never_checked(any_dev):
    dev = any_dev
    t = dev.empty((2, 3), F32)
    for lo, hi in ((dev.scalar(-1, acl.ACL_INT64), dev.scalar(True, acl.ACL_BOOL)),
                   (dev.scalar(-1.0, acl.ACL_FLOAT16), dev.scalar(2.0, acl.ACL_DOUBLE)),
                   (dev.scalar(5.0), dev.scalar(-5.0))):  # min > max is allowed too
        assert_ok(phase1(t, t, lo, hi, t))


@pytest.mark.parametrize(("out_shape", "out_dtype"), [((3, 2), F32), ((6,), F32), ((2, 3), F16), ((2, 3), bfloat16)])
def test_out_of_another_shape_or_dtype_fails_in_the_kernel_layer(any_dev, out_shape, out_dtype):
    """Upstream checks neither; the l0 op refuses (tiling on 950, the TBE kernel on 910B: assumed):
    561002 here (spec H.5: not verifiable which status upstream surfaces)."""
    dev = any_dev
    t = dev.empty((2, 3), F32)
    assert_refused(phase1(t, t, *bounds(dev), dev.empty(out_shape, out_dtype)), aclnn.ACLNN_ERR_INNER_TILING,
                   "HardtanhGrad")


def test_0d_and_a_one_element_out(any_dev):
    dev = any_dev
    s = dev.tensor(np.array(0.5, F32))
    assert_ok(phase1(s, s, *bounds(dev), dev.empty((), F32)))
    assert_ok(phase1(s, s, *bounds(dev), dev.empty((1,), F32)))  # EnsureNotScalar: [] is [1]


def test_no_device_nulls_first_then_561101(monkeypatch, dev):
    t = dev.empty((2, 3), F32)
    lo, hi = bounds(dev)
    monkeypatch.setattr(acl, "current_runtime", lambda: None)
    monkeypatch.setattr(two_phase.acl, "current_runtime", lambda: None)
    assert_refused(phase1(t, None, lo, hi, t), 161001, "self is nullptr")
    assert_refused(phase1(t, t, lo, hi, t), aclnn.ACLNN_ERR_INNER_CREATE_EXECUTOR, "no device")


def test_workspace(any_dev):
    dev = any_dev
    t = dev.empty((1000,), F16)
    ws, ex = assert_ok(phase1(t, t, *bounds(dev), t))
    steps = [s.name for s in ex.steps]
    if dev.runtime.platform.family == "ascend950":
        assert ws >= 16 * 1024 * 1024 and steps == ["HardtanhGrad", "ViewCopy"]
    else:
        assert ws < 16 * 1024 * 1024 and steps == ["HardtanhGrad(910B TBE model)", "ViewCopy"]
    assert aclnn.hardtanh_backward(dev.malloc(ws), ws, ex, dev.stream) == 0
    assert dev.runtime.synchronize_stream(dev.stream) == 0
