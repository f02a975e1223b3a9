"""opsnn.acl: a pyACL-style runtime for the emulated device.

    ret = acl.init()                       # SoC: argument, else $OPSNN_SOC, else Ascend910B2
    ret = acl.rt.set_device(0)
    stream, ret = acl.rt.create_stream()
    ptr, ret = acl.rt.malloc(size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    ret = acl.rt.memcpy(ptr, size, acl.util.numpy_to_ptr(host), size, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    ...
    ret = acl.finalize()                   # reports leaked memory and streams

Every call returns a status (0 = ACL_SUCCESS) rather than raising, whatever its arguments (each is
checked as its C type); create_tensor/create_scalar return None (upstream's NULL) instead.
`get_recent_err_msg()` says why the last failed call of this thread failed. Work launched on a stream runs at
`acl.rt.synchronize_stream`. `Runtime` is the class behind the module functions: a private
instance is an independent runtime (own device memory) with the same methods."""
from __future__ import annotations

from . import rt, util
from .constants import *  # noqa: F403 - the ACL_* names are this package's public vocabulary
from .constants import acl_data_type_of
from .context import Context, current
from .recent_error import get_recent_err_msg
from .runtime import AclLeakWarning, Runtime
from .stream import Stream
from .tensor import AclFormatWarning, AclScalar, AclTensor, create_scalar, create_tensor, destroy_scalar, destroy_tensor


def init(soc: str | None = None) -> int:
    return rt.DEFAULT_RUNTIME.init(soc)


def finalize() -> int:
    return rt.DEFAULT_RUNTIME.finalize(warn_stacklevel=3)  # the warning names the caller's line


def get_leak_report() -> list[str]:
    """What the default runtime's last finalize found unreleased."""
    return list(rt.DEFAULT_RUNTIME.leak_report)


def current_runtime() -> Runtime | None:
    """The runtime whose device this thread has set (and that is still live), else None."""
    context = current()
    if context is not None and context.runtime.is_current(context):
        return context.runtime
    return None


__all__ = [  # noqa: F405 - plus the ACL_* constants
    "AclFormatWarning", "AclLeakWarning", "AclScalar", "AclTensor", "Context", "Runtime", "Stream", "acl_data_type_of",
    "create_scalar", "create_tensor", "current_runtime", "destroy_scalar", "destroy_tensor", "finalize",
    "get_leak_report", "get_recent_err_msg", "init", "rt", "util",
]
