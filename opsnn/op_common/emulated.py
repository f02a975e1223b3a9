"""backend="emulator" for an operator whose one aclnn API takes its numpy function's tensors and
scalars and writes one out tensor: `AscendRule(..., emulator_run=declared_run(__package__))`."""
from __future__ import annotations

import importlib
from collections.abc import Callable


def declared_run(package: str) -> Callable:
    """emulator_run(call, plan) for the operator at `package`: its declared API (the first of
    op_api.aclnn_signature.APIS, its two phases in the module that declaration's header names)
    on the emulated SoC of call.semantics. The API's tensor params take the call's tensors in
    order, its scalar and attr params the call's scalars (as read) in order; the out tensor is
    fresh, of the plan's shape and dtype; statuses become exceptions (aclnn.device_run)."""
    def run(call, plan):
        from opsnn.aclnn import signature as sig
        from opsnn.aclnn.device_run import SEMANTICS_SOC, run_declared
        api = importlib.import_module(f"{package}.op_api.aclnn_signature").APIS[0]
        module = importlib.import_module(f"{package}.op_api.{api.header}")
        tensors, scalars = iter(call.tensors), iter(call.scalars)
        inputs = [next(tensors) if p.kind == sig.TENSOR else next(scalars) for p in api.inputs]
        return run_declared(api, module, inputs, out_shape=plan.shape, out_dtype=plan.dtype,
                            soc=SEMANTICS_SOC[call.semantics])
    return run
