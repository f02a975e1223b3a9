"""opsnn.backends.emulator: numpy in, numpy out, through acl + aclnn; errors as exceptions."""
from concurrent.futures import ThreadPoolExecutor

import ml_dtypes
import numpy as np
import pytest

from opsnn import acl
from opsnn.backends.emulator import threshold_backward

from .aclnn_harness import bits
from .expectations import DTYPES, expected_910b, expected_950, make


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_matches_the_spec(dtype):
    rng = np.random.default_rng(dtype.num)
    g, f = make(dtype, 500, 1.0, rng), make(dtype, 500, 1.0, rng)
    out = threshold_backward(g, f, 1.0, "ascend910b")
    assert out.dtype == dtype and out.shape == g.shape
    np.testing.assert_array_equal(bits(out), bits(expected_910b(g, f, 1.0)))
    np.testing.assert_array_equal(bits(threshold_backward(g, f, 1.0, "ascend950")), bits(expected_950(g, f, 1.0)))


def test_broadcast_rank0_and_empty():
    g = np.array([[1.0], [2.0]], np.float32)
    f = np.array([0.0, 3.0, 1.0], np.float32)
    np.testing.assert_array_equal(threshold_backward(g, f, 0.5, "ascend910b"), [[0, 1, 1], [0, 2, 2]])
    assert threshold_backward(np.float32(2), np.float32(3), 1.0, "ascend910b").shape == ()
    empty = threshold_backward(np.zeros((2, 0), np.float32), np.zeros((2, 1), np.float32), 1.0, "ascend910b")
    assert empty.shape == (2, 0) and empty.dtype == np.float32


def test_bfloat16_and_int64():
    bf = np.array([1.5, -2.0], ml_dtypes.bfloat16)
    assert threshold_backward(bf, bf, 0.0, "ascend910b").dtype == ml_dtypes.bfloat16
    i64 = np.array([5, -5], np.int64)
    np.testing.assert_array_equal(threshold_backward(i64, np.array([1, 0], np.int64), 0, "ascend950"), [5, 0])


def test_errors_map_to_exceptions():
    f32 = np.ones(3, np.float32)
    with pytest.raises(TypeError, match="161002.*int64"):
        threshold_backward(np.ones(3, np.int64), np.ones(3, np.int64), 1.0, "ascend910b")
    with pytest.raises(TypeError, match="should be the same"):
        threshold_backward(np.ones(3, np.float16), f32, 1.0, "ascend910b")
    with pytest.raises(TypeError, match="ACL data type"):
        threshold_backward(np.ones(3, np.dtype("U1")), f32, 1.0, "ascend910b")
    with pytest.raises(ValueError, match="can not broadcast"):
        threshold_backward(np.ones(2, np.float32), f32, 1.0, "ascend910b")
    with pytest.raises(ValueError, match="dim 9"):
        threshold_backward(np.ones((1,) * 9, np.float32), np.ones((1,) * 9, np.float32), 1.0, "ascend910b")
    with pytest.raises(ValueError, match="semantics"):
        threshold_backward(f32, f32, 1.0, "torch")
    with pytest.raises(ValueError, match="family"):
        threshold_backward(f32, f32, 1.0, "ascend950", soc="Ascend910B3")
    with pytest.raises(TypeError, match="real number"):
        threshold_backward(f32, f32, 1j, "ascend910b")


def test_leaves_the_callers_context_alone():
    runtime = acl.Runtime()
    assert runtime.init() == 0 and runtime.set_device(0) == 0
    before, _ = acl.rt.get_context()
    threshold_backward(np.ones(3, np.float32), np.ones(3, np.float32), 0.5, "ascend910b")
    assert acl.rt.get_context()[0] is before
    ptr, ret = runtime.malloc(8, acl.ACL_MEM_MALLOC_HUGE_FIRST)  # still usable
    assert ret == 0 and runtime.free(ptr) == 0
    assert runtime.reset_device(0) == 0 and runtime.finalize() == 0 and runtime.leak_report == []


def test_threads():
    def run(i):
        g = np.arange(1000, dtype=np.float32) * (i + 1)
        f = np.arange(1000, dtype=np.float32)
        return threshold_backward(g, f, float(i * 100), "ascend910b"), g, f, i * 100

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(run, range(8)))  # re-raises a worker's exception here
    assert len(results) == 8
    for out, g, f, t in results:
        np.testing.assert_array_equal(out, np.where(f > t, g, 0))
