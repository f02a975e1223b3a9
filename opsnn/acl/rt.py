"""acl.rt: the runtime calls of the process's default runtime (pyACL style: results first,
status last). Each is a thin forward to `opsnn.acl.runtime.Runtime`; a private Runtime object
offers the same methods."""
from __future__ import annotations

from . import context as _context
from .constants import ACL_ERROR_RT_PARAM_INVALID, ACL_SUCCESS
from .recent_error import fail
from .runtime import Runtime

DEFAULT_RUNTIME = Runtime()


def set_device(device_id: int) -> int:
    return DEFAULT_RUNTIME.set_device(device_id)


def reset_device(device_id: int) -> int:
    return DEFAULT_RUNTIME.reset_device(device_id)


def get_device_count() -> tuple[int, int]:
    return DEFAULT_RUNTIME.get_device_count()


def create_stream():
    return DEFAULT_RUNTIME.create_stream()


def destroy_stream(stream) -> int:
    return DEFAULT_RUNTIME.destroy_stream(stream)


def synchronize_stream(stream) -> int:
    return DEFAULT_RUNTIME.synchronize_stream(stream)


def malloc(size: int, policy: int) -> tuple[int, int]:
    return DEFAULT_RUNTIME.malloc(size, policy)


def free(ptr: int) -> int:
    return DEFAULT_RUNTIME.free(ptr)


def memcpy(dst: int, dst_max: int, src: int, count: int, kind: int) -> int:
    return DEFAULT_RUNTIME.memcpy(dst, dst_max, src, count, kind)


def get_soc_name() -> str | None:
    return DEFAULT_RUNTIME.get_soc_name()


def get_context():
    """(context, status): this thread's current context (None when no device is set)."""
    return _context.current(), ACL_SUCCESS


def set_context(context) -> int:
    """Make `context` (from get_context, any runtime; None to clear) this thread's current one."""
    if context is not None and not isinstance(context, _context.Context):
        return fail(ACL_ERROR_RT_PARAM_INVALID, f"set_context: {context!r} is not a context")
    _context.bind(context)
    return ACL_SUCCESS
