"""opsnn.acl at its boundary: an argument of the wrong type or width is a status (or None from a
create_* call, with the reason in get_recent_err_msg), never a Python exception; each init's
device addresses are its own."""
import warnings

import numpy as np
import pytest

from opsnn import acl
from opsnn.ascendc.gm import BASE_ADDRESS
from opsnn.dtypes import bfloat16

HUGE = acl.ACL_MEM_MALLOC_HUGE_FIRST
ND = acl.ACL_FORMAT_ND


@pytest.fixture
def rt():
    runtime = acl.Runtime()
    assert runtime.init() == 0 and runtime.set_device(0) == 0
    yield runtime
    if runtime.initialized:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", acl.AclLeakWarning)
            runtime.finalize()


# -- address spaces ---------------------------------------------------------------------------

def test_each_init_gets_its_own_address_range():
    runtime = acl.Runtime()
    assert runtime.init() == 0 and runtime.set_device(0) == 0
    old, ret = runtime.malloc(4000, HUGE)
    assert ret == 0 and (old - BASE_ADDRESS) % acl.runtime.ARENA_STRIDE == 0  # an arena's first address
    assert runtime.free(old) == 0 and runtime.reset_device(0) == 0 and runtime.finalize() == 0
    assert runtime.init() == 0 and runtime.set_device(0) == 0
    new, ret = runtime.malloc(4000, HUGE)
    assert ret == 0 and new != old and not runtime.is_device_pointer(old)
    assert runtime.free(old) == acl.ACL_ERROR_RT_PARAM_INVALID  # a pointer of the last epoch names nothing
    mine, _ = acl.rt.get_context()
    other = acl.Runtime()
    assert other.init() == 0 and other.set_device(0) == 0
    theirs, ret = other.malloc(4000, HUGE)
    assert ret == 0 and theirs not in (old, new) and not runtime.is_device_pointer(theirs)
    assert other.free(theirs) == 0 and other.reset_device(0) == 0 and other.finalize() == 0
    assert acl.rt.set_context(mine) == 0
    assert runtime.free(new) == 0 and runtime.reset_device(0) == 0 and runtime.finalize() == 0


# -- runtime calls ----------------------------------------------------------------------------

def test_init_with_a_soc_that_is_not_a_name():
    runtime = acl.Runtime()
    assert runtime.init(["Ascend910B2"]) == acl.ACL_ERROR_INVALID_PARAM
    assert acl.get_recent_err_msg() == "acl.init: the SoC must be a name (str), got ['Ascend910B2']"
    assert not runtime.initialized


@pytest.mark.parametrize("policy", [0.0, True, [0], "0", None])
def test_malloc_policy_must_be_an_integer_member(rt, policy):
    assert rt.malloc(16, policy) == (0, acl.ACL_ERROR_INVALID_PARAM)
    assert acl.get_recent_err_msg() == f"malloc: unknown memory policy {policy!r}"


@pytest.mark.parametrize("kind", [1.0, True, [1], np.array([4, 4]), "1", None])
def test_memcpy_kind_must_be_an_integer_member(rt, kind):
    host = np.arange(4, dtype=np.uint8)
    ptr, _ = rt.malloc(4, HUGE)
    assert rt.memcpy(ptr, 4, acl.util.numpy_to_ptr(host), 4, kind) == acl.ACL_ERROR_INVALID_PARAM
    assert acl.get_recent_err_msg() == f"memcpy: unknown copy kind {kind!r}"


@pytest.mark.parametrize("stream", [[1], {}, "s", 1.0, np.array([0])])
def test_streams_of_any_type_are_statuses(rt, stream):
    assert rt.synchronize_stream(stream) == acl.ACL_ERROR_RT_INVALID_HANDLE
    assert rt.launch(stream, "t", lambda: None) == acl.ACL_ERROR_RT_INVALID_HANDLE
    assert rt.destroy_stream(stream) == acl.ACL_ERROR_RT_INVALID_HANDLE


