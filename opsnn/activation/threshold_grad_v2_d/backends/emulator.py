"""The emulator backend: threshold_backward through the whole device stack, as an application
on an Ascend device would run it — acl runtime, aclnnThresholdBackward's two phases, the
emulated AscendC kernel (ascend910b) or the arch35 functional models (ascend950). The forward,
threshold, goes through aclnnThreshold the same way (the arch35 ThresholdV2 DAG kernel on
ascend950, the 910B TBE kernel's functional model on ascend910b).

Both run through opsnn.aclnn.device_run (the declared API on a private runtime per call: own
device memory, the caller's acl context restored, everything released, on failure too)."""
from __future__ import annotations

import numbers

import numpy as np

from opsnn import acl, aclnn
from opsnn.aclnn.declarations import operator_apis
from opsnn.aclnn.device_run import SEMANTICS_SOC, run_declared
from opsnn.op_common.api_args import real_scalar
from opsnn.platform import get_platform
from opsnn.registry import get


def _soc_for(semantics: str, soc: str | None) -> str:
    if semantics not in SEMANTICS_SOC:
        raise ValueError(f"emulator semantics must be one of {', '.join(SEMANTICS_SOC)}, got {semantics!r}")
    if soc is None:
        return SEMANTICS_SOC[semantics]
    family = get_platform(soc).family  # ValueError for an unknown SoC
    if family != semantics:
        raise ValueError(f"SoC {soc} is of family {family}, not {semantics}")
    return soc


def _check_acl_dtypes(**arrays: np.ndarray) -> None:
    for name, arr in arrays.items():
        try:
            acl.acl_data_type_of(arr.dtype)
        except TypeError:
            raise TypeError(f"{name} dtype {arr.dtype} is not an ACL data type") from None


def _declared(operator: str, api_name: str):
    """The declaration of `api_name` in `operator`'s folder (op_api/aclnn_signature.py)."""
    return next(a for a in operator_apis(get(operator)) if a.name == api_name)


def threshold_backward(grad, feature, threshold, semantics: str, soc: str | None = None) -> np.ndarray:
    """out = grad where feature > threshold else 0 (per `semantics`, docs/threshold-grad-v2d.md §9), computed on the
    emulated device. numpy in, numpy out (bfloat16 as ml_dtypes.bfloat16); out has the
    broadcast shape and feature's dtype. TypeError for dtype problems, ValueError for shape and
    rank problems, MemoryError where device memory runs out, RuntimeError for anything else, each with
    the aclnn message."""
    soc = _soc_for(semantics, soc)
    grad, feature = np.asarray(grad), np.asarray(feature)
    _check_acl_dtypes(grad=grad, feature=feature)
    try:
        t = float(real_scalar(threshold))
    except OverflowError:
        raise ValueError(f"threshold {threshold} does not fit a float") from None
    try:
        out_shape = np.broadcast_shapes(grad.shape, feature.shape)
    except ValueError:
        out_shape = grad.shape  # aclnn refuses the pair and says why
    # the threshold as a DOUBLE aclScalar: aclnn reads it as float32, like any aclScalar
    return run_declared(_declared("threshold_grad_v2_d", "aclnnThresholdBackward"), aclnn, (grad, feature, t),
                        out_shape=out_shape, out_dtype=feature.dtype, soc=soc, scalar_dtypes={"threshold": "float64"})


def threshold(x, threshold, value, semantics: str, soc: str | None = None) -> np.ndarray:
    """The forward, aclnnThreshold on the emulated device: x where x > threshold else value, the
    scalars converted to x's dtype as the host does. numpy in, numpy out of x's shape and dtype.
    TypeError for dtype problems, ValueError for shape and rank problems, MemoryError where device memory
    runs out, RuntimeError otherwise."""
    soc = _soc_for(semantics, soc)
    x = np.asarray(x)
    _check_acl_dtypes(x=x)
    # each scalar held exactly: integers as INT64 (UINT64 above its range), reals as DOUBLE
    scalars = tuple(real_scalar(v, what) for v, what in ((threshold, "threshold"), (value, "value")))
    for v, what in zip(scalars, ("threshold", "value"), strict=True):
        if isinstance(v, numbers.Integral | np.bool_) and not -(2**63) <= int(v) < 2**64:
            raise ValueError(f"{what} {int(v)} does not fit a 64-bit integer")
    return run_declared(_declared("threshold_v2", "aclnnThreshold"), aclnn, (x, *scalars), out_shape=x.shape,
                        out_dtype=x.dtype, soc=soc)
