"""What a CANN user meets beyond single calls (programs/process.cpp, one mode per run): fork()
beside a busy thread, other threads' stderr while aclInit starts Python, queued work that must
never be dropped, misuse refused in C words; and the two device modes agreeing bit for bit."""
from __future__ import annotations

import os
import re
import subprocess

import numpy as np
import pytest

from opsnn import acl

from .conftest import PROGRAMS, values


@pytest.fixture(scope="module")
def process(compiled):
    program = compiled(PROGRAMS / "process.cpp", std="c++11")

    def run(*argv, env=None):
        done = subprocess.run([str(program), *argv], capture_output=True, text=True, timeout=120,
                              env={**os.environ, "OPSNN_SANITIZE": "", **(env or {})})
        return values(done.stdout), done.stderr
    run.argv = [str(program)]
    return run


def test_fork_while_another_thread_is_inside_acl(process):
    facts, err = process("fork")
    assert facts == {"forks_ok": "3", "parent_still_works": "1"}, err


def test_other_threads_stderr_survives_aclinit(process):
    facts, err = process("stderr")
    assert facts == {"init": "0"}
    assert err.splitlines() == [f"line {i}" for i in range(400)]


@pytest.mark.parametrize("mode", ["fast", "emulator"])
def test_queued_work_is_never_dropped(process, mode):
    facts, err = process("queued", env={"OPSNN_DEVICE_MODE": mode})
    assert facts == {"launch": "0", "destroy": "0", "destroy_ran_the_work": "1", "launch2": "0", "racing_copy": "0",
                     "racing_copy_msg": "race", "copy_after_sync": "0", "result_right": "1"}
    assert err.startswith("opsnn: warning: aclrtMemcpy (kind 2) of 64 bytes races work still queued "
                          "(aclnnThresholdBackward on the default stream)"), err
    assert err.count("\n") == 1


def test_a_racing_copy_is_a_sanitizer_finding(process):
    facts, err = process("queued", env={"OPSNN_SANITIZE": "1"})
    assert facts["racing_copy"] == str(acl.ACL_ERROR_RT_AICORE_EXCEPTION) and facts["racing_copy_msg"] == "race"
    assert facts["result_right"] == "1" and facts["destroy_ran_the_work"] == "1"
    assert err.startswith("opsnn sanitizer: aclrtMemcpy (kind 2) of 64 bytes races work still queued"), err


def test_misuse_is_refused_in_c_words(process):
    facts, _ = process("misuse")
    assert facts == {"destroy_executor": "0", "launch_destroyed": "561103", "launch_destroyed_msg": "destroyed",
                     "free_null": "100000", "free_null_msg": "aclrtFree: devPtr is NULL",
                     "destroy_stream_null": "100000", "destroy_stream_null_msg": "aclrtDestroyStream: stream is NULL"}


def test_an_unknown_device_mode_fails_aclinit(process):
    facts, _ = process("stderr", env={"OPSNN_DEVICE_MODE": "turbo"})
    assert facts == {"init": str(acl.ACL_ERROR_INVALID_PARAM)}


@pytest.mark.parametrize("env, mode", [({}, "fast"), ({"OPSNN_DEVICE_MODE": "emulator"}, "emulator"),
                                       ({"OPSNN_SANITIZE": "1"}, "emulator")])
def test_the_device_mode_is_shown_where_a_cann_user_looks(process, env, mode):
    """aclrtGetSocName is the SoC's name, unchanged; opsnnGetDeviceMode (opsnn/opsnn_capi.h) says
    the mode (NULL before aclInit); CANN's log switches on the screen at INFO show aclInit's
    choice as a log line; without them nothing is printed."""
    facts, err = process("diag", env=env)
    assert facts == {"mode_before": "(null)", "mode_before_msg": "opsnnGetDeviceMode: aclInit has not been called",
                     "init": "0", "mode": mode, "soc": "Ascend910B2"}, err
    done = subprocess.run([*process.argv, "diag"], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "OPSNN_SANITIZE": "", "ASCEND_SLOG_PRINT_TO_STDOUT": "1",
                               "ASCEND_GLOBAL_LOG_LEVEL": "1", **env})
    (line,) = [x for x in done.stdout.splitlines() if x.startswith("[INFO]")]
    assert re.fullmatch(r"\[INFO\] OPSNN\(\d+,process[^)]*\):\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d{3}\.\d{3} "
                        rf"aclInit: SoC Ascend910B2, device mode {mode} \(.+\)", line), line
    assert done.stdout.splitlines().index(line) == 2  # printed by aclInit: after the lines before it
    for quiet in ({"ASCEND_GLOBAL_LOG_LEVEL": "3"}, {"ASCEND_SLOG_PRINT_TO_STDOUT": "0"}):
        done = subprocess.run([*process.argv, "diag"], capture_output=True, text=True, timeout=120,
                              env={**os.environ, "OPSNN_SANITIZE": "", "ASCEND_SLOG_PRINT_TO_STDOUT": "1",
                                   "ASCEND_GLOBAL_LOG_LEVEL": "1", **env, **quiet})
        assert "[INFO]" not in done.stdout