def test_numpy_zero_is_the_default_stream(rt):
    assert rt.synchronize_stream(np.int64(0)) == 0


# -- aclCreateScalar ------------------------------------------------------------------------------

@pytest.mark.parametrize(("value", "data_type", "message"), [
    (None, acl.ACL_FLOAT, "value is nullptr"),
    ([1.0], acl.ACL_FLOAT, "value must be a number, got list"),
    ((1.0,), acl.ACL_DOUBLE, "value must be a number, got tuple"),
    (np.array([1.0]), acl.ACL_FLOAT, "value must be one number, got a 1-d array"),
    (np.ones((1, 1)), acl.ACL_INT32, "value must be one number, got a 2-d array"),
    ("1.5", acl.ACL_FLOAT, "value must be a number, got str"),
    (b"1", acl.ACL_INT8, "value must be a number, got bytes"),
    (np.array("1"), acl.ACL_FLOAT, "value must be a number, got str_"),
    (object(), acl.ACL_FLOAT, "value must be a number, got object"),
    (1 + 2j, acl.ACL_FLOAT, "a float32 scalar needs a real number, got (1+2j)"),
    (np.complex64(1), acl.ACL_BF16, "a bfloat16 scalar needs a real number, got np.complex64(1+0j)"),
    (1.5, acl.ACL_INT64, "a int64 scalar needs an integer, got 1.5"),
    (2**40, acl.ACL_INT32, "1099511627776 does not fit int32"),
    (2**64, acl.ACL_UINT64, "18446744073709551616 does not fit uint64"),
    (10**400, acl.ACL_DOUBLE, f"{10**400} does not fit float64"),
    (1.0, 99, "unknown aclDataType 99"),
    (1.0, [0], "unknown aclDataType [0]"),
    (1.0, 0.0, "unknown aclDataType 0.0"),
    (1.0, True, "unknown aclDataType True"),
])
def test_create_scalar_refuses_with_a_message(value, data_type, message):
    assert acl.create_scalar(value, data_type) is None
    assert acl.get_recent_err_msg() == f"create_scalar: {message}"


def test_create_scalar_takes_numbers_of_its_kind():
    assert acl.create_scalar(np.array(2.5), acl.ACL_FLOAT).value == np.float32(2.5)  # a 0-d array is one number
    assert acl.create_scalar(True, acl.ACL_FLOAT).to_float() == 1.0
    assert acl.create_scalar(np.int8(-3), acl.ACL_INT64).value == -3
    z = acl.create_scalar(1 + 2j, acl.ACL_COMPLEX64)
    assert z.value == np.complex64(1 + 2j) and z.to_float() == 1.0  # ToFloat: the real part
    assert acl.create_scalar(np.uint8(1), acl.ACL_COMPLEX128).value == 1
    bf16 = np.array([1.5, 3.0], bfloat16)  # ml_dtypes' scalars are numpy generics, not np.number
    assert acl.create_scalar(bf16[0], acl.ACL_BF16).value == bf16[0]
    assert acl.create_scalar(bf16[1:].reshape(()), acl.ACL_FLOAT).value == np.float32(3.0)
    for data_type in (acl.ACL_FLOAT, acl.ACL_BF16, acl.ACL_COMPLEX64):  # beyond any numpy integer: via float
        assert acl.create_scalar(-(2**70), data_type).to_float() == -(2.0**70)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no ComplexWarning either
        assert acl.create_scalar(np.complex128(3 - 1j), acl.ACL_COMPLEX128).to_float() == 3.0


# -- aclCreateTensor ------------------------------------------------------------------------------

GOOD = dict(view_dims=(2, 3), data_type=acl.ACL_FLOAT, strides=(3, 1), offset=0, fmt=ND, storage_dims=(6,),
            data_ptr=0x1000)


