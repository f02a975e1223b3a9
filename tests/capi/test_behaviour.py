"""One C++ program (programs/behaviour.cpp) exercises the runtime, meta and operator calls; each
fact it prints must be the Python layer's answer (its status constants) or the documented one."""
from __future__ import annotations

import pytest

from opsnn import acl, aclnn

from .conftest import PROGRAMS, run, values

A, N = acl, aclnn
EXPECTED = {
    "soc_before_init": "(null)", "set_device_before_init": A.ACL_ERROR_UNINITIALIZE, "msg_before_init_nonnull": "yes",
    "init": 0, "init_again": A.ACL_ERROR_REPEAT_INITIALIZE, "soc": "Ascend910B2", "set_device": 0,
    "set_device_bad": A.ACL_ERROR_RT_INVALID_DEVICEID, "create_stream": 0,
    "create_stream_null": A.ACL_ERROR_INVALID_PARAM, "device_count_status": 0, "device_count": 1,
    "malloc_zero": A.ACL_ERROR_INVALID_PARAM, "malloc_zero_msg_has_size": 1, "msg_after_read": "(null)",
    "malloc": 0, "malloc2": 0, "malloc_bad_policy": A.ACL_ERROR_INVALID_PARAM,
    "h2d": 0, "d2d": 0, "d2h": 0, "d2h_same": 1, "count_over_destmax": A.ACL_ERROR_INVALID_PARAM,
    "h2d_past_allocation": A.ACL_ERROR_RT_PARAM_INVALID, "h2h": 0, "h2h_same": 1, "default_d2h": 0,
    "default_d2h_same": 1, "bad_kind": A.ACL_ERROR_INVALID_PARAM, "d2h_null_dst": A.ACL_ERROR_RT_PARAM_INVALID,
    "memset": 0, "memset_bytes": 1, "memset_over_max": A.ACL_ERROR_INVALID_PARAM, "malloc_host": 0,
    "h2d_from_malloc_host": 0, "free_host": 0, "free_twice": A.ACL_ERROR_RT_PARAM_INVALID,
    # fp16: 1.0, a tie to even, saturation (NaN/inf -> 0x7BFF), a subnormal; fp16 -> float reads the
    # all-ones exponent as an ordinary one
    "f16_one": 0x3C00, "f16_round_even": 0x3C00, "f16_nan": 0x7BFF, "f16_inf": 0x7BFF, "f16_minus_inf": 0xFBFF,
    "f16_big": 0x7BFF, "f16_subnormal": 3, "f16_to_f_inf": 65536, "f16_to_f_nan": 98304, "f16_to_f_half": 500,
    "get_view_shape": 0, "view_shape": 23, "get_view_strides": 0, "view_strides": 12, "get_storage_shape": 0,
    "storage_shape": 12, "get_offset": 0, "offset": 1, "get_format": 0, "format": A.ACL_FORMAT_ND,
    "get_dtype": 0, "dtype": A.ACL_FLOAT, "get_view_shape_null_out": N.ACLNN_ERR_PARAM_NULLPTR,
    "get_view_shape_null_tensor": N.ACLNN_ERR_PARAM_NULLPTR, "init_tensor": 0, "dtype_after_init": A.ACL_INT32,
    "destroy_tensor": 0, "destroy_tensor_twice": A.ACL_ERROR_INVALID_PARAM, "destroy_null": 0,
    "create_tensor_null_dims": 1, "create_tensor_0d": 1, "create_scalar_null": 1, "arrays": 1, "int_array_null": 1,
    "destroy_arrays": 0,
    "backward": 0, "backward_out_x10": 444342,  # [0, 4.4, 4.3, 4.2]: the threshold read at creation (1.0)
    "null_self": N.ACLNN_ERR_PARAM_NULLPTR, "null_executor_set_to_null": 1, "null_threshold": N.ACLNN_ERR_PARAM_NULLPTR,
    "null_workspace_size_out": N.ACLNN_ERR_PARAM_NULLPTR, "null_executor_out": N.ACLNN_ERR_PARAM_NULLPTR,
    "null_phase2_executor": N.ACLNN_ERR_PARAM_NULLPTR, "null_threshold_value": N.ACLNN_ERR_PARAM_NULLPTR,
    "null_inplace_self": N.ACLNN_ERR_PARAM_NULLPTR, "null_msg_says_nullptr": 1,
    "double_self": N.ACLNN_ERR_PARAM_INVALID, "rank9": N.ACLNN_ERR_PARAM_INVALID,
    "rank9_threshold": N.ACLNN_ERR_PARAM_INVALID, "not_broadcastable": N.ACLNN_ERR_PARAM_INVALID,
    "destroyed_tensor": N.ACLNN_ERR_PARAM_NULLPTR,
    "phase1": 0, "run_once": 0, "run_twice": N.ACLNN_ERR_INNER_NULLPTR, "sync": 0, "phase1_small_workspace": 0,
    "run_small_workspace": N.ACLNN_ERR_RUNTIME_ERROR, "phase1_destroyed": 0, "destroy_executor": 0,
    "strided": 0, "strided_out_x10": 434400,  # {0, 4.3, 4.4, 0}: see the program
    "default_stream": 0, "destroy_stream": 0, "destroy_stream_twice": A.ACL_ERROR_RT_INVALID_HANDLE,
    "reset_device": 0, "finalize": 0, "finalize_twice": A.ACL_ERROR_REPEAT_FINALIZE,
}


@pytest.fixture(scope="module")
def facts(compiled):
    done = run(compiled(PROGRAMS / "behaviour.cpp"))
    assert done.returncode == 0, done.stderr
    return values(done.stdout)


@pytest.mark.parametrize("key", list(EXPECTED))
def test_fact(facts, key):
    assert facts.get(key) == str(EXPECTED[key])


def test_nothing_unchecked(facts):
    assert sorted(set(facts) - set(EXPECTED)) == []
