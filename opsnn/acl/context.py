"""The thread's current context (aclrtGetCurrentContext): which runtime and device this thread
works on. Set by set_device, cleared by reset_device; thread-local because ACL contexts are."""
from __future__ import annotations

import threading
from dataclasses import dataclass

_local = threading.local()


@dataclass(frozen=True, eq=False)
class Context:
    runtime: object  # the opsnn.acl.runtime.Runtime it belongs to (not imported: runtime imports us)
    device_id: int
    epoch: int  # the runtime's init generation: a context from before a finalize is dead


def current() -> Context | None:
    return getattr(_local, "context", None)


def bind(context: Context | None) -> None:
    _local.context = context
