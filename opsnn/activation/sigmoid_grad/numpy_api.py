"""opsnn.sigmoid_backward: the gradient of sigmoid from its output, for numpy arrays, under torch's
semantics or an Ascend SoC's (docs/sigmoid-grad.md).

semantics="torch" is torch.ops.aten.sigmoid_backward(grad_output, output) on CPU: torch's
promotion of (grad, y) must be floating or complex (TypeError otherwise), shapes broadcast;
functional_models.sigmoid_backward_torch computes it.
semantics="ascend910b" / "ascend950" is aclnnSigmoidBackward: each dtype in the SoC's list and
their promotion too (TypeError), rank <= 8 and shapes that broadcast (ValueError); both cast to
the promoted dtype, then the family's kernel (float16 / bfloat16 / float32) or AICPU (float64,
complex). The result has the promoted dtype. backend "auto" / "fast" / "reference" compute the
functional models (numpy); "emulator" runs the aclnn call on the emulated device."""
from __future__ import annotations

from typing import Literal

import numpy as np
import numpy.typing as npt

from opsnn.dtypes import bfloat16
from opsnn.op_common import torch_promotion
from opsnn.op_common.api_args import check_names, check_out, deliver
from opsnn.op_common.operands import broadcast_shape, operand

from . import functional_models as fm
from .op_api.aclnn_sigmoid_backward import MAX_DIM, promote, supported_dtypes

BACKENDS = ("auto", "fast", "reference", "emulator")


def torch_result_dtype(grad: np.ndarray, y: np.ndarray) -> np.dtype:
    if grad.dtype.kind == "c" or y.dtype.kind == "c":
        if {grad.dtype.kind, y.dtype.kind} - set("fc") or bfloat16 in (grad.dtype, y.dtype):
            raise TypeError(f"sigmoid_backward: no kernel for {grad.dtype} with {y.dtype}")
        return np.promote_types(grad.dtype, y.dtype)
    for a in (grad, y):
        if a.dtype not in torch_promotion.KNOWN:
            raise TypeError(f"dtype {a.dtype} is not supported by torch's sigmoid_backward")
    dt = torch_promotion.result_type(grad, y)
    if torch_promotion.category(dt) != 2:
        raise TypeError(f"sigmoid_backward is not implemented for {dt}; got grad {grad.dtype} and y {y.dtype}")
    return dt


def _ascend_dtype(grad: np.ndarray, y: np.ndarray, semantics: str) -> np.dtype:
    allowed = supported_dtypes(semantics)
    for name, a in (("grad", grad), ("y", y)):
        if (bfloat16 if a.dtype == bfloat16 else a.dtype).name not in allowed:
            raise TypeError(f"{semantics}: {name} dtype {a.dtype} is not supported; supported: {', '.join(allowed)}")
        if a.ndim > MAX_DIM:
            raise ValueError(f"{semantics}: {name} has rank {a.ndim}, more than {MAX_DIM}")
    name = promote(grad.dtype.name if grad.dtype != bfloat16 else "bfloat16",
                   y.dtype.name if y.dtype != bfloat16 else "bfloat16")
    if name not in allowed:
        raise TypeError(f"{semantics}: grad {grad.dtype} and y {y.dtype} promote to {name}, not supported")
    return bfloat16 if name == "bfloat16" else np.dtype(name)


def sigmoid_backward(grad: npt.ArrayLike, y: npt.ArrayLike, *,
                     semantics: Literal["torch", "ascend910b", "ascend950"] = "torch",
                     backend: Literal["auto", "fast", "reference", "emulator"] = "auto",
                     out: np.ndarray | None = None) -> np.ndarray:
    """grad * y * (1 - y) under `semantics` (module doc); y is the forward's output."""
    check_names(semantics, backend, BACKENDS)
    grad, y = operand(grad, "grad"), operand(y, "y")
    if semantics == "torch":
        if backend == "emulator":
            raise ValueError('backend="emulator" runs the ascend semantics only')
        dtype = torch_result_dtype(grad, y)
    else:
        dtype = _ascend_dtype(grad, y, semantics)
    shape = broadcast_shape(grad.shape, y.shape)
    check_out(out, dtype, shape)
    if backend == "emulator":
        from opsnn.aclnn.device_run import SEMANTICS_SOC, run_declared

        from .op_api import aclnn_sigmoid_backward as api
        from .op_api.aclnn_signature import APIS
        return deliver(run_declared(APIS[0], api, (grad, y), out_shape=shape, out_dtype=dtype,
                                    soc=SEMANTICS_SOC[semantics]), out)
    with np.errstate(invalid="ignore", over="ignore"):  # a signalling NaN widened, big ints to half: torch's bits
        g, o = (np.ascontiguousarray(np.broadcast_to(a.astype(dtype, copy=False), shape)) for a in (grad, y))
    if semantics == "torch":
        return deliver(np.asarray(fm.sigmoid_backward_torch(g, o), dtype), out)
    return deliver(fm.sigmoid_grad(o, g, semantics), out)
