"""backend="emulator" for an operator whose one aclnn API takes its numpy function's tensors in
order and writes one out tensor: `AscendRule(..., emulator_run=declared_run(__package__))`."""
from __future__ import annotations

import importlib
from collections.abc import Callable


def declared_run(package: str) -> Callable:
    """emulator_run(call, plan) for the operator at `package`: its declared API (the first of
    op_api.aclnn_signature.APIS, its two phases in the module that declaration's header names)
    on the emulated SoC of call.semantics, the tensors uploaded as they are, a fresh out of the
    plan's shape and dtype; statuses become exceptions (aclnn.device_run)."""
    def run(call, plan):
        from opsnn.aclnn.device_run import SEMANTICS_SOC, run_declared
        api = importlib.import_module(f"{package}.op_api.aclnn_signature").APIS[0]
        module = importlib.import_module(f"{package}.op_api.{api.header}")
        return run_declared(api, module, call.tensors, out_shape=plan.shape, out_dtype=plan.dtype,
                            soc=SEMANTICS_SOC[call.semantics])
    return run
