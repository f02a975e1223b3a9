"""C ABI hardening (issue 35 items 13, 14): a phase-2 call refused for its workspace (361001) or
stream leaves the executor usable, so the corrected call runs it (it answered 561103 'already
been run'); aclnnSeluBackward takes a rank-9 tensor (upstream reshapes it to 1-d) and the numpy
API's ascend semantics compute it too, one rule for both."""
from __future__ import annotations

import ctypes

import numpy as np
import pytest

import opsnn
from opsnn import acl, aclnn


def _tensor(lib, held, host: np.ndarray):
    addr = ctypes.c_void_p()
    assert lib.aclrtMalloc(ctypes.byref(addr), max(host.nbytes, 1), 0) == 0
    held.append(("buffer", addr.value))
    assert lib.aclrtMemcpy(addr, host.nbytes, host.ctypes.data, host.nbytes, acl.ACL_MEMCPY_HOST_TO_DEVICE) == 0
    dims = (ctypes.c_int64 * host.ndim)(*host.shape)
    handle = lib.aclCreateTensor(dims, host.ndim, acl.ACL_FLOAT, None, 0, acl.ACL_FORMAT_ND, dims, host.ndim, addr)
    held.append(("tensor", handle))
    return addr, handle


@pytest.fixture(params=["fast", "emulator"])
def device(lib, request, monkeypatch):
    monkeypatch.setenv("OPSNN_DEVICE_MODE", request.param)
    assert lib.aclInit(None) == 0 and lib.aclrtSetDevice(0) == 0
    stream = ctypes.c_void_p()
    assert lib.aclrtCreateStream(ctypes.byref(stream)) == 0
    held: list = []
    yield stream, held
    for kind, handle in reversed(held):
        (lib.aclDestroyTensor if kind == "tensor" else lib.aclrtFree)(handle)
    lib.aclrtDestroyStream(stream)
    lib.aclrtResetDevice(0)
    assert lib.aclFinalize() == 0


