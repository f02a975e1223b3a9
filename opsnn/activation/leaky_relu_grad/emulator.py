"""aclnnLeakyReluBackward on the emulated device (the numpy API's backend="emulator", ascend
semantics only), through opsnn.aclnn.device_run: Ascend950 runs the arch35 DAG kernel on the
emulator; Ascend910B the TBE kernel's functional model (upstream ships no kernel)."""
from __future__ import annotations

import numpy as np

from opsnn.aclnn.device_run import SEMANTICS_SOC, run_declared

from .op_api import aclnn_leaky_relu_backward as api


def leaky_relu_backward(grad: np.ndarray, x: np.ndarray, slope, slope_dtype: str, self_is_result: bool,
                        semantics: str, out_dtype: np.dtype, soc: str | None = None) -> np.ndarray:
    """aclnnLeakyReluBackward on a fresh emulated device of `semantics`' family (or `soc`); numpy
    in, a fresh array of the broadcast shape and `out_dtype` out."""
    from .op_api.aclnn_signature import APIS

    grad, x = np.asarray(grad), np.asarray(x)
    try:
        shape = np.broadcast_shapes(grad.shape, x.shape)
    except ValueError:
        shape = grad.shape  # aclnn refuses the pair and says why
    return run_declared(APIS[0], api, (grad, x, slope, bool(self_is_result)), out_shape=shape, out_dtype=out_dtype,
                        scalar_dtypes={"negativeSlope": slope_dtype}, soc=soc or SEMANTICS_SOC[semantics])
