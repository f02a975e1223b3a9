"""aclnnSigmoidBackward and aclnnSeluBackward through the C ABI (the library loaded into this
Python with ctypes, as a C program calls it): in the fast mode and the emulator mode, the result
is the numpy API's for the SoC's semantics bit for bit (broadcasting, promotion, 0-d, NaNs), and
what the numpy API refuses is a 161002 status with a message."""
from __future__ import annotations

import ctypes

import numpy as np
import pytest

import opsnn
from opsnn import acl
from opsnn.dtypes import bfloat16

ACL_DTYPE = {np.dtype(np.float16): acl.ACL_FLOAT16, np.dtype(bfloat16): acl.ACL_BF16,
             np.dtype(np.float32): acl.ACL_FLOAT, np.dtype(np.float64): acl.ACL_DOUBLE}


@pytest.fixture(params=["fast", "emulator"])
def device(lib, request, monkeypatch):
    """aclInit in the mode (OPSNN_DEVICE_MODE is read there), a device and a stream; released after."""
    monkeypatch.setenv("OPSNN_DEVICE_MODE", request.param)
    assert lib.aclInit(None) == 0 and lib.aclrtSetDevice(0) == 0
    assert lib.opsnnGetDeviceMode() == request.param.encode()
    stream = ctypes.c_void_p()
    assert lib.aclrtCreateStream(ctypes.byref(stream)) == 0
    held: list = []
    yield stream, held
    for kind, handle in reversed(held):
        (lib.aclDestroyTensor if kind == "tensor" else lib.aclrtFree)(handle)
    lib.aclrtDestroyStream(stream)
    lib.aclrtResetDevice(0)
    assert lib.aclFinalize() == 0


def _tensor(lib, held, host: np.ndarray):
    """A device copy of a C-contiguous host array and a row-major aclTensor over it."""
    host = np.ascontiguousarray(host)
    addr = ctypes.c_void_p()
    assert lib.aclrtMalloc(ctypes.byref(addr), max(host.nbytes, 1), 0) == 0
    held.append(("buffer", addr.value))
    if host.nbytes:
        assert lib.aclrtMemcpy(addr, host.nbytes, host.ctypes.data, host.nbytes, acl.ACL_MEMCPY_HOST_TO_DEVICE) == 0
    ndim = host.ndim
    dims = (ctypes.c_int64 * max(ndim, 1))(*host.shape)
    strides = (ctypes.c_int64 * max(ndim, 1))(*(s // host.itemsize for s in host.strides))
    storage = (ctypes.c_int64 * 1)(host.size)
    handle = lib.aclCreateTensor(dims, ndim, ACL_DTYPE[host.dtype], strides, 0, acl.ACL_FORMAT_ND, storage, 1, addr)
    held.append(("tensor", handle))
    return addr, handle


def _call(lib, device, api: str, a: np.ndarray, b: np.ndarray, out_shape, out_dtype):
    """(status, result or None) of aclnn<api>(a, b, out) through both phases."""
    stream, held = device
    _, ta = _tensor(lib, held, a)
    _, tb = _tensor(lib, held, b)
    out = np.zeros(out_shape, out_dtype)
    out_addr, to = _tensor(lib, held, out)
    size, executor = ctypes.c_uint64(), ctypes.c_void_p()
    status = getattr(lib, f"aclnn{api}GetWorkspaceSize")(ctypes.c_void_p(ta), ctypes.c_void_p(tb),
                                                         ctypes.c_void_p(to), ctypes.byref(size),
                                                         ctypes.byref(executor))
    if status:
        return status, lib.aclGetRecentErrMsg()
    workspace = ctypes.c_void_p()
    if size.value:
        assert lib.aclrtMalloc(ctypes.byref(workspace), size.value, 0) == 0
        held.append(("buffer", workspace.value))
    assert getattr(lib, f"aclnn{api}")(workspace, size, executor, stream) == 0
    assert lib.aclrtSynchronizeStream(stream) == 0
    if out.nbytes:
        assert lib.aclrtMemcpy(out.ctypes.data, out.nbytes, out_addr, out.nbytes, acl.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    return 0, out


def _operands(rng, dtype, gshape, yshape):
    g = rng.normal(0, 3, gshape).astype(dtype)
    y = rng.uniform(-2, 2, yshape).astype(dtype)
    if g.size > 2:
        g.reshape(-1)[:3] = [np.nan, np.inf, -0.0]
    if y.size > 2:
        y.reshape(-1)[:3] = [-np.inf, np.nan, 0.0]
    return g, y


@pytest.mark.parametrize(("gdtype", "ydtype", "gshape", "yshape"), [
    (np.float32, np.float32, (3, 70), (3, 70)), (np.float16, np.float16, (2, 5, 9), (5, 9)),
    (bfloat16, bfloat16, (40,), (1,)), (np.float16, bfloat16, (4, 1), (1, 6)), (np.float64, np.float32, (7,), (7,)),
    (np.float32, np.float32, (), ())])
def test_sigmoid_backward_from_c_is_the_numpy_api(lib, device, gdtype, ydtype, gshape, yshape):
    g, y = _operands(np.random.default_rng(7), np.float64, gshape, yshape)
    g, y = g.astype(gdtype), y.astype(ydtype)
    want = opsnn.sigmoid_backward(g, y, semantics="ascend910b")
    status, got = _call(lib, device, "SigmoidBackward", g, y, want.shape, want.dtype)
    assert status == 0 and got.shape == want.shape
    assert np.array_equal(got.view(f"u{got.itemsize}"), want.view(f"u{want.itemsize}"))


@pytest.mark.parametrize("dtype", [np.float16, bfloat16, np.float32])
@pytest.mark.parametrize("shape", [(3, 70), (5,), ()])
def test_selu_backward_from_c_is_the_numpy_api(lib, device, dtype, shape):
    g, r = _operands(np.random.default_rng(3), np.float64, shape, shape)
    g, r = g.astype(dtype), r.astype(dtype)
    want = opsnn.selu_backward(g, r, semantics="ascend910b")
    status, got = _call(lib, device, "SeluBackward", g, r, want.shape, want.dtype)
    assert status == 0 and np.array_equal(got.view(f"u{got.itemsize}"), want.view(f"u{want.itemsize}"))


@pytest.mark.parametrize(("api", "a", "b", "out_dtype"), [
    ("SeluBackward", np.zeros(4, np.float32), np.zeros(4, np.float16), np.float32),  # one dtype
    ("SeluBackward", np.zeros(4, np.float32), np.zeros((1, 4), np.float32), np.float32),  # one shape
    ("SigmoidBackward", np.zeros(4, np.float32), np.zeros(5, np.float32), np.float32)])  # broadcast
def test_what_the_numpy_api_refuses_is_161002_from_c(lib, device, api, a, b, out_dtype):
    fn = opsnn.selu_backward if api == "SeluBackward" else opsnn.sigmoid_backward
    with pytest.raises((TypeError, ValueError)):
        fn(a, b, semantics="ascend910b")
    status, message = _call(lib, device, api, a, b, a.shape, out_dtype)
    assert status == 161002 and message
