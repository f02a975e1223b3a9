"""CumSum: the high-level prefix sum of AscendC's math library, on Atlas A2.

``CumSum(dst, lastRow, src, sharedTmpBuffer, CumSumInfo(outter, inner), isLastAxis, outputLastRow)``
(C++: ``CumSum<T, CumSumConfig{isLastAxis, isReuseSource, outputLastRow}>``; src is an
outter x inner matrix, inner 32-byte aligned, half or float).

What AscendC's A2 implementation (cumsum_common_impl.h in asc-devkit) computes, and so what is
modelled:

- the sums run one after another along the axis, each rounded to float: element k of a line is
  (line[k-1] + src[k]) in float32 (a half input is widened first and rounded back to half, RINT,
  at the end);
- along the last axis (isLastAxis) every line is a row; the result passes through a final Adds
  of 0 (after the transposes), so a -0.0 comes out +0.0, the float path and the half path alike;
- along the first axis every line is a column; float rows are added in place, the first one
  copied by Adds of 0 (-0.0 -> +0.0); half goes through float and back (the first row keeps -0.0);
- outputLastRow: lastRow = dst's last row (inner elements), through Adds of 0 again;
- sharedTmpBuffer must hold what the implementation needs: last axis 16 * inner * sizeof(T) * 2
  bytes (plus 16 * inner * 2 for half), first axis outter * inner * 4 for half (float needs none);
  a smaller one is an api_contract_violation (the CPU debug library ASSERTs on it). Its bytes are left undefined
  (the implementation's transposes and partial sums are not modelled element by element).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from opsnn.dtypes import dtype_name

from .errors import ApiContractError, EmulatorError
from .local_tensor import LocalTensor, mark_undefined, read_local, write_local

_FLOATS = (np.dtype(np.float16), np.dtype(np.float32))
_TRANSPOSE_ROWS = 16  # TransDataTo5HD's 16 address lists: the last-axis path works 16 rows at a time


@dataclass
class CumSumInfo:
    """AscendC's CumSumInfo: rows and the (32-byte aligned) row length."""
    outter: int = 0
    inner: int = 0


def _plus_zero(x: np.ndarray) -> np.ndarray:
    return x + x.dtype.type(0)  # Adds(x, 0): -0.0 -> +0.0, NaN and inf pass


def cumsum_values(src: np.ndarray, last_axis: bool) -> np.ndarray:
    """The prefix sums of a 2-D half or float array as the A2 implementation forms them."""
    t = src.dtype
    wide = src.astype(np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        if not last_axis and t == np.float32:
            out = np.empty_like(wide)
            out[0] = _plus_zero(wide[0])
            for row in range(1, len(wide)):
                out[row] = out[row - 1] + wide[row]
            return out
        summed = np.cumsum(wide, axis=1 if last_axis else 0, dtype=np.float32)  # one addition after another
        out = summed.astype(t)  # half: RINT, float: itself
        return _plus_zero(out) if last_axis else out


def _tmp_bytes(t: np.dtype, info: CumSumInfo, last_axis: bool) -> int:
    if last_axis:
        extra = info.inner * _TRANSPOSE_ROWS * 2 if t.itemsize == 2 else 0
        return extra + _TRANSPOSE_ROWS * info.inner * t.itemsize * 2
    return info.outter * info.inner * 4 if t.itemsize == 2 else 0


def CumSum(dst: LocalTensor, last_row: LocalTensor, src: LocalTensor, tmp: LocalTensor | None,  # noqa: N802
           info: CumSumInfo, is_last_axis: bool = True, output_last_row: bool = False) -> None:
    """dst = src's prefix sums along the last (or first) axis; lastRow = dst's last row (module
    docstring). tmp None: the form without sharedTmpBuffer (the framework's own space)."""
    name = "CumSum"
    t = src.dtype
    if t not in _FLOATS or dst.dtype != t or (output_last_row and last_row.dtype != t):
        raise EmulatorError(f"{name} on {dtype_name(t)}: half or float, dst and lastRow of the same type")
    rows, inner = int(info.outter), int(info.inner)
    if rows <= 0 or inner <= 0:
        raise EmulatorError(f"{name}: CumSumInfo(outter={rows}, inner={inner}) must be positive")
    if inner * t.itemsize % 32:
        raise EmulatorError(f"{name}: inner {inner} must be 32-byte aligned ({dtype_name(t)})")
    need = _tmp_bytes(t, info, bool(is_last_axis)) if tmp is not None else 0
    have = tmp.GetSize() * tmp.dtype.itemsize if tmp is not None else 0
    if have < need:
        raise ApiContractError(f"{name}: sharedTmpBuffer holds {have} bytes, the implementation needs {need} "
                            f"(CumSumInfo({rows}, {inner}), {dtype_name(t)})")
    values = read_local(src, rows * inner, name).reshape(rows, inner)
    out = cumsum_values(values, bool(is_last_axis))
    if need:
        mark_undefined(tmp.ReinterpretCast(np.dtype(np.uint8)), range(need), f"{name}'s scratch")
    write_local(dst, out.reshape(-1), name)
    if output_last_row:
        write_local(last_row, _plus_zero(out[-1]), name)
