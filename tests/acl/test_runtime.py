"""opsnn.acl: each misuse gives its status and changes nothing; leaks are reported; memcpy kinds."""
import threading
import warnings

import numpy as np
import pytest

from opsnn import acl

HUGE = acl.ACL_MEM_MALLOC_HUGE_FIRST


@pytest.fixture
def rt():
    runtime = acl.Runtime()
    assert runtime.init() == 0
    assert runtime.set_device(0) == 0
    yield runtime
    if runtime.get_soc_name() is not None:
        with warnings.catch_warnings():  # these tests leave buffers behind on purpose
            warnings.simplefilter("ignore", acl.AclLeakWarning)
            runtime.finalize()


def upload(rt, host):
    ptr, ret = rt.malloc(host.nbytes, HUGE)
    assert ret == 0
    assert rt.memcpy(ptr, host.nbytes, acl.util.numpy_to_ptr(host), host.nbytes, acl.ACL_MEMCPY_HOST_TO_DEVICE) == 0
    return ptr


def download(rt, ptr, like):
    out = np.zeros_like(like)
    assert rt.memcpy(acl.util.numpy_to_ptr(out), out.nbytes, ptr, out.nbytes, acl.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    return out


def test_enum_values_are_acls():
    assert (acl.ACL_FLOAT, acl.ACL_FLOAT16, acl.ACL_INT8, acl.ACL_INT32, acl.ACL_UINT8, acl.ACL_INT64,
            acl.ACL_BF16, acl.ACL_DOUBLE, acl.ACL_BOOL) == (0, 1, 2, 3, 4, 9, 27, 11, 12)
    assert acl.ACL_FORMAT_ND == 2 and acl.ACL_MEM_MALLOC_HUGE_FIRST == 0
    assert (acl.ACL_MEMCPY_HOST_TO_HOST, acl.ACL_MEMCPY_HOST_TO_DEVICE, acl.ACL_MEMCPY_DEVICE_TO_HOST,
            acl.ACL_MEMCPY_DEVICE_TO_DEVICE) == (0, 1, 2, 3)


# -- init / finalize / devices ----------------------------------------------------------------

def test_calls_before_init():
    runtime = acl.Runtime()
    assert runtime.set_device(0) == acl.ACL_ERROR_UNINITIALIZE
    assert runtime.malloc(16, HUGE) == (0, acl.ACL_ERROR_UNINITIALIZE)
    assert runtime.create_stream() == (None, acl.ACL_ERROR_UNINITIALIZE)
    assert runtime.free(1) == acl.ACL_ERROR_UNINITIALIZE
    assert runtime.synchronize_stream(None) == acl.ACL_ERROR_UNINITIALIZE
    assert runtime.memcpy(0, 0, 0, 0, acl.ACL_MEMCPY_HOST_TO_HOST) == acl.ACL_ERROR_UNINITIALIZE
    assert runtime.finalize() == acl.ACL_ERROR_UNINITIALIZE
    assert "before acl.init" in acl.get_recent_err_msg() or "never called" in acl.get_recent_err_msg()


def test_init_twice_and_finalize_twice():
    runtime = acl.Runtime()
    assert runtime.init() == 0
    assert runtime.init() == acl.ACL_ERROR_REPEAT_INITIALIZE
    assert runtime.finalize() == 0
    assert runtime.finalize() == acl.ACL_ERROR_REPEAT_FINALIZE
    assert runtime.init() == 0 and runtime.finalize() == 0  # a fresh start is allowed


def test_soc_choice(monkeypatch):
    runtime = acl.Runtime()
    monkeypatch.delenv("OPSNN_SOC", raising=False)
    assert runtime.init() == 0 and runtime.get_soc_name() == "Ascend910B2" and runtime.finalize() == 0
    monkeypatch.setenv("OPSNN_SOC", "Ascend950")
    assert runtime.init() == 0 and runtime.get_soc_name() == "Ascend950" and runtime.finalize() == 0
    assert runtime.init("Ascend910B4") == 0 and runtime.get_soc_name() == "Ascend910B4" and runtime.finalize() == 0
    assert runtime.init("Ascend310") == acl.ACL_ERROR_INVALID_PARAM
    assert "unknown SoC" in acl.get_recent_err_msg()


def test_module_functions_drive_the_default_runtime():
    assert acl.init("Ascend910B3") == 0
    try:
        assert acl.rt.get_soc_name() == "Ascend910B3"
        assert acl.rt.set_device(0) == 0
        ptr, ret = acl.rt.malloc(100, HUGE)
        assert ret == 0 and acl.current_runtime() is acl.rt.DEFAULT_RUNTIME
        assert acl.rt.free(ptr) == 0 and acl.rt.reset_device(0) == 0
    finally:
        assert acl.finalize() == 0
    assert acl.get_leak_report() == []


def test_bad_device_ids(rt):
    assert rt.set_device(1) == acl.ACL_ERROR_RT_INVALID_DEVICEID
    assert rt.set_device(-1) == acl.ACL_ERROR_RT_INVALID_DEVICEID
    assert rt.reset_device(0) == 0
    assert rt.reset_device(0) == acl.ACL_ERROR_RT_INVALID_DEVICEID  # not set any more
    assert rt.get_device_count() == (1, 0)


def test_a_thread_without_set_device_has_no_context(rt):
    seen = []
    th = threading.Thread(target=lambda: seen.append(rt.malloc(16, HUGE)))
    th.start()
    th.join()
    assert seen == [(0, acl.ACL_ERROR_RT_CONTEXT_NULL)]


def test_after_finalize_old_contexts_are_dead():
    runtime = acl.Runtime()
    assert runtime.init() == 0 and runtime.set_device(0) == 0
    with pytest.warns(acl.AclLeakWarning, match="more time"):
        assert runtime.finalize() == 0
    assert runtime.init() == 0
    assert runtime.malloc(16, HUGE) == (0, acl.ACL_ERROR_RT_CONTEXT_NULL)  # set_device again first
    assert runtime.finalize() == 0


# -- memory -----------------------------------------------------------------------------------

def test_malloc_misuse(rt):
    assert rt.malloc(0, HUGE) == (0, acl.ACL_ERROR_INVALID_PARAM)
    assert rt.malloc(-5, HUGE) == (0, acl.ACL_ERROR_INVALID_PARAM)
    assert rt.malloc(16, 99) == (0, acl.ACL_ERROR_INVALID_PARAM)
    small = acl.Runtime(memory_limit=4096)
    assert small.init() == 0 and small.set_device(0) == 0
    assert small.malloc(4097, HUGE) == (0, acl.ACL_ERROR_RT_MEMORY_ALLOCATION)
    ptr, ret = small.malloc(4000, HUGE)
    assert ret == 0 and small.malloc(1, HUGE)[1] == acl.ACL_ERROR_RT_MEMORY_ALLOCATION
    assert small.free(ptr) == 0
    ptr, ret = small.malloc(1, HUGE)
    assert ret == 0 and small.free(ptr) == 0 and small.reset_device(0) == 0
    assert small.finalize() == 0 and small.leak_report == []


def test_free_misuse(rt):
    ptr, _ = rt.malloc(64, HUGE)
    assert rt.free(ptr + 8) == acl.ACL_ERROR_RT_PARAM_INVALID  # inside, not the start
    assert rt.free(12345) == acl.ACL_ERROR_RT_PARAM_INVALID
    assert rt.free(ptr) == 0
    assert rt.free(ptr) == acl.ACL_ERROR_RT_PARAM_INVALID
    assert "double free" in acl.get_recent_err_msg()


def test_allocations_are_zeroed_and_distinct(rt):
    a, _ = rt.malloc(100, HUGE)
    b, _ = rt.malloc(100, HUGE)
    assert a != b and abs(a - b) >= 512
    np.testing.assert_array_equal(download(rt, a, np.ones(100, np.uint8)), 0)


def test_memcpy_kinds(rt):
    host = np.arange(16, dtype=np.int32)
    d1 = upload(rt, host)  # host to device
    d2, _ = rt.malloc(host.nbytes, HUGE)
    assert rt.memcpy(d2, host.nbytes, d1, host.nbytes, acl.ACL_MEMCPY_DEVICE_TO_DEVICE) == 0
    np.testing.assert_array_equal(download(rt, d2, host), host)  # device to host
    other = np.zeros(16, np.int32)
    assert rt.memcpy(acl.util.numpy_to_ptr(other), other.nbytes, acl.util.numpy_to_ptr(host), host.nbytes,
                     acl.ACL_MEMCPY_HOST_TO_HOST) == 0
    np.testing.assert_array_equal(other, host)
    # ACL_MEMCPY_DEFAULT tells host from device by the address
    back = np.zeros(16, np.int32)
    assert rt.memcpy(acl.util.numpy_to_ptr(back), back.nbytes, d2, host.nbytes, acl.ACL_MEMCPY_DEFAULT) == 0
    np.testing.assert_array_equal(back, host)
    # interior pointers and partial copies
    assert rt.memcpy(d2 + 8, 8, acl.util.numpy_to_ptr(np.array([-1, -2], np.int32)), 8,
                     acl.ACL_MEMCPY_HOST_TO_DEVICE) == 0
    np.testing.assert_array_equal(download(rt, d2, host)[:4], [0, 1, -1, -2])
    # the staged and the device-to-device kinds of newer CANN versions: the same copies here
    assert rt.memcpy(d1, 8, acl.util.numpy_to_ptr(np.array([7, 8], np.int32)), 8,
                     acl.ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE) == 0
    for kind in (acl.ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, acl.ACL_MEMCPY_INTER_DEVICE_TO_DEVICE):
        assert rt.memcpy(d2 + 4 * kind, 8, d1, 8, kind) == 0
    np.testing.assert_array_equal(download(rt, d2, host)[:10], [0, 1, -1, -2, 4, 5, 7, 7, 8, 9])
    assert rt.memcpy(d1, 4, acl.util.numpy_to_ptr(host), 4, 8) == acl.ACL_ERROR_INVALID_PARAM  # past the enum
    assert rt.memcpy(d1, 4, d2, 4, acl.ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE) == acl.ACL_ERROR_RT_PARAM_INVALID


def test_memcpy_misuse_changes_nothing(rt):
    host = np.arange(16, dtype=np.int32)
    dev = upload(rt, host)
    big = np.zeros(32, np.int32)
    h = acl.util.numpy_to_ptr(big)
    # past the allocation (its 512-byte padding is not the caller's)
    assert rt.memcpy(dev, 128, h, 128, acl.ACL_MEMCPY_HOST_TO_DEVICE) == acl.ACL_ERROR_RT_PARAM_INVALID
    assert rt.memcpy(h, 128, dev, 128, acl.ACL_MEMCPY_DEVICE_TO_HOST) == acl.ACL_ERROR_RT_PARAM_INVALID
    assert rt.memcpy(dev + 60, 8, h, 8, acl.ACL_MEMCPY_HOST_TO_DEVICE) == acl.ACL_ERROR_RT_PARAM_INVALID
    assert "not inside one live allocation" in acl.get_recent_err_msg()
    # count above dst_max, bad kind, wrong direction, unknown pointers
    assert rt.memcpy(dev, 32, h, 64, acl.ACL_MEMCPY_HOST_TO_DEVICE) == acl.ACL_ERROR_INVALID_PARAM
    assert rt.memcpy(dev, 64, h, 64, 17) == acl.ACL_ERROR_INVALID_PARAM
    assert rt.memcpy(dev, 64, h, 64, acl.ACL_MEMCPY_DEVICE_TO_HOST) == acl.ACL_ERROR_RT_PARAM_INVALID
    assert rt.memcpy(dev, 64, 0xDEAD0000, 64, acl.ACL_MEMCPY_HOST_TO_DEVICE) == acl.ACL_ERROR_RT_PARAM_INVALID
    assert rt.memcpy(dev, 64, dev + 10**9, 64, acl.ACL_MEMCPY_DEVICE_TO_DEVICE) == acl.ACL_ERROR_RT_PARAM_INVALID
    # a freed buffer
    gone, _ = rt.malloc(64, HUGE)
    assert rt.free(gone) == 0
    assert rt.memcpy(gone, 64, h, 64, acl.ACL_MEMCPY_HOST_TO_DEVICE) == acl.ACL_ERROR_RT_PARAM_INVALID
    np.testing.assert_array_equal(download(rt, dev, host), host)
    np.testing.assert_array_equal(big, 0)


def test_host_pointers_are_checked(rt):
    dev, _ = rt.malloc(64, HUGE)
    arr = np.zeros(16, np.float32)
    ptr = acl.util.numpy_to_ptr(arr)
    assert rt.memcpy(ptr, 128, dev, 64, acl.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert rt.memcpy(ptr + 32, 64, dev, 64, acl.ACL_MEMCPY_DEVICE_TO_HOST) == acl.ACL_ERROR_RT_PARAM_INVALID
    ro = np.zeros(16, np.float32)
    ro.flags.writeable = False
    assert rt.memcpy(acl.util.numpy_to_ptr(ro), 64, dev, 64, acl.ACL_MEMCPY_DEVICE_TO_HOST) == \
        acl.ACL_ERROR_RT_PARAM_INVALID
    del arr  # a dead array's address is no longer honoured
    assert rt.memcpy(ptr, 64, dev, 64, acl.ACL_MEMCPY_DEVICE_TO_HOST) == acl.ACL_ERROR_RT_PARAM_INVALID
    with pytest.raises(ValueError, match="C-contiguous"):
        acl.util.numpy_to_ptr(np.zeros((4, 4))[:, ::2])
    with pytest.raises(TypeError):
        acl.util.numpy_to_ptr([1, 2, 3])


def test_ptr_to_numpy_views_host_memory():
    arr = np.arange(12, dtype=np.int16)
    view = acl.util.ptr_to_numpy(acl.util.numpy_to_ptr(arr) + 4, (2, 5), np.int16)
    np.testing.assert_array_equal(view, np.arange(2, 12).reshape(2, 5))
    view[0, 0] = 99
    assert arr[2] == 99
    with pytest.raises(ValueError):
        acl.util.ptr_to_numpy(acl.util.numpy_to_ptr(arr), (13,), np.int16)


# -- streams ----------------------------------------------------------------------------------

def test_stream_misuse(rt):
    stream, ret = rt.create_stream()
    assert ret == 0 and rt.synchronize_stream(stream) == 0
    assert rt.destroy_stream(stream) == 0
    assert rt.destroy_stream(stream) == acl.ACL_ERROR_RT_INVALID_HANDLE
    assert rt.synchronize_stream(stream) == acl.ACL_ERROR_RT_INVALID_HANDLE
    assert rt.launch(stream, "t", lambda: None) == acl.ACL_ERROR_RT_INVALID_HANDLE
    assert rt.synchronize_stream("not a stream") == acl.ACL_ERROR_RT_INVALID_HANDLE
    foreign = acl.Runtime()
    assert foreign.init() == 0
    other, _ = foreign.create_stream()
    assert other is None  # this thread's device is on `rt`, not on `foreign`
    assert rt.synchronize_stream(None) == 0  # the default stream
    foreign.finalize()


def test_tasks_run_in_order_at_synchronize_and_a_fault_drops_the_rest(rt):
    stream, _ = rt.create_stream()
    ran = []
    assert rt.launch(stream, "a", lambda: ran.append("a")) == 0
    assert rt.launch(stream, "b", lambda: 1 / 0) == 0
    assert rt.launch(stream, "c", lambda: ran.append("c")) == 0
    assert ran == []
    assert rt.synchronize_stream(stream) == acl.ACL_ERROR_RT_AICORE_EXCEPTION
    assert "task 'b' faulted: ZeroDivisionError" in acl.get_recent_err_msg()
    assert ran == ["a"]
    assert rt.synchronize_stream(stream) == 0 and ran == ["a"]
    assert rt.launch(stream, "d", lambda: ran.append("d")) == 0
    assert rt.destroy_stream(stream) == 0  # pending work is discarded with the stream
    assert ran == ["a"]


def test_a_task_synchronizing_its_own_stream_gets_a_status_not_a_hang(rt):
    """A finalizer the collector runs inside a task may synchronize the stream that task is on: it
    can only wait for itself, so it is refused (issue 20), and the stream goes on in order."""
    stream, _ = rt.create_stream()
    ran, inner = [], []
    assert rt.launch(stream, "a", lambda: inner.append(rt.synchronize_stream(stream))) == 0
    assert rt.launch(stream, "b", lambda: ran.append("b")) == 0
    done = []
    t = threading.Thread(target=lambda: done.append((rt.set_device(0), rt.synchronize_stream(stream))), daemon=True)
    t.start()
    t.join(30)
    assert not t.is_alive(), "synchronize_stream deadlocked on its own stream"
    assert inner == [acl.ACL_ERROR_RT_PARAM_INVALID] and done == [(0, 0)] and ran == ["b"]


# -- leaks ------------------------------------------------------------------------------------

def test_finalize_reports_leaks():
    runtime = acl.Runtime()
    assert runtime.init() == 0 and runtime.set_device(0) == 0
    ptr, _ = runtime.malloc(100, HUGE)
    runtime.create_stream()
    with pytest.warns(acl.AclLeakWarning, match="not freed"):
        assert runtime.finalize() == 0
    report = runtime.leak_report
    assert any(f"{ptr:#x} (100 bytes) was not freed" in line for line in report)
    assert any("was not destroyed" in line for line in report)
    assert any("more time(s) than reset" in line for line in report)


def test_streams_reclaimed_by_reset_are_reported():
    runtime = acl.Runtime()
    assert runtime.init() == 0 and runtime.set_device(0) == 0
    stream, _ = runtime.create_stream()
    assert runtime.reset_device(0) == 0
    with pytest.warns(acl.AclLeakWarning):
        runtime.finalize()
    assert len(runtime.leak_report) == 1 and stream.destroyed
    assert runtime.leak_report[0].endswith("was not destroyed before the last reset_device")


def test_clean_finalize_reports_nothing(recwarn):
    runtime = acl.Runtime()
    assert runtime.init() == 0 and runtime.set_device(0) == 0
    ptr, _ = runtime.malloc(100, HUGE)
    stream, _ = runtime.create_stream()
    assert runtime.free(ptr) == 0 and runtime.destroy_stream(stream) == 0 and runtime.reset_device(0) == 0
    assert runtime.finalize() == 0
    assert runtime.leak_report == [] and not [w for w in recwarn if w.category is acl.AclLeakWarning]


# -- tensors and scalars ----------------------------------------------------------------------

def test_create_tensor_validates_the_description():
    ok = acl.create_tensor((2, 3), acl.ACL_FLOAT, (3, 1), 0, acl.ACL_FORMAT_ND, (6,), 0x1000)
    assert ok is not None and ok.dtype_name == "float32" and ok.numel == 6
    assert acl.create_tensor((2, 3), acl.ACL_FLOAT, None, 0, acl.ACL_FORMAT_ND, (6,), 0).strides == (3, 1)
    bad = [
        ((2, 3), acl.ACL_FLOAT, (3, 1), 1, acl.ACL_FORMAT_ND, (6,), 0),  # view past the storage
        ((2, 3), acl.ACL_FLOAT, (3,), 0, acl.ACL_FORMAT_ND, (6,), 0),  # strides of the wrong rank
        ((2, -3), acl.ACL_FLOAT, (3, 1), 0, acl.ACL_FORMAT_ND, (6,), 0),
        ((2, 3), acl.ACL_FLOAT, (3, -1), 0, acl.ACL_FORMAT_ND, (6,), 0),
        ((2, 3), 99, (3, 1), 0, acl.ACL_FORMAT_ND, (6,), 0),
        ((2, 3), acl.ACL_FLOAT, (3, 1), 0, 1234, (6,), 0),
        ((2.5, 3), acl.ACL_FLOAT, (3, 1), 0, acl.ACL_FORMAT_ND, (6,), 0),
    ]
    for args in bad:
        assert acl.create_tensor(*args) is None, args
    assert acl.create_tensor((0, 3), acl.ACL_FLOAT, (3, 1), 0, acl.ACL_FORMAT_ND, (0,), 0) is not None


def test_destroy_twice():
    t = acl.create_tensor((2,), acl.ACL_INT8, None, 0, acl.ACL_FORMAT_ND, (2,), 0)
    s = acl.create_scalar(1.0, acl.ACL_FLOAT)
    assert acl.destroy_tensor(t) == 0 and acl.destroy_tensor(t) == acl.ACL_ERROR_INVALID_PARAM
    assert acl.destroy_scalar(s) == 0 and acl.destroy_scalar(s) == acl.ACL_ERROR_INVALID_PARAM


def test_scalars():
    assert acl.create_scalar(0.1, acl.ACL_FLOAT).to_float() == float(np.float32(0.1))
    assert acl.create_scalar(1e40, acl.ACL_DOUBLE).to_float() == float("inf")
    assert acl.create_scalar(3, acl.ACL_INT32).to_float() == 3.0
    assert acl.create_scalar(2**40, acl.ACL_INT32) is None  # does not fit
    assert acl.create_scalar(1.5, acl.ACL_INT64) is None
    assert acl.create_scalar(1.0, 99) is None


def test_registering_an_array_again_keeps_one_entry():
    from opsnn.acl.host_memory import HOST

    arr = np.zeros(8, np.uint8)
    before = len(HOST._arrays)
    for _ in range(100):
        acl.util.numpy_to_ptr(arr)
    assert len(HOST._arrays) <= before + 1
    del arr
    assert len(HOST._arrays) <= before


def test_a_registered_array_cannot_be_resized_under_its_pointer():
    arr = np.zeros(16, np.float32)
    acl.util.numpy_to_ptr(arr)
    with pytest.raises(ValueError, match="cannot resize"):  # numpy refuses: the registry holds a weakref
        arr.resize(4, refcheck=False)
