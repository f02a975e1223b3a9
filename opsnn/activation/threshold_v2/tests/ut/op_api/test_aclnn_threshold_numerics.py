"""What aclnnThreshold computes on each SoC (docs/threshold-v2.md §5-6), bit for bit against the
independent oracle: every dtype, NaN / inf / -0.0, values next to the threshold, scalars at and
beyond the dtype's limits, int32 beyond 2**24; and the l0 sequence each SoC records."""
import math

import numpy as np
import pytest

from opsnn import acl, aclnn

from .. import oracle as o

SOC_ORACLE = {"Ascend910B2": o.forward_910b, "Ascend950": o.forward_950}
# (threshold, value) pairs: ordinary, NaN, at / past the dtype's range, halves rounding differently
# from float32, int32 past 2**24, truncation of floats into integers
SCALARS = [(0.0, 0.0), (1.5, -2.5), (-3, 7), (math.nan, 1.0), (1.0, math.nan), (2**24 + 1, 2**24 + 3),
           (127.9, -128.9), (65504.0, 40000), (1e39, -1e39), (2.0**31, -3e9), (1.0006, 65519.0), (-0.0, math.inf)]


def scalar(dev, v):
    if isinstance(v, int):
        return dev.scalar(v, acl.ACL_INT64)
    return dev.scalar(v, acl.ACL_DOUBLE)


@pytest.mark.parametrize("dtype", o.DTYPES, ids=str)
def test_every_dtype_against_the_oracle(any_dev, dtype):
    dev = any_dev
    soc = dev.runtime.get_soc_name()
    rng = np.random.default_rng(7)
    for t, v in SCALARS:
        x = o.edge_values(dtype, 257, rng, around=[t])
        xt, out = dev.tensor(x), dev.empty(x.shape, dtype)
        ret = dev.threshold(xt, scalar(dev, t), scalar(dev, v), out)
        if not (o.scalar_fits(t, dtype) and o.scalar_fits(v, dtype)):  # would wrap: refused
            assert ret == aclnn.ACLNN_ERR_PARAM_INVALID and "without overflow" in aclnn.get_recent_err_msg(), (t, v)
            continue
        assert ret == 0, aclnn.get_recent_err_msg()
        np.testing.assert_array_equal(o.bits(dev.read(out)), o.bits(SOC_ORACLE[soc](x, t, v)),
                                      err_msg=f"{soc} {dtype} threshold={t!r} value={v!r}")


def test_int32_beyond_2_24_rounds_on_910b_only(any_dev):
    dev = any_dev
    x = np.array([2**24 + 1, -(2**24) - 3, 2**31 - 1, 5, -7], np.int32)
    out = dev.empty(x.shape, np.int32)
    assert dev.threshold(dev.tensor(x), dev.scalar(0, acl.ACL_INT64), dev.scalar(2**24 + 1, acl.ACL_INT64), out) == 0
    got = dev.read(out)
    if dev.runtime.get_soc_name() == "Ascend950":
        np.testing.assert_array_equal(got, [2**24 + 1, 2**24 + 1, 2**31 - 1, 5, 2**24 + 1])
    else:  # through float32: 2**24 + 1 -> 2**24, 2**31 - 1 -> 2**31 -> saturates back
        np.testing.assert_array_equal(got, [2**24, 2**24, 2**31 - 1, 5, 2**24])


def test_half_threshold_rounds_to_the_tensor_dtype(any_dev):
    """torch compares halves against the float32 threshold; aclnn rounds it to half first."""
    dev = any_dev
    x = np.array([1.0, np.nextafter(np.float16(1), np.float16(2)), 1.002], np.float16)
    out = dev.empty(x.shape, np.float16)
    assert dev.threshold(dev.tensor(x), dev.scalar(1.0006, acl.ACL_DOUBLE), dev.scalar(-1.0, acl.ACL_DOUBLE), out) == 0
    np.testing.assert_array_equal(dev.read(out), np.array([-1.0, -1.0, 1.002], np.float16))


def test_nan_self_stays_nan_threshold_nan_keeps_all(any_dev):
    dev = any_dev
    x = np.array([np.nan, -np.inf, 0.0, -0.0, 1.0], np.float32)
    out = dev.empty(x.shape, np.float32)
    assert dev.threshold(dev.tensor(x), dev.scalar(0.0), dev.scalar(7.0), out) == 0
    np.testing.assert_array_equal(o.bits(dev.read(out)), o.bits(np.array([np.nan, 7, 7, 7, 1], np.float32)))
    assert dev.threshold(dev.tensor(x), dev.scalar(math.nan, acl.ACL_DOUBLE), dev.scalar(7.0), out) == 0
    np.testing.assert_array_equal(o.bits(dev.read(out)), o.bits(x))


def test_upstream_example_and_inplace(any_dev):
    dev = any_dev
    x = np.array([0, 1, 2, 3, 4.1, 5, 6, 7], np.float32).reshape(4, 2)
    xt, out = dev.tensor(x), dev.empty((4, 2), np.float32)
    t, v = dev.scalar(4.1), dev.scalar(10.0)
    expected = np.array([10, 10, 10, 10, 10, 5, 6, 7], np.float32).reshape(4, 2)
    assert dev.threshold(xt, t, v, out) == 0
    np.testing.assert_array_equal(dev.read(out), expected)
    np.testing.assert_array_equal(dev.read(xt), x)  # self untouched
    assert dev.inplace_threshold(xt, t, v) == 0
    np.testing.assert_array_equal(dev.read(xt), expected)