def test_threads_compute_in_both_modes(process):
    for mode in ("fast", "emulator"):
        facts, err = process("threads", "4", "3000", "3", env={"OPSNN_DEVICE_MODE": mode})
        assert facts["bad"] == "0", (mode, err)


# -- the fast mode's bits are the emulator's -----------------------------------------------------

SPECIAL = np.array([0.0, -0.0, 1.0, 1.5, -2.5, np.inf, -np.inf, np.nan, 1e-8, 65504.0, 3.0, 0.5], np.float32)


def _run_both(api_name: str, build):
    """Run `api_name` through the bridge in both modes on the same inputs; the outputs' bytes."""
    from opsnn.capi import bridge
    results = {}
    for mode in ("fast", "emulator"):
        assert bridge.init() == 0 and acl.rt.set_device(0) == 0
        bridge._mode = mode
        try:
            (pair,) = bridge.apis((api_name,))
            handles, out, nbytes, frees = build(bridge)
            status, size, executor, *_ = pair[0](handles)
            assert status == 0, bridge.take_message()
            ws, _ = acl.rt.malloc(max(size, 1), 0)
            assert pair[1](ws, size, executor, 0) == 0 and bridge.synchronize_stream(0) == 0
            host = np.zeros(nbytes, np.uint8)
            assert acl.rt.memcpy(acl.util.numpy_to_ptr(host), nbytes, out, nbytes, acl.ACL_MEMCPY_DEVICE_TO_HOST) == 0
            results[mode] = host.tobytes()
            for p in (*frees, ws):
                acl.rt.free(p)
        finally:
            bridge._mode = "fast"
            acl.rt.reset_device(0)
            bridge.finalize()
    return results


def _device(values: np.ndarray):
    ptr, _ = acl.rt.malloc(max(values.nbytes, 1), 0)
    acl.rt.memcpy(ptr, values.nbytes, acl.util.numpy_to_ptr(np.ascontiguousarray(values)), values.nbytes,
                  acl.ACL_MEMCPY_HOST_TO_DEVICE)
    return ptr


@pytest.mark.parametrize("dtype, code", [("float32", acl.ACL_FLOAT), ("float16", acl.ACL_FLOAT16),
                                         ("bfloat16", acl.ACL_BF16)])
@pytest.mark.parametrize("threshold", [0.0, 1.0, -2.5])
def test_threshold_backward_fast_mode_is_bit_identical(dtype, code, threshold):
    import ml_dtypes
    np_dtype = ml_dtypes.bfloat16 if dtype == "bfloat16" else np.dtype(dtype)
    grad = np.roll(SPECIAL, 3).astype(np_dtype)
    feature = SPECIAL.astype(np_dtype)
    n = len(SPECIAL)

    def build(bridge):
        g, f = _device(grad), _device(feature)
        o = _device(np.zeros(n, np_dtype))
        tensors = [acl.create_tensor((n,), code, None, 0, acl.ACL_FORMAT_ND, (n,), p) for p in (g, f, o)]
        scalar = acl.create_scalar(threshold, acl.ACL_FLOAT)
        handles = tuple(bridge.HANDLES.add(x) for x in (tensors[0], tensors[1], scalar, tensors[2]))
        return handles, o, grad.nbytes, (g, f, o)

    both = _run_both("aclnnThresholdBackward", build)
    assert both["fast"] == both["emulator"]


def test_a_remembered_phase_1_never_outlives_its_arguments():
    """The fast mode's phase-1 memo: the same live objects give a copy of the plan (a fresh,
    single-use executor); a destroyed tensor or one re-described (aclInitTensor) plans again."""
    from opsnn.aclnn import status
    from opsnn.capi import bridge
    assert bridge.init() == 0 and acl.rt.set_device(0) == 0
    try:
        (pair,) = bridge.apis(("aclnnThresholdBackward",))
        ptr, _ = acl.rt.malloc(64, 0)
        tensors = [acl.create_tensor((4,), acl.ACL_FLOAT, None, 0, acl.ACL_FORMAT_ND, (4,), ptr) for _ in range(3)]
        handles = tuple(bridge.HANDLES.add(x) for x in (tensors[0], tensors[1], acl.create_scalar(1.0, acl.ACL_FLOAT),
                                                         tensors[2]))
        first, second = pair[0](handles), pair[0](handles)
        a, b = bridge.HANDLES.get(first[2]), bridge.HANDLES.get(second[2])
        assert first[0] == second[0] == 0 and a is not b and a.steps is b.steps  # the copy shares the plan
        assert a.consume() and b.consume()  # each runs once, on its own
        assert bridge.init_tensor(handles[1], ((4,), acl.ACL_INT32, None, 0, acl.ACL_FORMAT_ND, (4,), ptr)) == 0
        assert pair[0](handles)[0] == status.ACLNN_ERR_PARAM_INVALID  # int32 beside float32: planned again
        assert bridge.destroy("tensor", handles[0]) == 0
        assert pair[0](handles)[0] == status.ACLNN_ERR_PARAM_NULLPTR  # a destroyed tensor, as in the emulator mode
        acl.rt.free(ptr)
    finally:
        acl.rt.reset_device(0)
        bridge.finalize()
