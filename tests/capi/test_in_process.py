"""The library loaded into this Python (ctypes): it shares the running interpreter, and a Python
exception inside any call is a status and a recent-error message, never a crash."""
from __future__ import annotations

import ctypes

import pytest

from opsnn import acl, aclnn
from opsnn.aclnn import checks
from opsnn.capi import bridge


def test_an_exception_in_a_runtime_call(lib, monkeypatch):
    def boom(device_id):
        raise RuntimeError("boom")
    monkeypatch.setattr(acl.rt, "set_device", boom)
    assert lib.aclrtSetDevice(0) == 500000  # ACL_ERROR_INTERNAL_ERROR
    assert lib.aclGetRecentErrMsg() == b"opsnn: aclrtSetDevice: RuntimeError: boom"
    assert lib.aclGetRecentErrMsg() is None


def test_an_exception_in_an_operator(lib, monkeypatch):
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    try:
        def boom(*args, **kwargs):
            raise KeyError("deep inside")
        monkeypatch.setattr(checks, "check_not_null", boom)
        size, executor = ctypes.c_uint64(7), ctypes.c_void_p(1)
        status = lib.aclnnThresholdBackwardGetWorkspaceSize(None, None, None, None, ctypes.byref(size),
                                                            ctypes.byref(executor))
        assert (status, size.value, executor.value) == (aclnn.ACLNN_ERR_INNER, 0, None)
        assert lib.aclGetRecentErrMsg() == b"opsnn: aclnnThresholdBackwardGetWorkspaceSize: KeyError: 'deep inside'"
    finally:
        acl.rt.reset_device(0)
        acl.finalize()


def test_scalar_and_tensor_handles_name_the_python_objects(lib):
    value = ctypes.c_int16(-3)
    handle = lib.aclCreateScalar(ctypes.byref(value), acl.ACL_INT16)
    scalar = bridge.HANDLES.get(handle)
    assert isinstance(scalar, acl.AclScalar) and scalar.value == -3 and scalar.value.dtype.name == "int16"
    dims = (ctypes.c_int64 * 2)(6, 5)
    strides = (ctypes.c_int64 * 2)(10, 1)
    storage = (ctypes.c_int64 * 1)(77)  # the last element: 22 + 5 * 10 + 4 * 1
    handle = lib.aclCreateTensor(dims, 2, acl.ACL_FLOAT16, strides, 22, acl.ACL_FORMAT_ND,
                                 storage, 1, 0x1000)
    tensor = bridge.HANDLES.get(handle)
    assert (tensor.view_dims, tensor.strides, tensor.offset, tensor.storage_dims, tensor.data_ptr) == \
        ((6, 5), (10, 1), 22, (77,), 0x1000)
    assert lib.aclDestroyTensor(ctypes.c_void_p(handle)) == 0 and tensor.destroyed


def test_sanitizer_switch_marks_every_kernel_launch(monkeypatch):
    from opsnn.aclnn.steps import KernelLaunchStep
    monkeypatch.setenv("OPSNN_SANITIZE", "1")
    assert bridge.init() == 0
    try:
        assert acl.rt.set_device(0) == 0
        (pair,) = bridge.apis(("aclnnThresholdBackward",))
        shape = (4,)
        ptr, _ = acl.rt.malloc(16, 0)
        t = acl.create_tensor(shape, acl.ACL_FLOAT, None, 0, acl.ACL_FORMAT_ND, shape, ptr)
        handles = [bridge.HANDLES.add(x) for x in (t, t, acl.create_scalar(0.5, acl.ACL_FLOAT), t)]
        status, _, executor, *_ = pair[0](tuple(handles))
        steps = [s for s in bridge.HANDLES.get(executor).steps if isinstance(s, KernelLaunchStep)]
        assert status == 0 and steps and all(s.options["sanitize"] for s in steps)
        acl.rt.free(ptr)
        acl.rt.reset_device(0)
    finally:
        monkeypatch.setenv("OPSNN_SANITIZE", "")
        bridge.finalize()
        bridge._sanitize = False