@pytest.mark.parametrize(("change", "message"), [
    (dict(view_dims=5), "view_dims must be a sequence of integers, got 5"),
    (dict(view_dims="23"), "view_dims must be a sequence of integers, got '23'"),
    (dict(view_dims=np.array(2)), "view_dims must be a sequence of integers, got array(2)"),
    (dict(view_dims=(2, 3.0)), "view_dims must be int64 integers, got 3.0"),
    (dict(view_dims=(2, 2**63)), "view_dims must be int64 integers, got 9223372036854775808"),
    (dict(storage_dims=None), "storage_dims must be a sequence of integers, got None"),
    (dict(strides=(3, True)), "strides must be int64 integers, got True"),
    (dict(offset=0.0), "offset must be an int64 integer, got 0.0"),
    (dict(offset=[0]), "offset must be an int64 integer, got [0]"),
    (dict(data_ptr="0x1000"), "data_ptr must be a pointer (an unsigned 64-bit integer) or None, got '0x1000'"),
    (dict(data_ptr=-1), "data_ptr must be a pointer (an unsigned 64-bit integer) or None, got -1"),
    (dict(data_type=[0]), "unknown aclDataType [0]"),
    (dict(data_type=0.0), "unknown aclDataType 0.0"),
    (dict(fmt=2.0), "unknown aclFormat 2.0"),
    (dict(fmt=5), "unknown aclFormat 5"),  # a gap in the enum
    (dict(fmt=55), "unknown aclFormat 55"),
    (dict(strides=(3,)), "1 strides for 2 view dims"),
    (dict(offset=-1), "view_dims, strides, offset and storage_dims must not be negative"),
    (dict(offset=1), "the view [2, 3] (strides [3, 1], offset 1) reaches element 6, past the storage [6]"),
])
def test_create_tensor_refuses_with_a_message(change, message):
    assert acl.create_tensor(**{**GOOD, **change}) is None
    assert acl.get_recent_err_msg() == f"create_tensor: {message}"


def test_create_tensor_stores_plain_ints():
    t = acl.create_tensor(**{**GOOD, "view_dims": np.array([2, 3]), "data_type": np.int32(acl.ACL_FLOAT),
                             "data_ptr": np.uint64(0x1000)})
    assert t.view_dims == (2, 3) and type(t.data_type) is int and type(t.data_ptr) is int
    assert acl.create_tensor(**{**GOOD, "data_ptr": None}).data_ptr == 0



@pytest.mark.parametrize("fmt", [acl.ACL_FORMAT_NC, acl.ACL_FORMAT_NCL, acl.ACL_FORMAT_HWCN, acl.ACL_FORMAT_NDHWC])
def test_every_public_format_is_recorded_silently(fmt):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert acl.create_tensor(**{**GOOD, "fmt": fmt}).format == fmt


@pytest.mark.parametrize("fmt", [acl.ACL_FORMAT_FRACTAL_NZ, acl.ACL_FORMAT_NC1HWC0, acl.ACL_FRACTAL_Z_3D,
                                 acl.ACL_FORMAT_FRACTAL_NZ_C0_8, acl.ACL_FORMAT_UNDEFINED])
def test_a_private_format_is_recorded_with_a_warning(fmt):
    """aclCreateTensor records the format; a private one only warns (spec: the ops read ND data)."""
    with pytest.warns(acl.AclFormatWarning, match=rf"\({fmt}\) is private to the device"):
        t = acl.create_tensor(**{**GOOD, "fmt": fmt})
    assert t.format == fmt


# -- destroy ----------------------------------------------------------------------------------

def test_destroy_accepts_nullptr_and_says_why_it_refuses():
    assert acl.destroy_tensor(None) == 0 and acl.destroy_scalar(None) == 0  # as upstream's
    s = acl.create_scalar(1.0, acl.ACL_FLOAT)
    assert acl.destroy_tensor(s) == acl.ACL_ERROR_INVALID_PARAM
    assert acl.get_recent_err_msg() == "destroy_tensor: not an AclTensor: AclScalar"
    assert acl.destroy_scalar(s) == 0
    assert acl.destroy_scalar(s) == acl.ACL_ERROR_INVALID_PARAM
    assert acl.get_recent_err_msg() == "destroy_scalar: already destroyed"
