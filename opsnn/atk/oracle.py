"""torch as the oracle under torch semantics: the function a case names (or its API's aten op),
called with the case's inputs; torch is imported lazily, never at `import opsnn`."""
from __future__ import annotations

import numpy as np

from opsnn.atk.cases import Case
from opsnn.atk.compare import Outcome, call
from opsnn.dtypes import bfloat16

_TORCH: list = []  # the torch module once imported ([None] when it is not importable)


def torch_module():
    if not _TORCH:
        try:
            import torch
            _TORCH.append(torch)
        except Exception:  # not installed or broken: the comparison is skipped
            _TORCH.append(None)
    return _TORCH[0]


def _torch_function(torch, name: str):
    parts = name.split(".")
    if parts[0] != "torch" or len(parts) < 2:
        return None
    obj = torch
    for part in parts[1:]:
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj if callable(obj) else None


def _to_torch(torch, arr: np.ndarray):
    if not arr.flags.c_contiguous:  # (np.ascontiguousarray would make a 0-d array 1-d)
        arr = arr.copy()
    if arr.dtype == bfloat16:
        return torch.from_numpy(arr.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(arr)


def _from_torch(torch, t) -> np.ndarray:
    t = t.detach().cpu()
    if t.dtype == torch.bfloat16:
        return t.contiguous().view(torch.int16).numpy().view(bfloat16)
    return t.numpy()


def torch_name(case: Case) -> tuple[str, str]:
    """(the torch function a case is compared with, a note or ""): the case's `name` when it is a
    torch path (torch.ops.aten.threshold_backward); a name that is not one (upstream writes
    "aclnn.selu.backward", the name of ATK's own benchmark) or none, the aten op the declaration names
    (AclnnApi.aten), with a note; "" where there is neither."""
    declared = f"torch.ops.aten.{case.api.aten}" if case.api.aten else ""
    if case.torch_name.startswith("torch."):
        return case.torch_name, ""
    if case.torch_name and declared:
        return declared, f"name {case.torch_name!r} is no torch function: compared with {declared}, the aten op " \
                         f"{case.aclnn_name} declares"
    return case.torch_name or declared, ""


def run_torch(case: Case, values: list) -> tuple[Outcome | None, str]:
    """(torch's outcome, a note or "") or (None, why the comparison is skipped)."""
    torch = torch_module()
    if torch is None:
        return None, "torch is not importable"
    name, note = torch_name(case)
    if not name:
        return None, "the case names no torch function (field 'name') and its API declares no aten op"
    fn = _torch_function(torch, name)
    if fn is None:
        return None, f"torch has no {name}"
    args = [_to_torch(torch, v) if isinstance(v, np.ndarray) else v for v in values]
    return call(fn, args, convert=lambda t: _from_torch(torch, t)), note