def test_a_private_format_is_recorded_and_warned_on_stderr(lib, capsys):
    """aclCreateTensor with FRACTAL_NZ: a tensor (its format recorded) and one stderr line of the
    program's own, not a Python warning naming a file; an unknown format is NULL."""
    i64 = ctypes.c_int64 * 1
    dims = i64(4)
    handle = lib.aclCreateTensor(dims, 1, acl.ACL_FLOAT, None, 0, acl.ACL_FORMAT_FRACTAL_NZ, dims, 1, None)
    assert handle
    fmt = ctypes.c_int(-7)
    assert lib.aclGetFormat(ctypes.c_void_p(handle), ctypes.byref(fmt)) == 0 and fmt.value == 29
    assert lib.aclDestroyTensor(ctypes.c_void_p(handle)) == 0
    err = capsys.readouterr().err
    assert err == ("opsnn: aclCreateTensor: format FRACTAL_NZ (29) is private to the device; it is recorded, "
                   "and the operators read the data as ND\n")
    assert not lib.aclCreateTensor(dims, 1, acl.ACL_FLOAT, None, 0, 5, dims, 1, None)
    assert b"unknown aclFormat 5" in lib.aclGetRecentErrMsg()


def test_an_integer_scalar_past_the_tensor_dtype_is_refused(lib):
    """uint8 threshold 300 would wrap to 44 (static_cast): 161002 from C too, executor NULL."""
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    try:
        ptr, _ = acl.rt.malloc(4, 0)
        dims = (ctypes.c_int64 * 1)(4)
        self_ = lib.aclCreateTensor(dims, 1, acl.ACL_UINT8, None, 0, acl.ACL_FORMAT_ND, dims, 1, ptr)
        out = lib.aclCreateTensor(dims, 1, acl.ACL_UINT8, None, 0, acl.ACL_FORMAT_ND, dims, 1, ptr)
        size, executor = ctypes.c_uint64(7), ctypes.c_void_p(1)
        for bad, good, message in ((300, 255, b"threshold 300 cannot be converted to uint8 without overflow"),
                                   (-1, 0, b"threshold -1 cannot be converted to uint8 without overflow")):
            threshold = lib.aclCreateScalar(ctypes.byref(ctypes.c_int32(bad)), acl.ACL_INT32)
            value = lib.aclCreateScalar(ctypes.byref(ctypes.c_int32(good)), acl.ACL_INT32)
            status = lib.aclnnThresholdGetWorkspaceSize(ctypes.c_void_p(self_), ctypes.c_void_p(threshold),
                                                        ctypes.c_void_p(value), ctypes.c_void_p(out),
                                                        ctypes.byref(size), ctypes.byref(executor))
            assert (status, size.value, executor.value) == (aclnn.ACLNN_ERR_PARAM_INVALID, 0, None)
            assert message in lib.aclGetRecentErrMsg()
            status = lib.aclnnThresholdGetWorkspaceSize(ctypes.c_void_p(self_), ctypes.c_void_p(value),
                                                        ctypes.c_void_p(value), ctypes.c_void_p(out),
                                                        ctypes.byref(size), ctypes.byref(executor))
            assert status == 0 and executor.value
        acl.rt.free(ptr)
    finally:
        acl.rt.reset_device(0)
        acl.finalize()


