"""Every registered operator's aclnn signatures, found by convention: the module
`<operator package>.op_api.aclnn_signature` and its tuple `APIS` (opsnn/aclnn/signature.py): what
the C ABI, opsnn.torch, opsnn.dask, opsnn atk and the emulator backend read."""
from __future__ import annotations

import importlib
import importlib.util

from opsnn import registry
from opsnn.aclnn.signature import AclnnApi

SIGNATURE_MODULE = "op_api.aclnn_signature"


def operator_apis(op: registry.Operator) -> tuple[AclnnApi, ...]:
    """The operator's declared APIs; () when it has no aclnn API. An API whose Python functions
    the operator did not register is an error (the declaration and the registry must agree)."""
    if op.aclnn_module is None:
        return ()
    name = f"{op.package}.{SIGNATURE_MODULE}"
    if importlib.util.find_spec(name) is None:
        return ()
    apis = tuple(importlib.import_module(name).APIS)
    for api in apis:
        for fn in (api.python_phase1, api.python):
            if fn not in op.aclnn_functions:
                raise ValueError(f"{name}: {api.name} names {fn}, which {op.name} does not register")
    return apis


def all_apis() -> tuple[AclnnApi, ...]:
    """Every declared API, operators in registry order, APIs in declaration order."""
    apis = tuple(api for op in registry.discover().values() for api in operator_apis(op))
    names = [a.name for a in apis]
    if len(set(names)) != len(names):
        raise ValueError(f"an aclnn API is declared twice: {names}")
    return apis
