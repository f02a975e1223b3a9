"""aclnnLeakyReluBackward phase 1: every status path in upstream's check order (upstream
tests/ut/op_api/test_leaky_relu_backward.cpp, 28 TEST_F, phase 1 only, and the order the source
fixes where several checks fail at once)."""
import numpy as np
import pytest

from opsnn import acl, aclnn
from opsnn.aclnn import status as st
from opsnn.dtypes import bfloat16

F32 = np.float32


def t(dev, shape, dtype=F32, fill=1.0):
    return dev.tensor(np.full(shape, fill, dtype))


def status(dev, grad, x, slope, self_is_result, out):
    ws, executor, ret = dev.phase1(grad, x, slope, self_is_result, out)
    return ret


# ---- SUCCESS (upstream's 23 TEST_F, in kind) -------------------------------------------------------

@pytest.mark.parametrize("shape", [(0,), (2, 0, 3)])
def test_empty_self_succeeds_with_no_work(any_dev, shape):
    ws, executor, ret = any_dev.phase1(t(any_dev, shape), t(any_dev, shape), any_dev.scalar(0.1), False,
                                       t(any_dev, shape))
    assert ret == 0 and ws == 0 and executor.steps == []
    assert any_dev.leaky_relu_backward(t(any_dev, shape), t(any_dev, shape), any_dev.scalar(0.1), False,
                                       t(any_dev, shape)) == 0


@pytest.mark.parametrize("rank", range(0, 9))
@pytest.mark.parametrize("dtype, scalar_type", [(np.float32, acl.ACL_FLOAT), (np.float16, acl.ACL_FLOAT16),
                                                (np.float64, acl.ACL_DOUBLE)])
def test_ranks_and_dtypes(any_dev, rank, dtype, scalar_type):
    shape = (2,) * rank
    assert status(any_dev, t(any_dev, shape, dtype), t(any_dev, shape, dtype), any_dev.scalar(0.1, scalar_type),
                  False, t(any_dev, shape, dtype)) == 0


@pytest.mark.parametrize("fmt", [acl.ACL_FORMAT_NCHW, acl.ACL_FORMAT_NHWC, acl.ACL_FORMAT_HWCN,
                                 acl.ACL_FORMAT_NDHWC, acl.ACL_FORMAT_NCDHW])
def test_formats_are_read_as_nd(dev, fmt):
    shape = (2, 3, 4, 5) if fmt in (acl.ACL_FORMAT_NCHW, acl.ACL_FORMAT_NHWC, acl.ACL_FORMAT_HWCN) else (1, 2, 3, 4, 5)
    tensors = []
    for _ in range(3):
        ptr = dev.upload_storage(np.ones(shape, F32))
        tensors.append(acl.create_tensor(shape, acl.ACL_FLOAT, None, 0, fmt, shape, ptr))
        dev._objects.append(tensors[-1])
    assert status(dev, *tensors[:2], dev.scalar(0.1), False, tensors[2]) == 0


def test_mixed_dtypes_promote(any_dev):
    # fp16 grad + double self + double out (upstream), and the promotions the table gives
    assert status(any_dev, t(any_dev, (2, 2), np.float16), t(any_dev, (2, 2), np.float64), any_dev.scalar(0.1),
                  False, t(any_dev, (2, 2), np.float64)) == 0
    for a, b in ((np.float16, bfloat16), (bfloat16, F32), (np.float16, F32)):
        assert status(any_dev, t(any_dev, (3,), a), t(any_dev, (3,), b), any_dev.scalar(0.1), False,
                      t(any_dev, (3,), F32)) == 0


def test_bf16_and_scalar_dtypes(any_dev):
    for code in (acl.ACL_FLOAT, acl.ACL_FLOAT16, acl.ACL_DOUBLE, acl.ACL_INT32, acl.ACL_INT64, acl.ACL_INT8,
                 acl.ACL_UINT8, acl.ACL_BOOL, acl.ACL_INT16, acl.ACL_BF16):
        value = True if code == acl.ACL_BOOL else 1
        assert status(any_dev, t(any_dev, (4,), bfloat16), t(any_dev, (4,), bfloat16), any_dev.scalar(value, code),
                      True, t(any_dev, (4,), bfloat16)) == 0


def test_slope_rules(any_dev):
    g, x, out = t(any_dev, (3,)), t(any_dev, (3,)), t(any_dev, (3,))
    assert status(any_dev, g, x, any_dev.scalar(-0.1), False, out) == 0  # negative without selfIsResult
    assert status(any_dev, g, x, any_dev.scalar(float("nan")), True, out) == 0  # NaN < 0 is false
    assert status(any_dev, g, x, any_dev.scalar(-0.0), True, out) == 0


def test_non_contiguous_and_large(any_dev):
    storage = np.arange(3 * 5 * 6 * 2, dtype=F32)
    view = any_dev.strided(storage, (3, 5, 6), (60, 12, 2), 1)
    assert status(any_dev, view, t(any_dev, (3, 5, 6)), any_dev.scalar(0.1), False, t(any_dev, (3, 5, 6))) == 0
    for shape in ((1024, 1024), (2048,)):
        assert status(any_dev, t(any_dev, shape), t(any_dev, shape), any_dev.scalar(0.1), False,
                      t(any_dev, shape)) == 0


