"""AscendC's high-level SelectWithBytesMask on Atlas A2: a choice per element by a mask tensor
of whole elements (not bits), over firstAxis rows:

- ``SelectWithBytesMask(dst, src0, scalar, mask, tmp, info)``: dst = scalar where the mask element
  is true, src0 where it is false;
- ``SelectWithBytesMask(dst, scalar, src1, mask, tmp, info)``: dst = src1 where true, scalar where
  false (AscendC: "True: select scalar, false: select src" for the first form, the reverse form
  swaps them).

info = SelectWithBytesMaskShapeInfo(firstAxis, srcLastAxis, maskLastAxis): rows of srcLastAxis
elements of src / dst, rows of maskLastAxis (>= srcLastAxis) elements of mask. A mask element is
true as AscendC's A2 implementation decides it, through a half it converts the mask to and compares
with 0: a 1-byte mask by its byte, a 2-byte one as an int16 (so a half -0.0, 0x8000, is true), a
4-byte one as a float narrowed to half with CAST_ODD (nonzero and NaN are true, +-0 false).
With isReuseMask (the default) and rows of different lengths, the implementation first compacts
the mask's rows in place -- the kernel's mask tensor is overwritten with its first srcLastAxis
elements of each row, one row after another -- and the model does the same; without it the
compaction goes to sharedTmpBuffer, which the model does not write."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .core import MaskState
from .errors import EmulatorError
from .ieee import FLOATS
from .local_tensor import LocalTensor, close_local, open_local, read_local, write_local
from .scalar_ops import to_scalar


@dataclass
class SelectWithBytesMaskShapeInfo:
    """AscendC's SelectWithBytesMaskShapeInfo."""
    firstAxis: int = 0  # noqa: N815 - AscendC field names
    srcLastAxis: int = 0  # noqa: N815
    maskLastAxis: int = 0  # noqa: N815


def mask_is_true(mask: np.ndarray) -> np.ndarray:
    """AscendC A2's truth of mask elements (module docstring)."""
    size = mask.dtype.itemsize
    if size == 1:
        return mask.view(np.uint8) != 0
    if size == 2:
        return mask.view(np.int16) != 0
    if size == 4:
        f = mask.view(np.float32)
        return (f != 0) | np.isnan(f)
    raise EmulatorError(f"SelectWithBytesMask mask of {mask.dtype}: 1, 2 or 4 bytes an element")


def SelectWithBytesMask(dst: LocalTensor, src0, src1, mask: LocalTensor, tmp: LocalTensor,  # noqa: N802
                        info: SelectWithBytesMaskShapeInfo, is_reuse_mask: bool = True) -> None:
    """dst = (mask ? second operand : first operand), row by row (module docstring)."""
    name = "SelectWithBytesMask"
    t = dst.dtype
    if isinstance(src0, LocalTensor) == isinstance(src1, LocalTensor):
        raise EmulatorError("SelectWithBytesMask takes one LocalTensor and one scalar (in either order)")
    tensor = src0 if isinstance(src0, LocalTensor) else src1
    if t not in FLOATS or tensor.dtype != t:
        raise EmulatorError(f"SelectWithBytesMask on {tensor.dtype} -> {t}: half or float, one type")
    rows, cols, mcols = int(info.firstAxis), int(info.srcLastAxis), int(info.maskLastAxis)
    if rows <= 0 or cols <= 0 or mcols < cols:
        raise EmulatorError(f"SelectWithBytesMask shape {rows} x {cols} with mask rows of {mcols}: maskLastAxis "
                            ">= srcLastAxis > 0")
    values = read_local(tensor, rows * cols, name).copy().reshape(rows, cols)
    mask_rows = read_local(mask, rows * mcols, name).copy().reshape(rows, mcols)[:, :cols]
    truth = mask_is_true(np.ascontiguousarray(mask_rows))
    scalar = to_scalar(src1 if tensor is src0 else src0, t)
    picked = np.where(truth, scalar, values) if tensor is src0 else np.where(truth, values, scalar)
    if is_reuse_mask and mcols != cols:
        write_local(mask, np.ascontiguousarray(mask_rows).reshape(-1), name)
    out, direct = open_local(dst, rows * cols, name)
    out[...] = picked.astype(t).reshape(-1)
    close_local(dst, out, direct, name)
    dst.ctx.vector_mask = MaskState()