def test_a_refused_phase_2_leaves_the_executor_usable(lib, device):
    """aclnnThresholdBackward with a broadcast grad needs a workspace: too small (361001), then
    NULL (361001), then the right one: the result, once; a third run is 561103."""
    stream, held = device
    grad = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    feature = np.array([0.0, 2.0, 3.0], np.float32)
    _, g = _tensor(lib, held, grad)
    _, f = _tensor(lib, held, np.broadcast_to(feature, (2, 3)).copy()[:1].reshape(1, 3))
    out_addr, out = _tensor(lib, held, np.zeros((2, 3), np.float32))
    threshold = lib.aclCreateScalar(ctypes.byref(ctypes.c_float(1.0)), acl.ACL_FLOAT)
    size, executor = ctypes.c_uint64(), ctypes.c_void_p()
    handles = (ctypes.c_void_p(h) for h in (g, f, threshold, out))
    assert lib.aclnnThresholdBackwardGetWorkspaceSize(*handles, ctypes.byref(size), ctypes.byref(executor)) == 0
    assert size.value > 0
    workspace = ctypes.c_void_p()
    assert lib.aclrtMalloc(ctypes.byref(workspace), size.value, 0) == 0
    held.append(("buffer", workspace.value))
    run = lib.aclnnThresholdBackward
    assert run(workspace, ctypes.c_uint64(size.value - 1), executor, stream) == aclnn.ACLNN_ERR_RUNTIME_ERROR
    assert b"smaller than" in lib.aclGetRecentErrMsg()
    assert run(None, ctypes.c_uint64(size.value), executor, stream) == aclnn.ACLNN_ERR_RUNTIME_ERROR
    assert run(workspace, ctypes.c_uint64(size.value), executor, stream) == 0
    assert lib.aclrtSynchronizeStream(stream) == 0
    host = np.empty((2, 3), np.float32)
    assert lib.aclrtMemcpy(host.ctypes.data, host.nbytes, out_addr, host.nbytes, acl.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert host.tolist() == [[0, 2, 3], [0, 5, 6]]
    assert run(workspace, ctypes.c_uint64(size.value), executor, stream) == aclnn.ACLNN_ERR_INNER_NULLPTR
    assert b"already been run" in lib.aclGetRecentErrMsg()
    lib.aclDestroyScalar(ctypes.c_void_p(threshold))


def test_the_python_layer_too():
    """aclnn's phase 2 from Python: a refused call (workspace too small) then the right one."""
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    try:
        grad, feature = np.ones((2, 3), np.float32), np.array([[0.0, 2.0, 3.0]], np.float32)
        held = []
        tensors = []
        for host in (grad, feature, np.zeros((2, 3), np.float32)):
            addr, _ = acl.rt.malloc(host.nbytes, 0)
            acl.rt.memcpy(addr, host.nbytes, acl.util.numpy_to_ptr(host), host.nbytes, acl.ACL_MEMCPY_HOST_TO_DEVICE)
            held.append(addr)
            tensors.append(acl.create_tensor(list(host.shape), acl.ACL_FLOAT, None, 0, acl.ACL_FORMAT_ND,
                                             list(host.shape), addr))
        threshold = acl.create_scalar(1.0, acl.ACL_FLOAT)
        size, executor, ret = aclnn.threshold_backward_get_workspace_size(tensors[0], tensors[1], threshold,
                                                                           tensors[2])
        assert ret == 0 and size > 0
        workspace, _ = acl.rt.malloc(size, 0)
        assert aclnn.threshold_backward(workspace, size - 1, executor, None) == aclnn.ACLNN_ERR_RUNTIME_ERROR
        assert aclnn.threshold_backward(workspace, size, executor, None) == 0
        assert aclnn.threshold_backward(workspace, size, executor, None) == aclnn.ACLNN_ERR_INNER_NULLPTR
        assert acl.rt.synchronize_stream(None) == 0
        for t in tensors:
            acl.destroy_tensor(t)
        for addr in (*held, workspace):
            acl.rt.free(addr)
    finally:
        acl.rt.reset_device(0)
        acl.finalize()


def test_selu_takes_rank_9_on_every_surface(lib, device):
    """aclnnSeluBackward reshapes a rank-9 tensor to 1-d (upstream's ReshapeLongTensor); the C
    ABI computes it, and the numpy API's ascend semantics give the same bits on every backend."""
    stream, held = device
    rng = np.random.default_rng(0)
    grad = rng.standard_normal((1, 2, 1, 1, 3, 1, 1, 2, 1)).astype(np.float32)
    result = rng.standard_normal(grad.shape).astype(np.float32)
    want = opsnn.selu_backward(grad.reshape(-1), result.reshape(-1), semantics="ascend910b").reshape(grad.shape)
    for backend in ("auto", "reference", "emulator"):
        got = opsnn.selu_backward(grad, result, semantics="ascend910b", backend=backend)
        assert got.shape == grad.shape and (got.view(np.uint32) == want.view(np.uint32)).all(), backend
    _, g = _tensor(lib, held, grad)
    _, r = _tensor(lib, held, result)
    out_addr, out = _tensor(lib, held, np.zeros(grad.shape, np.float32))
    size, executor = ctypes.c_uint64(), ctypes.c_void_p()
    assert lib.aclnnSeluBackwardGetWorkspaceSize(ctypes.c_void_p(g), ctypes.c_void_p(r), ctypes.c_void_p(out),
                                                 ctypes.byref(size), ctypes.byref(executor)) == 0
    workspace = ctypes.c_void_p()
    if size.value:
        assert lib.aclrtMalloc(ctypes.byref(workspace), size.value, 0) == 0
        held.append(("buffer", workspace.value))
    assert lib.aclnnSeluBackward(workspace, size, executor, stream) == 0 and lib.aclrtSynchronizeStream(stream) == 0
    host = np.empty(grad.shape, np.float32)
    assert lib.aclrtMemcpy(host.ctypes.data, host.nbytes, out_addr, host.nbytes, acl.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert (host.view(np.uint32) == want.view(np.uint32)).all()