def test_out_dtype_is_not_list_checked(any_dev):
    for out_dtype in (np.float16, bfloat16, np.complex64):  # narrowing and complex outs pass CanCast
        assert status(any_dev, t(any_dev, (3,)), t(any_dev, (3,)), any_dev.scalar(0.1), False,
                      t(any_dev, (3,), out_dtype)) == 0


# ---- failures, in check order ----------------------------------------------------------------

def test_no_device_is_561101():
    ws, executor, ret = aclnn.leaky_relu_backward_get_workspace_size(None, None, None, False, None)
    assert (ws, executor, ret) == (0, None, st.ACLNN_ERR_INNER_CREATE_EXECUTOR)


def test_nullptr_order(any_dev):
    g, x, s, out = t(any_dev, (2,)), t(any_dev, (2,)), any_dev.scalar(0.1), t(any_dev, (2,))
    for args, name in (((None, x, s, False, out), "gradOutput"), ((g, None, s, False, out), "self"),
                       ((g, x, None, False, out), "negativeSlope"), ((g, x, s, False, None), "out"),
                       ((None, None, None, False, None), "gradOutput"), ((g, None, None, False, None), "self")):
        assert status(any_dev, *args) == st.ACLNN_ERR_PARAM_NULLPTR
        assert f"{name} is nullptr" in aclnn.get_recent_err_msg()


def _expect_invalid(dev, args, fragment):
    assert status(dev, *args) == st.ACLNN_ERR_PARAM_INVALID
    message = aclnn.get_recent_err_msg()
    assert fragment in message, message


def test_dtype_checks_in_order(any_dev):
    u32 = t(any_dev, (2,), np.uint32)
    g, s, out = t(any_dev, (2,)), any_dev.scalar(0.1), t(any_dev, (2,))
    _expect_invalid(any_dev, (u32, u32, s, False, out), "gradOutput dtype uint32")  # upstream: UINT32 tensors
    _expect_invalid(any_dev, (g, t(any_dev, (2,), np.int32), s, False, out), "self dtype int32")
    _expect_invalid(any_dev, (g, g, any_dev.scalar(1, acl.ACL_UINT64), False, out), "negativeSlope dtype uint64")
    _expect_invalid(any_dev, (g, g, any_dev.scalar(1, acl.ACL_COMPLEX64), False, out), "negativeSlope dtype")
    # dtypes come before ranks and shapes
    _expect_invalid(any_dev, (t(any_dev, (1,) * 9, np.int8), g, s, False, t(any_dev, (5,))), "gradOutput dtype")


def test_shape_checks_in_order(any_dev):
    s = any_dev.scalar(0.1)
    nine = t(any_dev, (1,) * 9)
    _expect_invalid(any_dev, (nine, t(any_dev, (1,)), s, False, nine), "gradOutput dim 9")  # upstream: rank 9
    _expect_invalid(any_dev, (t(any_dev, (1,)), nine, s, False, nine), "self dim 9")
    _expect_invalid(any_dev, (t(any_dev, (2, 2, 2, 2)), t(any_dev, (2, 2, 2, 2, 2)), s, False,
                              t(any_dev, (2, 2, 2, 2))), "out shape")  # upstream: out not the broadcast shape
    _expect_invalid(any_dev, (t(any_dev, (2, 3)), t(any_dev, (4, 3)), s, False, t(any_dev, (2, 3))),
                    "can not broadcast")
    # shapes come before the slope rule
    _expect_invalid(any_dev, (t(any_dev, (2, 3)), t(any_dev, (4, 3)), any_dev.scalar(-1.0), True,
                              t(any_dev, (2, 3))), "can not broadcast")


def test_self_is_result_with_negative_slope(any_dev):
    g = t(any_dev, (2, 2))
    for slope, code in ((-0.1, acl.ACL_FLOAT), (-1, acl.ACL_INT32), (-1e-300, acl.ACL_DOUBLE)):
        _expect_invalid(any_dev, (g, g, any_dev.scalar(slope, code), True, t(any_dev, (2, 2))),
                        "should not be negative")


def test_out_that_cannot_take_the_promoted_dtype(any_dev):
    g, s = t(any_dev, (2,)), any_dev.scalar(0.1)
    for out_dtype in (np.int32, np.int8, np.bool_):
        _expect_invalid(any_dev, (g, g, s, False, t(any_dev, (2,), out_dtype)), "can not cast to out dtype")
    # an empty self is checked all the same before it succeeds
    e = t(any_dev, (0,))
    _expect_invalid(any_dev, (e, e, s, False, t(any_dev, (0,), np.int32)), "can not cast")


def test_empty_grad_against_non_empty_self(dev, dev950):
    """Not short-circuited (only self is tested): the 910B model has nothing to compute; the 950
    tiling refuses the 0 dim, which surfaces as l0's null result (docs/leaky-relu-grad.md §9.5: an inference)."""
    for d, want in ((dev, 0), (dev950, st.ACLNN_ERR_INNER_NULLPTR)):
        ret = status(d, t(d, (0, 3)), t(d, (1, 3)), d.scalar(0.1), False, t(d, (0, 3)))
        assert ret == want
    assert "LeakyReluGrad tiling failed" in aclnn.get_recent_err_msg()
    assert status(dev950, t(dev950, (0, 3), np.float64), t(dev950, (1, 3), np.float64), dev950.scalar(0.1), False,
                  t(dev950, (0, 3), np.float64)) == 0  # float64 goes to AiCpu: no tiling to refuse
