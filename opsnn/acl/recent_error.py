"""aclGetRecentErrMsg: the last failure's explanation, per thread (as ACL keeps it)."""
from __future__ import annotations

import threading

_local = threading.local()


def fail(status: int, message: str) -> int:
    """Record why the current call failed and hand its status back (`return fail(...)`)."""
    _local.message = message
    return status


def get_recent_err_msg() -> str:
    """The message of this thread's most recent failed runtime call ('' if none failed)."""
    return getattr(_local, "message", "")
