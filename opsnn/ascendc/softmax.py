"""AscendC's SoftMax family on Atlas A2, ND layout: SoftMax, SimpleSoftMax, SoftmaxGrad,
SoftmaxGradFront over an [m, k] tensor, row by row (asc-devkit's documented steps):

- SoftMax: max = rowmax(x); e = exp(x - max); sum = rowsum(e); dst = e / sum. sumTensor /
  maxTensor (when given) get each row's value repeated over one 32-byte block (8 floats or 16
  halves a row, the documented layout).
- SimpleSoftMax: dst = exp(x - max) / sum from given (block-broadcast) max and sum.
- SoftmaxGrad: s = rowsum(grad * src); isFront: dst = s block-broadcast; else dst = (grad - s) * src.
  SoftmaxGradFront: the isFront result.

The shape: SoftMaxShapeInfo(srcM, srcK, oriSrcM, oriSrcK) when given (srcM > 0), else the
tiling's srcM / srcK. Rows are srcK elements apart; the reductions take the first oriSrcK
elements of a row (srcK when oriSrcK is 0), the elementwise steps every srcK element.

Precision (each step one rounding, as the instruction that does it): half data is widened to
float first and the results narrowed at the end (to nearest even), as AscendC's A2
implementation computes half softmax in float; subtraction, multiplication and division in
float; exp in float64 rounded once (the Exp instruction's model). The row sum is AscendC's
reduction whose order is not documented for this API: the model sums each row by the pairwise
tree of reduce.tree_sum (as WholeReduceSum sums a repeat), over the whole row. The row max is
order-free (a NaN in a row gives NaN). SoftMaxTiling's split fields (how the device splits rows
into passes through sharedTmpBuffer) do not change the values and are not used; sharedTmpBuffer
is accepted and not written.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .binary import div_values, mul_values, sub_values
from .cast import cast_values
from .errors import EmulatorError
from .ieee import F32, FLOATS
from .local_tensor import LocalTensor, close_local, open_local, read_local
from .reduce import tree_sum
from .rounding import RoundMode
from .unary import exp_values

BLOCK_BYTES = 32


@dataclass
class SoftMaxTiling:
    """AscendC's SoftMaxTiling fields (SoftMaxTilingFunc fills them on the host)."""
    srcM: int = 0  # noqa: N815 - AscendC field names
    srcK: int = 0  # noqa: N815
    srcSize: int = 0  # noqa: N815
    outMaxM: int = 0  # noqa: N815
    outMaxK: int = 0  # noqa: N815
    outMaxSize: int = 0  # noqa: N815
    splitM: int = 0  # noqa: N815
    splitK: int = 0  # noqa: N815
    splitSize: int = 0  # noqa: N815
    reduceM: int = 0  # noqa: N815
    reduceK: int = 0  # noqa: N815
    reduceSize: int = 0  # noqa: N815
    rangeM: int = 0  # noqa: N815
    tailM: int = 0  # noqa: N815
    tailSplitSize: int = 0  # noqa: N815
    tailReduceSize: int = 0  # noqa: N815


@dataclass
class SoftMaxShapeInfo:
    """AscendC's SoftMaxShapeInfo: rows, row length (32-byte aligned), original rows and row length."""
    srcM: int = 0  # noqa: N815 - AscendC field names
    srcK: int = 0  # noqa: N815
    oriSrcM: int = 0  # noqa: N815
    oriSrcK: int = 0  # noqa: N815


def _shape(name: str, t: np.dtype, tiling: SoftMaxTiling, info: SoftMaxShapeInfo | None) -> tuple[int, int, int]:
    """(rows, row length, valid elements of a row)."""
    m, k, ori_k = (info.srcM, info.srcK, info.oriSrcK) if info is not None and info.srcM else (
        tiling.srcM, tiling.srcK, 0)
    m, k, ori_k = int(m), int(k), int(ori_k) or int(k)
    if m <= 0 or k <= 0:
        raise EmulatorError(f"{name}: no shape (SoftMaxShapeInfo and the tiling's srcM / srcK are 0)")
    if k * t.itemsize % BLOCK_BYTES or not 0 < ori_k <= k:
        raise EmulatorError(f"{name}: srcK {k} must be 32-byte aligned and oriSrcK {ori_k} in 1..srcK")
    return m, k, ori_k


def _rows(name: str, lt: LocalTensor, m: int, k: int) -> np.ndarray:
    """[m, k] float32 values of lt (half widened exactly)."""
    values = read_local(lt, m * k, name).copy().reshape(m, k)
    return values if values.dtype == F32 else cast_values(values, F32, RoundMode.CAST_NONE)


def _block_rows(name: str, lt: LocalTensor, m: int) -> np.ndarray:
    """[m] float32: the first element of each row's 32-byte block (max / sum layouts)."""
    per = BLOCK_BYTES // lt.dtype.itemsize
    return _rows(name, lt, m, per)[:, 0]


