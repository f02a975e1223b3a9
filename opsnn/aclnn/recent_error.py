"""aclnn's recent error, per thread: what the last failed aclnn call of this thread said.

Each public aclnn call clears it on entry, so after a successful call it is empty."""
from __future__ import annotations

import threading
from dataclasses import dataclass

_local = threading.local()


@dataclass(frozen=True)
class RecentError:
    status: int
    kind: str  # one of status.KIND_*
    message: str


def clear() -> None:
    _local.error = None


def record(status: int, kind: str, message: str) -> int:
    _local.error = RecentError(status, kind, message)
    return status


def get_recent_error() -> RecentError | None:
    return getattr(_local, "error", None)


def get_recent_err_msg() -> str:
    """aclGetRecentErrMsg for aclnn: this thread's last failure message ('' if none)."""
    error = get_recent_error()
    return "" if error is None else error.message