def test_strided_self_and_out(any_dev):
    dev = any_dev
    storage = np.arange(-10, 30, dtype=np.float32)
    x = dev.strided(storage, (3, 4), (1, 3), 2)  # a transposed view, offset 2
    out_storage = np.full(40, -99, np.float32)
    out = dev.strided(out_storage, (3, 4), (8, 2), 1)
    assert dev.threshold(x, dev.scalar(0.5), dev.scalar(100.0), out) == 0
    view = np.lib.stride_tricks.as_strided(storage[2:], (3, 4), (4, 12))
    np.testing.assert_array_equal(dev.read(out), np.where(view <= 0.5, 100, view))
    touched = np.zeros(40, bool)
    touched[[1 + 8 * i + 2 * j for i in range(3) for j in range(4)]] = True
    assert (dev.read_storage(out)[~touched] == -99).all()  # ViewCopy writes the view's elements only


def test_inplace_on_a_strided_view(any_dev):
    dev = any_dev
    storage = np.arange(12, dtype=np.int32)
    x = dev.strided(storage, (2, 3), (6, 2), 0)
    assert dev.inplace_threshold(x, dev.scalar(4, acl.ACL_INT64), dev.scalar(-1, acl.ACL_INT64)) == 0
    np.testing.assert_array_equal(dev.read(x), [[-1, -1, -1], [6, 8, 10]])


@pytest.mark.parametrize("out_dtype, expected", [
    (np.int32, [2, 2, 2, 3, 4]), (np.float16, [2.5, 2.5, 2.5, 3.25, 4.75]), (np.bool_, [True] * 5),
    (np.int8, [2, 2, 2, 3, 4])])
def test_out_of_another_dtype_on_arch35(dev950, out_dtype, expected):
    dev = dev950
    x = np.array([1.0, 2.0, 2.5, 3.25, 4.75], np.float32)
    out = dev.empty(x.shape, out_dtype)
    assert dev.threshold(dev.tensor(x), dev.scalar(2.5), dev.scalar(2.5), out) == 0
    np.testing.assert_array_equal(dev.read(out), np.array(expected, out_dtype))


def test_int_self_float_out_before_arch35(dev):
    x = np.array([1, 5, -3, 2**24 + 1], np.int32)
    out = dev.empty(x.shape, np.float32)
    assert dev.threshold(dev.tensor(x), dev.scalar(1, acl.ACL_INT64), dev.scalar(0, acl.ACL_INT64), out) == 0
    np.testing.assert_array_equal(dev.read(out), np.array([0, 5, 0, 2**24], np.float32))


def _step_names(dev, x, out):
    ws, executor, ret = aclnn.threshold_get_workspace_size(x, dev.scalar(1.0), dev.scalar(2.0), out)
    assert ret == 0
    return [s.name for s in executor.steps], ws


def test_l0_sequence_910b_int16_goes_through_int32(dev):
    names, _ = _step_names(dev, dev.empty((2, 3), np.int16), dev.empty((2, 3), np.int16))
    assert names == ["Cast(int16->int32)", "ConvertToTensor(threshold)", "ConvertToTensor(value)",
                     "ThresholdV2(910B TBE model)", "Cast(int32->int16)", "ViewCopy"]
    names, _ = _step_names(dev, dev.empty((2, 3), np.float32), dev.empty((2, 3), np.float32))
    assert names == ["ConvertToTensor(threshold)", "ConvertToTensor(value)", "ThresholdV2(910B TBE model)",
                     "ViewCopy"]


def test_l0_sequence_arch35_int16_native_and_contiguous_first(dev950):
    dev = dev950
    names, ws = _step_names(dev, dev.empty((2, 3), np.int16), dev.empty((2, 3), np.int16))
    assert names == ["ConvertToTensor(threshold)", "ConvertToTensor(value)", "ThresholdV2", "ViewCopy"]
    assert ws == 3 * 512  # y, threshold, value slots; the tiling asks no kernel workspace
    strided = dev.strided(np.zeros(12, np.float32), (2, 3), (1, 2), 0)
    names, _ = _step_names(dev, strided, dev.empty((2, 3), np.float64))
    assert names[0] == "Contiguous" and names[-2:] == ["Cast(float32->float64)", "ViewCopy"]


def test_int16_value_beyond_range_is_refused_on_both(any_dev):
    """40000 would wrap to -25536: refused by self's dtype, though the 910B computes int16 in int32."""
    dev = any_dev
    x = np.array([1, 2, 3, -5], np.int16)
    out = dev.empty(x.shape, np.int16)
    assert dev.threshold(dev.tensor(x), dev.scalar(2, acl.ACL_INT64), dev.scalar(40000, acl.ACL_INT64),
                         out) == aclnn.ACLNN_ERR_PARAM_INVALID
    assert "value 40000 cannot be converted to int16 without overflow" in aclnn.get_recent_err_msg()
    assert dev.threshold(dev.tensor(x), dev.scalar(2, acl.ACL_INT64), dev.scalar(-32768, acl.ACL_INT64), out) == 0
    np.testing.assert_array_equal(dev.read(out), np.array([-32768, -32768, 3, -32768], np.int16))
