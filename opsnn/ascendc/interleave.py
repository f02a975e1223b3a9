"""Interleave / DeInterleave over LocalTensors (Ascend950's data rearrangement, count form):

- ``Interleave(dst0, dst1, src0, src1, count)``: the sequence src0[0], src1[0], src0[1], src1[1], ...
  (2 x count elements), its first count into dst0 and the rest into dst1;
- ``DeInterleave(dst0, dst1, src0, src1, count)``: of src0 followed by src1 (2 x count elements),
  the even elements into dst0 and the odd into dst1; ``DeInterleave(dst0, dst1, src, srcCount)`` the
  same over src's srcCount elements (srcCount / 2 each).

count must be even; the tensors share one type; every address 32-byte aligned (AscendC's rules,
refused otherwise). Sources and destinations must not overlap (AscendC does not support it): an
overlap is an api_contract_violation."""
from __future__ import annotations

import numpy as np

from opsnn.dtypes import bfloat16

from .datacopy_params import _check_ub_aligned
from .errors import ApiContractError, EmulatorError
from .local_tensor import LocalTensor, read_local, write_local

_TYPES = tuple(np.dtype(t) for t in ("int8", "uint8", "int16", "uint16", "float16", "int32", "uint32", "float32",
                                      "int64", "uint64"))


def _checked(name: str, tensors: list[LocalTensor], count: int) -> int:
    count = int(count)
    t = tensors[0].dtype
    if any(x.dtype != t for x in tensors) or (t not in _TYPES and t != bfloat16):
        raise EmulatorError(f"{name}: one type for every tensor, an 8- to 64-bit integer, half, bfloat16 or float")
    if count < 0 or count % 2:
        raise EmulatorError(f"{name}: count {count} must be even (AscendC)")
    for x in tensors:
        _check_ub_aligned(x, name, count * t.itemsize, 32)
    return count


def _no_overlap(name: str, dsts: list[LocalTensor], srcs: list[LocalTensor], nbytes: int) -> None:
    for d in dsts:
        for s in srcs:
            a0, b0 = d.ub_addr, d.ub_addr + nbytes
            a1, b1 = s.ub_addr, s.ub_addr + nbytes
            if a0 < b1 and a1 < b0:
                raise ApiContractError(f"{name}: a destination overlaps a source (UB [{a0}, {b0}) and [{a1}, {b1})); "
                                       "AscendC does not support it")


def Interleave(dst0: LocalTensor, dst1: LocalTensor, src0: LocalTensor, src1: LocalTensor,  # noqa: N802
               count: int) -> None:
    """dst0 | dst1 = src0[0], src1[0], src0[1], src1[1], ... (module docstring)."""
    n = _checked("Interleave", [dst0, dst1, src0, src1], count)
    _no_overlap("Interleave", [dst0, dst1], [src0, src1], n * dst0.dtype.itemsize)
    if n == 0:
        return
    seq = np.empty(2 * n, dtype=src0.dtype)
    seq[0::2], seq[1::2] = read_local(src0, n, "Interleave"), read_local(src1, n, "Interleave")
    write_local(dst0, seq[:n], "Interleave")
    write_local(dst1, seq[n:], "Interleave")


def DeInterleave(dst0: LocalTensor, dst1: LocalTensor, *rest) -> None:  # noqa: N802
    """The even elements into dst0, the odd into dst1 (module docstring): ``(src0, src1, count)`` or
    ``(src, srcCount)``."""
    if len(rest) == 3:
        src0, src1, count = rest
        n = _checked("DeInterleave", [dst0, dst1, src0, src1], count)
        _no_overlap("DeInterleave", [dst0, dst1], [src0, src1], n * dst0.dtype.itemsize)
        seq = np.concatenate([read_local(src0, n, "DeInterleave"), read_local(src1, n, "DeInterleave")]) if n else None
    elif len(rest) == 2:
        src, total = rest
        n = _checked("DeInterleave", [dst0, dst1, src], total) // 2
        _no_overlap("DeInterleave", [dst0, dst1], [src], 2 * n * dst0.dtype.itemsize)
        seq = read_local(src, 2 * n, "DeInterleave") if n else None
    else:
        raise EmulatorError("DeInterleave takes (dst0, dst1, src0, src1, count) or (dst0, dst1, src, srcCount)")
    if seq is None:
        return
    write_local(dst0, np.ascontiguousarray(seq[0::2]), "DeInterleave")
    write_local(dst1, np.ascontiguousarray(seq[1::2]), "DeInterleave")


__all__ = ["DeInterleave", "Interleave"]