def test_an_api_is_resolved_at_its_first_call_and_imports_only_its_operator():
    """The library's start imports no operator's op_api; a call imports its own (the first result
    does not wait for every operator); an API nothing declares fails each call with 561000."""
    import subprocess
    import sys
    code = """
import sys
from opsnn.capi import bridge
from opsnn import acl
assert bridge.init() == 0 and bridge.set_device(0) == 0
pairs = bridge.apis(("aclnnThresholdBackward", "aclnnNoSuchOp"))
lazy = pairs[0]
loaded = lambda: sorted(m for m in sys.modules if m.endswith(".op_api"))
print(loaded())
status, size, executor = pairs[0][0]((0, 0, 0, 0))
print(status, loaded())
# the C library reads this list at every call: the API's own pair has taken the lazy one's place
print(pairs[0] is not lazy, pairs[0][0].__qualname__, pairs[1][0].__qualname__)
for _ in range(2):
    print(pairs[1][0]((0,)), bridge.take_message(), pairs[1][1](0, 0, 0, 0), bridge.take_message())
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0] == "[]"
    status, loaded = out[1].split(" ", 1)
    assert int(status) == aclnn.ACLNN_ERR_PARAM_NULLPTR
    assert "opsnn.activation.threshold_grad_v2_d.op_api" in loaded and "hardtanh_grad" not in loaded
    assert out[2] == "True _api_pair.<locals>.phase1 _lazy_pair.<locals>.phase1"
    missing = "opsnn: aclnnNoSuchOp is declared but no operator provides it"
    assert out[3] == out[4] == f"(561000, 0, 0) {missing} 561000 {missing}"


@pytest.mark.parametrize("threshold", [1.0, 0.0])  # 0.0: the ReluGrad path
def test_a_fast_mode_first_call_imports_neither_the_emulator_nor_the_plugin_list(threshold):
    """What the first result after a C program's start waits for (docs/c-abi.md, the 150 ms
    target): the fast device mode computes without the emulator's instructions and launch, and an
    in-tree API is found without listing installed plug-ins (importlib.metadata)."""
    import subprocess
    import sys
    code = f"""
import sys
import numpy as np
from opsnn import acl
from opsnn.capi import bridge
assert bridge.init() == 0 and acl.rt.set_device(0) == 0 and bridge._mode == "fast"
(pair,) = bridge.apis(("aclnnThresholdBackward",))
n = 4
values = np.array([0.5, 2.0, -1.0, 3.0], np.float32)
ptrs = []
for v in (values, values, np.zeros(n, np.float32)):
    p, _ = acl.rt.malloc(v.nbytes, 0)
    acl.rt.memcpy(p, v.nbytes, acl.util.numpy_to_ptr(v), v.nbytes, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    ptrs.append(p)
tensors = [acl.create_tensor((n,), acl.ACL_FLOAT, None, 0, acl.ACL_FORMAT_ND, (n,), p) for p in ptrs]
scalar = acl.create_scalar({threshold}, acl.ACL_FLOAT)
handles = tuple(bridge.HANDLES.add(x) for x in (tensors[0], tensors[1], scalar, tensors[2]))
status, size, executor, *_ = pair[0](handles)  # and the C plan, for the C library
assert status == 0, bridge.take_message()
ws, _ = acl.rt.malloc(max(size, 1), 0)
assert pair[1](ws, size, executor, 0) == 0, bridge.take_message()
assert bridge.synchronize_stream(0) == 0
out = np.zeros(n, np.float32)
acl.rt.memcpy(acl.util.numpy_to_ptr(out), out.nbytes, ptrs[2], out.nbytes, acl.ACL_MEMCPY_DEVICE_TO_HOST)
print(out.tolist())
print(sorted(m for m in sys.modules if m.startswith("opsnn.ascendc.") or m == "importlib.metadata"))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    expected = [0.0, 2.0, 0.0, 3.0] if threshold == 1.0 else [0.5, 2.0, -0.0, 3.0]  # ReluGrad: -1 * 0
    assert out[0] == str(expected)
    assert out[1] == "['opsnn.ascendc.gm', 'opsnn.ascendc.kernel_arg']"


def test_retired_handles_answer_until_the_oldest_are_forgotten(monkeypatch):
    """A run executor's handle still names it (a second run is a status, not a crash) for the
    last RETIRED_KEPT retirements; older ones are unknown handles."""
    monkeypatch.setattr(bridge, "RETIRED_KEPT", 3)
    handles = bridge.Handles()
    objects = [object() for _ in range(5)]
    ids = [handles.add(o) for o in objects]
    assert len(set(ids)) == 5 and all(handles.get(h) is o for h, o in zip(ids, objects, strict=True))
    for h in ids:
        handles.retire(h)
    handles.retire(ids[0])  # retiring twice changes nothing
    assert all(isinstance(handles.get(h), bridge.Dangling) for h in ids[:2])
    assert [handles.get(h) for h in ids[2:]] == objects[2:]
    assert handles.live == {} and len(handles._retired) == len(handles._retired_order) == 3