def _write(name: str, lt: LocalTensor, values32: np.ndarray) -> None:
    out, direct = open_local(lt, values32.size, name)
    out[...] = (values32 if lt.dtype == F32 else cast_values(values32, lt.dtype, RoundMode.CAST_NONE)).reshape(-1)
    close_local(lt, out, direct, name)


def _write_blocks(name: str, lt: LocalTensor, per_row: np.ndarray) -> None:
    per = BLOCK_BYTES // lt.dtype.itemsize
    _write(name, lt, np.repeat(per_row.astype(F32)[:, None], per, axis=1))


def _row_sum(values32: np.ndarray, valid: int) -> np.ndarray:
    return tree_sum(values32[:, :valid])


def _check(name: str, *tensors: LocalTensor) -> np.dtype:
    t = tensors[0].dtype
    if t not in FLOATS or any(x.dtype not in FLOATS for x in tensors):
        raise EmulatorError(f"{name} on {', '.join(str(x.dtype) for x in tensors)}: half or float")
    return t


def _split_tail(rest: tuple) -> tuple[LocalTensor | None, SoftMaxTiling, SoftMaxShapeInfo | None, tuple]:
    """([sharedTmpBuffer,] tiling[, shapeInfo][, more]) -> its parts."""
    rest = list(rest)
    tmp = rest.pop(0) if rest and isinstance(rest[0], LocalTensor) else None
    if not rest or not isinstance(rest[0], SoftMaxTiling):
        raise EmulatorError("the SoftMax APIs take a SoftMaxTiling after their tensors (and sharedTmpBuffer)")
    tiling = rest.pop(0)
    more = [r for r in rest if not isinstance(r, SoftMaxShapeInfo)]
    infos = [r for r in rest if isinstance(r, SoftMaxShapeInfo)]
    return tmp, tiling, infos[0] if infos else None, tuple(more)


def SoftMax(dst: LocalTensor, *args) -> None:  # noqa: N802 - AscendC name
    """``SoftMax(dst, [sum, max,] src, [sharedTmpBuffer,] tiling[, shapeInfo])`` (module docstring)."""
    name = "SoftMax"
    lead = []
    for a in args:
        if not isinstance(a, LocalTensor):
            break
        lead.append(a)
    if len(lead) not in (1, 2, 3, 4):
        raise EmulatorError("SoftMax takes (dst, [sumTensor, maxTensor,] src, [sharedTmpBuffer,] tiling[, shapeInfo])")
    sum_t, max_t, src = (lead[0], lead[1], lead[2]) if len(lead) >= 3 else (None, None, lead[0])
    rest = args[len(lead):]
    _, tiling, info, _ = _split_tail(rest)
    t = _check(name, dst, src)
    m, k, valid = _shape(name, t, tiling, info)
    x = _rows(name, src, m, k)
    with np.errstate(invalid="ignore"):
        row_max = np.max(x[:, :valid], axis=1)
        row_max = np.where(np.isnan(x[:, :valid]).any(axis=1), np.float32(np.nan), row_max).astype(F32)
    e = exp_values(sub_values(x, row_max[:, None]))
    row_sum = _row_sum(e, valid)
    _write(name, dst, div_values(e, row_sum[:, None]))
    if sum_t is not None:
        _write_blocks(name, sum_t, row_sum)
        _write_blocks(name, max_t, row_max)


def SimpleSoftMax(dst: LocalTensor, sum_t: LocalTensor, max_t: LocalTensor, src: LocalTensor,  # noqa: N802
                  *rest) -> None:
    """dst = exp(src - max) / sum with the given block-broadcast sum and max (module docstring)."""
    name = "SimpleSoftMax"
    _, tiling, info, _ = _split_tail(rest)
    t = _check(name, dst, src, sum_t, max_t)
    m, k, _ = _shape(name, t, tiling, info)
    x = _rows(name, src, m, k)
    row_max, row_sum = _block_rows(name, max_t, m), _block_rows(name, sum_t, m)
    _write(name, dst, div_values(exp_values(sub_values(x, row_max[:, None])), row_sum[:, None]))


def SoftmaxGrad(dst: LocalTensor, grad: LocalTensor, src: LocalTensor, *rest) -> None:  # noqa: N802
    """``SoftmaxGrad(dst, grad, src, [sharedTmpBuffer,] tiling[, isFront][, shapeInfo])``."""
    name = "SoftmaxGrad"
    _, tiling, info, more = _split_tail(rest)
    is_front = bool(more[0]) if more else False
    t = _check(name, dst, grad, src)
    m, k, valid = _shape(name, t, tiling, info)
    g, y = _rows(name, grad, m, k), _rows(name, src, m, k)
    s = _row_sum(mul_values(g, y), valid)
    if is_front:
        _write_blocks(name, dst, s)
        return
    _write(name, dst, mul_values(sub_values(g, s[:, None]), y))


def SoftmaxGradFront(dst: LocalTensor, grad: LocalTensor, src: LocalTensor, *rest) -> None:  # noqa: N802
    """dst = rowsum(grad * src), one 32-byte block a row (SoftmaxGrad's isFront result)."""
    SoftmaxGrad(dst, grad, src, *rest, True)
