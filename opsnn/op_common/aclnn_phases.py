"""An aclnn API's two Python functions from its plan, the same for every operator:
`name_get_workspace_size, name = phases(API_NAME, _plan)`."""
from __future__ import annotations

from collections.abc import Callable

from opsnn.aclnn import two_phase


def phases(api_name: str, plan: Callable, python: str) -> tuple[Callable, Callable]:
    """(phase1, phase2) of the API: phase1(*params) -> (workspace_size, executor, status) runs
    plan(executor, *params) under opsnn.aclnn.two_phase (its checks refuse with AclnnError);
    phase2(workspace, workspace_size, executor, stream) -> status queues what it recorded.
    `python`: their names' stem (AclnnApi.python), for tracebacks and help()."""
    def phase1(*params):
        return two_phase.get_workspace_size(api_name, lambda executor: plan(executor, *params))

    def phase2(workspace, workspace_size, executor, stream) -> int:
        return two_phase.run(api_name, workspace, workspace_size, executor, stream)

    for fn, name, doc in ((phase1, f"{python}_get_workspace_size", "Phase 1: (workspace_size, executor, status)."),
                          (phase2, python, "Phase 2: queue the planned work on `stream` (None: the default).")):
        fn.__name__ = fn.__qualname__ = name
        fn.__doc__ = f"{api_name} {doc}"
    return phase1, phase2
