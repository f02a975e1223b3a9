"""Child process for test_gc_reentry.py: runs one opsnn path while the cyclic collector fires at
every allocation count in a range, with garbage whose finalizer frees registered arrays (weakref
callbacks) and calls the same opsnn path again. Prints "ok" when every call returned; a deadlock
shows as the parent's time limit.

usage: python gc_reentry_child.py PATH FIRST LAST     (PATH: emulator | aclnn | fast | numpy | c)
  fast: backend="fast" on a transposed view (the C engine's general way), c: the express lane on a
  contiguous array (the C engine's flat ranges), numpy: backend="fast" on the numpy engine"""
from __future__ import annotations

import gc
import os
import sys

import numpy as np

PATH, FIRST, LAST = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
if PATH == "numpy":
    os.environ["OPSNN_FAST_ENGINE"] = "numpy"
elif PATH in ("fast", "c"):
    os.environ["OPSNN_FAST_ENGINE"] = "c"
import opsnn  # noqa: E402
from opsnn import acl, aclnn  # noqa: E402


def aclnn_call(grad: np.ndarray) -> np.ndarray:
    """aclnnThresholdBackward through the pyACL-style runtime, host arrays registered by address."""
    nbytes = grad.nbytes
    out_host = np.empty_like(grad)
    buffers, tensors = [], []
    for host in (grad, grad, out_host):
        addr, ret = acl.rt.malloc(nbytes, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        assert ret == 0, ret
        assert acl.rt.memcpy(addr, nbytes, acl.util.numpy_to_ptr(host), nbytes, acl.ACL_MEMCPY_HOST_TO_DEVICE) == 0
        buffers.append(addr)
        tensors.append(acl.create_tensor(list(grad.shape), acl.ACL_FLOAT, [1], 0, acl.ACL_FORMAT_ND,
                                         list(grad.shape), addr))
    scalar = acl.create_scalar(0.5, acl.ACL_FLOAT)
    size, executor, ret = aclnn.threshold_backward_get_workspace_size(tensors[0], tensors[1], scalar, tensors[2])
    assert ret == 0, (ret, aclnn.get_recent_err_msg())
    workspace = 0
    if size:
        workspace, ret = acl.rt.malloc(size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        assert ret == 0, ret
        buffers.append(workspace)
    stream, ret = acl.rt.create_stream()
    assert aclnn.threshold_backward(workspace, size, executor, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(out_host), nbytes, buffers[2], nbytes,
                         acl.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    for t in tensors:
        acl.destroy_tensor(t)
    acl.destroy_scalar(scalar)
    for addr in buffers:
        acl.rt.free(addr)
    acl.rt.destroy_stream(stream)
    return out_host


SIZE = {"emulator": 4, "aclnn": 4, "fast": 1 << 20, "numpy": 1 << 20, "c": 1 << 20}[PATH]


def call(grad: np.ndarray) -> np.ndarray:
    if PATH == "emulator":
        return opsnn.threshold_backward(grad, grad, 0.5, semantics="ascend910b", backend="emulator")
    if PATH == "aclnn":
        return aclnn_call(grad)
    if PATH == "c":
        return opsnn.threshold_backward(grad, grad, 0.5)  # the express lane
    if PATH == "fast":
        square = grad.reshape(1024, 1024).T  # the C engine's strided walk (tiles), on its pool
        return opsnn.threshold_backward(square, square, 0.5, backend="fast")
    return opsnn.threshold_backward(grad, grad, 0.5, backend="fast")


class Garbage:
    """A cycle: only the cyclic collector frees it, at whatever allocation trips its threshold."""

    def __init__(self, array):
        self.self, self.array = self, array

    def __del__(self):  # a finalizer that uses opsnn, as user code may
        call(np.ones(SIZE, np.float32))


if PATH == "aclnn":
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
expected = call(np.ones(SIZE, np.float32))
for k in range(FIRST, LAST):
    a = np.ones(SIZE, np.float32)
    call(a)  # registers a (emulator, aclnn paths)
    Garbage(a)
    del a
    gc.set_threshold(gc.get_count()[0] + k)
    result = call(np.ones(SIZE, np.float32))
    assert np.array_equal(result, expected)
gc.set_threshold(700)
print("ok")
