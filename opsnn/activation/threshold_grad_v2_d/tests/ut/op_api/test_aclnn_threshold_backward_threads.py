"""8 threads on one runtime running the two phases at once, each with its own threshold and
dtype: every result is its own (the threshold is per call, not a process-global)."""
import threading

import numpy as np

from opsnn import acl, aclnn

from .aclnn_harness import bits
from .expectations import DTYPES, expected_910b, make

THREADS = 8


def worker(runtime, index, barrier, results):
    dtype = DTYPES[index % len(DTYPES)]
    t = [0.5, 1.0, 0.0, -1.0, 2.0, 0.3, 1.5, -0.25][index]
    rng = np.random.default_rng(100 + index)
    g, f = make(dtype, 3000 + 517 * index, t, rng), make(dtype, 3000 + 517 * index, t, rng)
    out_host = np.zeros_like(g)
    assert runtime.set_device(0) == 0
    stream, ret = runtime.create_stream()
    assert ret == 0
    ptrs = []

    def upload(host):
        ptr, ret = runtime.malloc(host.nbytes, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        assert ret == 0
        ptrs.append(ptr)
        assert runtime.memcpy(ptr, host.nbytes, acl.util.numpy_to_ptr(host), host.nbytes,
                              acl.ACL_MEMCPY_HOST_TO_DEVICE) == 0
        return acl.create_tensor(host.shape, acl.acl_data_type_of(host.dtype), None, 0, acl.ACL_FORMAT_ND,
                                 host.shape, ptr)

    g_t, f_t, out_t = upload(g), upload(f), upload(out_host)
    threshold = acl.create_scalar(t, acl.ACL_FLOAT)
    barrier.wait()  # every thread plans at once ...
    ws, executor, ret = aclnn.threshold_backward_get_workspace_size(g_t, f_t, threshold, out_t)
    assert ret == 0, aclnn.get_recent_err_msg()
    workspace, ret = runtime.malloc(ws, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    ptrs.append(workspace)
    barrier.wait()  # ... and runs only after all have planned
    assert aclnn.threshold_backward(workspace, ws, executor, stream) == 0
    assert runtime.synchronize_stream(stream) == 0
    assert runtime.memcpy(acl.util.numpy_to_ptr(out_host), out_host.nbytes, out_t.data_ptr, out_host.nbytes,
                          acl.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    results[index] = (g, f, t, out_host)
    for p in ptrs:
        assert runtime.free(p) == 0
    assert runtime.destroy_stream(stream) == 0
    assert runtime.reset_device(0) == 0


def test_eight_threads_at_once():
    runtime = acl.Runtime()
    assert runtime.init("Ascend910B2") == 0
    barrier = threading.Barrier(THREADS, timeout=60)
    results, errors = {}, []

    def run(i):
        try:
            worker(runtime, i, barrier, results)
        except BaseException as e:  # surface a worker's failure in the test
            errors.append((i, e))
            barrier.abort()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert runtime.finalize() == 0
    assert errors == []
    assert runtime.leak_report == []
    assert sorted(results) == list(range(THREADS))
    for g, f, t, out in results.values():
        np.testing.assert_array_equal(bits(out), bits(expected_910b(g, f, t)))
