"""ACL enum values and status codes, with the numbers of the real headers (acl_base.h, acl_rt.h,
acl_error codes), so code written against pyACL reads the same here.

Only the members this runtime uses or accepts are listed."""
from __future__ import annotations

from types import MappingProxyType

import numpy as np

from opsnn.dtypes import BY_NAME

# aclDataType
ACL_DT_UNDEFINED = -1
ACL_FLOAT = 0
ACL_FLOAT16 = 1
ACL_INT8 = 2
ACL_INT32 = 3
ACL_UINT8 = 4
ACL_INT16 = 6
ACL_UINT16 = 7
ACL_UINT32 = 8
ACL_INT64 = 9
ACL_UINT64 = 10
ACL_DOUBLE = 11
ACL_BOOL = 12
ACL_COMPLEX64 = 16
ACL_COMPLEX128 = 17
ACL_BF16 = 27

# aclDataType -> (opsnn dtype name, numpy dtype); the numpy side is opsnn.dtypes' table.
_ACL_NAMES = {
    ACL_FLOAT: "float32", ACL_FLOAT16: "float16", ACL_INT8: "int8", ACL_INT32: "int32", ACL_UINT8: "uint8",
    ACL_INT16: "int16", ACL_UINT16: "uint16", ACL_UINT32: "uint32", ACL_INT64: "int64", ACL_UINT64: "uint64",
    ACL_DOUBLE: "float64", ACL_BOOL: "bool", ACL_COMPLEX64: "complex64", ACL_COMPLEX128: "complex128",
    ACL_BF16: "bfloat16",
}
DATA_TYPES: MappingProxyType[int, tuple[str, np.dtype]] = MappingProxyType(
    {code: (name, BY_NAME[name]) for code, name in _ACL_NAMES.items()})


def acl_data_type_of(dtype) -> int:
    """The aclDataType of a numpy dtype (TypeError when ACL has none)."""
    dt = np.dtype(dtype)
    for code, (_, known) in DATA_TYPES.items():
        if known == dt:
            return code
    raise TypeError(f"numpy dtype {dt} has no aclDataType")


# aclFormat: every value is accepted and recorded (the operators here read data as ND); the
# private (device-internal, tiled) ones are recorded with a warning, as aclCreateTensor does
ACL_FORMAT_UNDEFINED = -1
ACL_FORMAT_NCHW = 0
ACL_FORMAT_NHWC = 1
ACL_FORMAT_ND = 2
ACL_FORMAT_NC1HWC0 = 3
ACL_FORMAT_FRACTAL_Z = 4
ACL_FORMAT_NC1HWC0_C04 = 12
ACL_FORMAT_HWCN = 16
ACL_FORMAT_NDHWC = 27
ACL_FORMAT_FRACTAL_NZ = 29
ACL_FORMAT_NCDHW = 30
ACL_FORMAT_NDC1HWC0 = 32
ACL_FRACTAL_Z_3D = 33  # (upstream's name has no FORMAT_)
ACL_FORMAT_NC = 35
ACL_FORMAT_NCL = 47
ACL_FORMAT_FRACTAL_NZ_C0_16 = 50
ACL_FORMAT_FRACTAL_NZ_C0_32 = 51
ACL_FORMAT_FRACTAL_NZ_C0_2 = 52
ACL_FORMAT_FRACTAL_NZ_C0_4 = 53
ACL_FORMAT_FRACTAL_NZ_C0_8 = 54
FORMAT_NAMES: MappingProxyType[int, str] = MappingProxyType({
    value: name.removeprefix("ACL_FORMAT_").removeprefix("ACL_") for name, value in dict(globals()).items()
    if name.startswith(("ACL_FORMAT_", "ACL_FRACTAL_"))})
FORMATS = tuple(v for v in FORMAT_NAMES if v != ACL_FORMAT_UNDEFINED)
PRIVATE_FORMATS = frozenset({ACL_FORMAT_UNDEFINED, ACL_FORMAT_NC1HWC0, ACL_FORMAT_FRACTAL_Z, ACL_FORMAT_NC1HWC0_C04,
                             ACL_FORMAT_FRACTAL_NZ, ACL_FORMAT_NDC1HWC0, ACL_FRACTAL_Z_3D,
                             *range(ACL_FORMAT_FRACTAL_NZ_C0_16, ACL_FORMAT_FRACTAL_NZ_C0_8 + 1)})

# aclrtMemMallocPolicy
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEM_MALLOC_HUGE_ONLY = 1
ACL_MEM_MALLOC_NORMAL_ONLY = 2
ACL_MEM_MALLOC_HUGE_FIRST_P2P = 3
ACL_MEM_MALLOC_HUGE_ONLY_P2P = 4
ACL_MEM_MALLOC_NORMAL_ONLY_P2P = 5
MALLOC_POLICIES = tuple(range(6))

# aclrtMemcpyKind
ACL_MEMCPY_HOST_TO_HOST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_MEMCPY_DEVICE_TO_DEVICE = 3
ACL_MEMCPY_DEFAULT = 4  # the runtime tells host from device by the address
ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE = 5  # host to device through a staging buffer: here a host-to-device copy
ACL_MEMCPY_INNER_DEVICE_TO_DEVICE = 6  # within one device
ACL_MEMCPY_INTER_DEVICE_TO_DEVICE = 7  # between devices: the emulated devices share one address space

# Status codes (aclError). 0 is success; the rest name what was refused.
ACL_SUCCESS = 0
ACL_ERROR_INVALID_PARAM = 100000  # bad argument value: size 0, unknown kind/policy, count > dst_max
ACL_ERROR_UNINITIALIZE = 100001  # a call before acl.init (or after acl.finalize)
ACL_ERROR_REPEAT_INITIALIZE = 100002
ACL_ERROR_REPEAT_FINALIZE = 100037
ACL_ERROR_RT_PARAM_INVALID = 107000  # unknown, freed or foreign pointer; a copy past its allocation
ACL_ERROR_RT_INVALID_DEVICEID = 107001
ACL_ERROR_RT_CONTEXT_NULL = 107002  # this thread has no device set on this runtime
ACL_ERROR_RT_INVALID_HANDLE = 107017  # unknown or destroyed stream
ACL_ERROR_RT_MEMORY_ALLOCATION = 207001  # device memory exhausted
ACL_ERROR_RT_AICORE_EXCEPTION = 507015  # a task on the stream faulted (reported at synchronize)
