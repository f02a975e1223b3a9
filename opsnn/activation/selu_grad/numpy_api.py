"""opsnn.selu_backward: SELU's gradient from its output, for numpy arrays (docs/selu-grad.md).

semantics="torch": torch's elu_backward(grad, alpha, scale, 1, is_result=True, result) with
SELU's constants on CPU (what nn.SELU's backward calls): promotion of (grad, result) must be
floating (TypeError), shapes broadcast. semantics="ascend910b" / "ascend950": aclnnSeluBackward:
grad and result of one dtype of the SoC's list and one shape, rank <= 8 (TypeError / ValueError;
int32 / int8 pass the API's checks but no kernel is built for them here: TypeError), then the
family's kernel model. backend "auto" / "fast" / "reference" compute the functional models;
"emulator" runs the aclnn call on the emulated device."""
from __future__ import annotations

from typing import Literal

import numpy as np
import numpy.typing as npt

from opsnn.dtypes import dtype_name
from opsnn.op_common import torch_promotion
from opsnn.op_common.api_args import check_names, check_out, deliver
from opsnn.op_common.operands import broadcast_shape, operand

from . import functional_models as fm
from .op_host import KERNEL_DTYPES

BACKENDS = ("auto", "fast", "reference", "emulator")


def _torch_dtype(grad: np.ndarray, result: np.ndarray) -> np.dtype:
    if grad.dtype not in torch_promotion.KNOWN or result.dtype not in torch_promotion.KNOWN:
        raise TypeError(f"elu_backward has no kernel for {grad.dtype} with {result.dtype}")
    dt = torch_promotion.result_type(grad, result)
    if torch_promotion.category(dt) != 2:
        raise TypeError(f"elu_backward is not implemented for {dt} (torch: floating types only)")
    return dt


def selu_backward(grad: npt.ArrayLike, result: npt.ArrayLike, *,
                  semantics: Literal["torch", "ascend910b", "ascend950"] = "torch",
                  backend: Literal["auto", "fast", "reference", "emulator"] = "auto",
                  out: np.ndarray | None = None) -> np.ndarray:
    """grad * (result > 0 ? scale : result + scale * alpha) under `semantics` (module doc)."""
    check_names(semantics, backend, BACKENDS)
    grad, result = operand(grad, "grad"), operand(result, "result")
    if semantics == "torch":
        if backend == "emulator":
            raise ValueError('backend="emulator" runs the ascend semantics only')
        dtype = _torch_dtype(grad, result)
        shape = broadcast_shape(grad.shape, result.shape)
        check_out(out, dtype, shape)
        g, r = (np.broadcast_to(a.astype(dtype, copy=False), shape) for a in (grad, result))
        return deliver(fm.selu_backward_torch(g, r), out)
    if grad.dtype != result.dtype:
        raise TypeError(f"{semantics}: grad dtype {grad.dtype} differs from result dtype {result.dtype}")
    name = dtype_name(grad.dtype) if grad.dtype.kind in "fiuV" else str(grad.dtype)
    if name not in KERNEL_DTYPES:
        raise TypeError(f"{semantics}: dtype {grad.dtype} is not supported; supported: {', '.join(KERNEL_DTYPES)}")
    if grad.shape != result.shape or grad.ndim > 8:
        raise ValueError(f"{semantics}: grad {grad.shape} and result {result.shape} must be one shape of rank <= 8")
    check_out(out, grad.dtype, grad.shape)
    if backend == "emulator":
        from opsnn.aclnn.device_run import SEMANTICS_SOC, run_declared

        from .op_api import aclnn_selu_backward as api
        from .op_api.aclnn_signature import APIS
        return deliver(run_declared(APIS[0], api, (grad, result), out_shape=grad.shape, out_dtype=grad.dtype,
                                    soc=SEMANTICS_SOC[semantics]), out)
    return deliver(fm.KERNELS[semantics](grad, result), out)
