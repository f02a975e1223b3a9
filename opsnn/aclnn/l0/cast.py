"""l0 Cast: a tensor converted to another dtype, in the workspace (upstream's Cast kernel, which is
outside ops-nn; here a functional step). Operator-agnostic.

The conversion model (upstream's hardware rules are not public; these are ours, docs/threshold-v2.md):
  same dtype        no step: the tensor itself
  -> bool           value != 0 (NaN is true)
  float -> integer  truncation toward zero, saturating at the integer's range, NaN -> 0
  anything else     numpy's conversion: floats round to nearest even (overflow -> inf),
                    integers wrap (two's complement), bool -> 0 / 1
A complex source to a non-complex dtype has no Cast: ACLNN_ERR_INNER_NULLPTR (561103), as a
null l0op::Cast result is reported."""
from __future__ import annotations

import numpy as np

from opsnn.acl.constants import DATA_TYPES, acl_data_type_of
from opsnn.dtypes import bfloat16

from .. import status as s
from ..executor import Executor
from ..l0_tensor import L0Tensor
from ..steps import FunctionalStep


def _is_float(dt: np.dtype) -> bool:
    return dt.kind == "f" or dt == bfloat16


def cast_values(a: np.ndarray, dst: np.dtype) -> np.ndarray:
    """The conversion itself, on a numpy array: a fresh array of `dst`."""
    dst = np.dtype(dst)
    src = a.dtype
    if src == dst:
        return np.array(a)
    if dst == np.bool_:
        return np.asarray(a != 0)
    with np.errstate(over="ignore", invalid="ignore"):
        if _is_float(src) and dst.kind in "iu":
            info = np.iinfo(dst)
            w = np.trunc(a.astype(np.float64))
            w = np.where(np.isnan(w), 0, np.clip(w, float(info.min), float(info.max)))
            # float(int64 max) is 2**63, one past the range: clamp in integers after the cast
            out = np.empty(a.shape, dst)
            big = w >= float(info.max)
            out[...] = np.where(big, 0, w).astype(dst)
            out[big] = info.max
            return out
        return a.astype(dst)


def cast(executor: Executor, t: L0Tensor, dtype) -> L0Tensor:
    """`t` itself when it already has `dtype` (a numpy dtype or an ACL dtype name), else a
    recorded conversion into a new slot."""
    dtype_name, dtype = _dtype(dtype)
    if t.dtype == dtype:
        return t
    if t.dtype.kind == "c" and dtype.kind != "c":
        raise s.AclnnError(s.ACLNN_ERR_INNER_NULLPTR, s.KIND_INNER,
                           f"Cast {t.dtype_name} -> {dtype_name} is not supported")
    dst = executor.new_tensor(dtype_name, dtype, t.shape, "Cast")

    def convert(a):
        return cast_values(a, dtype)
    executor.add_step(FunctionalStep(f"Cast({t.dtype_name}->{dtype_name})", convert, (t,), dst))
    return dst


def _dtype(dtype) -> tuple[str, np.dtype]:
    if isinstance(dtype, str):
        for name, known in DATA_TYPES.values():
            if name == dtype:
                return name, known
        raise ValueError(f"unknown dtype name {dtype!r}")
    return DATA_TYPES[acl_data_type_of(dtype)]
