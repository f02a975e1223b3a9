"""Views: transposed and sliced (offset) inputs, a strided out, broadcasting, rank 0 and 8."""
import numpy as np
import pytest

from opsnn import aclnn

F32 = np.float32


def reference(g, f, t):
    return np.where(f > F32(t), g, F32(0))


def run(dev, g_t, f_t, out_t, t=1.0):
    assert dev.threshold_backward(g_t, f_t, dev.scalar(t), out_t) == aclnn.ACLNN_SUCCESS, aclnn.get_recent_err_msg()
    return dev.read(out_t)


def test_transposed_inputs(dev):
    rng = np.random.default_rng(1)
    g_base, f_base = rng.standard_normal((5, 7)).astype(F32), (rng.standard_normal((5, 7)) * 2).astype(F32)
    # the (7, 5) transpose of a row-major (5, 7) storage: strides (1, 7)
    g_t = dev.strided(g_base, (7, 5), (1, 7), 0)
    f_t = dev.strided(f_base, (7, 5), (1, 7), 0)
    out = dev.empty((7, 5), F32)
    np.testing.assert_array_equal(run(dev, g_t, f_t, out), reference(g_base.T, f_base.T, 1.0))


def test_sliced_inputs_with_offset(dev):
    rng = np.random.default_rng(2)
    g_base, f_base = rng.standard_normal(100).astype(F32), (rng.standard_normal(100) * 2).astype(F32)
    # rows of 10 with a row stride of 20, starting 3 elements into the storage
    g_t = dev.strided(g_base, (3, 10), (20, 1), 3)
    # every other element of [10:70] of the feature, as a (3, 10) view
    f_t = dev.strided(f_base, (3, 10), (20, 2), 10)
    out = dev.empty((3, 10), F32)
    want = reference(g_base[3:63].reshape(3, 20)[:, :10], f_base[10:70].reshape(3, 20)[:, ::2], 1.0)
    np.testing.assert_array_equal(run(dev, g_t, f_t, out), want)


def test_dense_input_at_an_offset_is_copied_first(dev):
    g_base = np.arange(1, 41, dtype=F32)
    f_base = np.full(40, 2.0, F32)
    g_t = dev.strided(g_base, (8,), (1,), 32)  # the last 8 elements of the storage
    f_t = dev.strided(f_base, (8,), (1,), 32)
    ws, executor, ret = aclnn.threshold_backward_get_workspace_size(g_t, f_t, dev.scalar(1.0), dev.empty(8, F32))
    assert ret == 0
    assert [s.name for s in executor.steps] == ["Contiguous", "Contiguous", "ThresholdGradV2D", "ViewCopy"]
    assert aclnn.threshold_backward(dev.malloc(ws), ws, executor, dev.stream) == 0
    assert dev.runtime.synchronize_stream(dev.stream) == 0


def test_non_contiguous_out_leaves_the_gaps_alone(dev):
    g = np.arange(1, 7, dtype=F32).reshape(2, 3)
    f = np.array([[0, 2, 0], [2, 0, 2]], F32)
    out_storage = np.full(2 * 3 * 2, -9.0, F32)  # out is a (2, 3) view with stride 2 on the last axis
    out_t = dev.strided(out_storage, (2, 3), (6, 2), 0)
    run(dev, dev.tensor(g), dev.tensor(f), out_t)
    storage = dev.read_storage(out_t)
    np.testing.assert_array_equal(storage[0::2], [0, 2, 0, 4, 0, 6])
    np.testing.assert_array_equal(storage[1::2], [-9.0] * 6)


def test_transposed_out(dev):
    g = np.arange(12, dtype=F32).reshape(3, 4)
    f = np.full((3, 4), 5.0, F32)
    f[1, 2] = 0
    out_t = dev.strided(np.zeros(12, F32), (3, 4), (1, 3), 0)  # column-major out
    np.testing.assert_array_equal(run(dev, dev.tensor(g), dev.tensor(f), out_t), reference(g, f, 1.0))
    np.testing.assert_array_equal(dev.read_storage(out_t), reference(g, f, 1.0).T.reshape(-1))


@pytest.mark.parametrize("g_shape, f_shape", [((2, 1), (2, 3)), ((3,), (4, 1)), ((), (2, 2)), ((1, 5), (1,)),
                                              ((2, 1, 3), (4, 1))])
def test_broadcasting(dev, g_shape, f_shape):
    rng = np.random.default_rng(3)
    g = rng.standard_normal(g_shape).astype(F32)
    f = (rng.standard_normal(f_shape) * 2).astype(F32)
    shape = np.broadcast_shapes(g_shape, f_shape)
    got = run(dev, dev.tensor(g), dev.tensor(f), dev.empty(shape, F32))
    np.testing.assert_array_equal(got, reference(*np.broadcast_arrays(g, f), 1.0))


def test_rank_0(dev):
    for g, f, want in ((3.5, 2.0, 3.5), (3.5, 0.5, 0.0)):
        got = run(dev, dev.tensor(np.array(g, F32)), dev.tensor(np.array(f, F32)), dev.empty((), F32))
        assert got.shape == () and got == want


def test_rank_8(dev):
    rng = np.random.default_rng(4)
    shape = (2, 1, 3, 1, 2, 2, 1, 3)
    g = rng.standard_normal(shape).astype(F32)
    f = (rng.standard_normal((3, 1, 2, 1, 3)) * 2).astype(F32)  # rank 5, broadcast up to 8
    out_shape = np.broadcast_shapes(shape, f.shape)
    got = run(dev, dev.tensor(g), dev.tensor(f), dev.empty(out_shape, F32))
    np.testing.assert_array_equal(got, reference(*np.broadcast_arrays(g, f), 1.0))


def test_inputs_are_left_unchanged(dev):
    g = np.arange(6, dtype=F32)
    f = np.full(6, 0.5, F32)
    g_t, f_t = dev.tensor(g), dev.tensor(f)
    run(dev, g_t, f_t, dev.empty(6, F32))
    np.testing.assert_array_equal(dev.read(g_t), g)
    np.testing.assert_array_equal(dev.read(f_t), f)


def test_in_place_into_grad_output(dev):
    g_t = dev.tensor(np.array([1.0, 2.0, 3.0, 4.0], F32))
    f_t = dev.tensor(np.array([0.0, 2.0, 0.0, 2.0], F32))
    np.testing.assert_array_equal(run(dev, g_t, f_t, g_t), [0, 2, 0, 4])


def test_a_tensor_claiming_more_storage_than_its_allocation_faults_the_stream(dev):
    from opsnn import acl

    small = dev.tensor(np.full(4, 2.0, F32))
    # describes 1000 elements on a 16-byte buffer: refused when the work runs, nothing written
    liar = acl.create_tensor((4,), acl.ACL_FLOAT, None, 0, acl.ACL_FORMAT_ND, (1000,), small.data_ptr)
    out = dev.empty(4, F32, fill=-1)
    assert dev.threshold_backward(liar, small, dev.scalar(1.0), out) == acl.ACL_ERROR_RT_AICORE_EXCEPTION
    assert "not inside one live allocation" in acl.get_recent_err_msg()
    np.testing.assert_array_equal(dev.read(out), [-1, -1, -1, -1])
