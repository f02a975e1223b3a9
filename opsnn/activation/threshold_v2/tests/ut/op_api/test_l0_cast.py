"""The framework's l0 Cast (opsnn/aclnn/l0/cast.py): its conversion model and what it records."""
import numpy as np

from opsnn.aclnn import status as s
from opsnn.aclnn.executor import Executor
from opsnn.aclnn.l0 import cast
from opsnn.aclnn.l0.cast import cast_values
from opsnn.aclnn.l0_tensor import L0Tensor, UserMemory
from opsnn.platform import get_platform

from .. import oracle as o


def test_float_to_int_truncates_saturates_nan_zero():
    a = np.array([1.5, -2.7, np.nan, 1e30, -1e30, 2.0**63, -0.5], np.float64)
    np.testing.assert_array_equal(cast_values(a, np.int64), [1, -2, 0, 2**63 - 1, -(2**63), 2**63 - 1, 0])
    np.testing.assert_array_equal(cast_values(a.astype(np.float32), np.int8), [1, -2, 0, 127, -128, 127, 0])
    np.testing.assert_array_equal(cast_values(a.astype(o.BF16), np.uint8), [1, 0, 0, 255, 0, 255, 0])


def test_int_wraps_bool_and_floats_round():
    np.testing.assert_array_equal(cast_values(np.array([300, -1, 40000], np.int32), np.int16), [300, -1, -25536])
    np.testing.assert_array_equal(cast_values(np.array([0.0, np.nan, -0.0, 2.0]), np.bool_), [False, True, False, True])
    assert cast_values(np.array([2**24 + 1], np.int32), np.float32)[0] == 2**24
    assert cast_values(np.array([65520.0], np.float32), np.float16)[0] == np.inf


def _tensor(dtype_name, dtype, shape=(3,)):
    return L0Tensor(dtype_name, np.dtype(dtype), shape, (1,), 0, UserMemory(0x1000, 64))


def test_same_dtype_records_nothing_and_complex_to_real_is_refused():
    ex = Executor(get_platform("Ascend950"))
    t = _tensor("float32", np.float32)
    assert cast(ex, t, np.float32) is t and cast(ex, t, "float32") is t and ex.steps == []
    out = cast(ex, t, "int16")
    assert out.dtype == np.int16 and out.shape == (3,) and [st.name for st in ex.steps] == ["Cast(float32->int16)"]
    try:
        cast(ex, _tensor("complex64", np.complex64), np.float32)
    except s.AclnnError as e:
        assert e.status == s.ACLNN_ERR_INNER_NULLPTR
    else:
        raise AssertionError("complex -> float32 must be refused")
