"""aclnnHardtanhBackward on the emulated device: what `opsnn.hardtanh_backward(...,
backend="emulator")` runs (ascend semantics only), through opsnn.aclnn.device_run (a private
runtime per call; the caller's acl context restored; everything released, on failure too)."""
from __future__ import annotations

import numpy as np

from opsnn import acl
from opsnn.aclnn.device_run import SEMANTICS_SOC, run_declared

from .op_api import aclnn_hardtanh_backward as api

SOC_OF = SEMANTICS_SOC


def hardtanh_backward(grad: np.ndarray, x: np.ndarray, min_val, max_val, semantics: str) -> np.ndarray:
    """aclnnHardtanhBackward(gradOutput=grad, self=x, min, max, out) on the emulated SoC of
    `semantics`; out has x's shape and dtype. TypeError / ValueError where aclnn refuses the
    arguments (dtype / shape), MemoryError where device memory runs out, RuntimeError otherwise."""
    from .op_api.aclnn_signature import APIS

    try:
        soc = SOC_OF[semantics]
    except KeyError:
        raise ValueError(f"emulator semantics must be one of {', '.join(SOC_OF)}, got {semantics!r}") from None
    grad, x = np.asarray(grad), np.asarray(x)
    for name, arr in (("grad", grad), ("x", x)):
        try:
            acl.acl_data_type_of(arr.dtype)
        except TypeError:
            raise TypeError(f"{name} dtype {arr.dtype} is not an ACL data type") from None
    return run_declared(APIS[0], api, (grad, x, min_val, max_val), out_shape=x.shape, out_dtype=x.dtype, soc=soc)
