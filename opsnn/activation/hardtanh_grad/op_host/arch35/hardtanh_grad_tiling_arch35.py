"""HardtanhGrad tiling for arch35 (upstream op_host/arch35/hardtanh_grad_tiling_arch35.cpp).

In upstream's order, each failure a TilingError (GRAPH_FAILED):
  1. result's dtype in {float16, bfloat16, float32}; grad's too, and equal to result's
  2. y's dtype in the list and equal to result's
  3. result, grad and y of one shape (0-d counts as [1]; no broadcasting)
  4. atvoss ElewiseBaseTiling on the dtype's DAG (refuses empty shapes)
  5. min_val / max_val: written as float32 after the base struct (None: upstream writes nothing
     when the attr pointer is null; the bytes are taken as zero here - unverified)
  6. workspace 16 MiB, key GET_TPL_TILING_KEY(scheMode, 1) = 3, block dim = blockNum."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from opsnn.atvoss import ElewiseBaseTiling, TilingError
from opsnn.platform import Platform, get_platform

from ...op_kernel.arch35.hardtanh_grad_dag import DTYPES, hardtanh_grad_dag
from ...op_kernel.arch35.hardtanh_grad_struct import hardtanh_grad_tiling_key
from ...op_kernel.arch35.hardtanh_grad_tilingdata import HardtanhGradTilingData

WORKSPACE_SIZE = 16 * 1024 * 1024  # ASCEND_WORKSPACE, the system workspace


@dataclass(frozen=True)
class TensorDesc:
    """What the tiling context says of one tensor: its storage shape and dtype name."""
    shape: tuple[int, ...]
    dtype: str


@dataclass(frozen=True)
class HardtanhGradTilingResult:
    block_dim: int
    tiling_key: int
    workspace_size: int
    tiling_data: HardtanhGradTilingData
    dtype: str
    shape: tuple[int, ...]  # y's


def _ensure_not_scalar(shape) -> tuple[int, ...]:
    return tuple(int(d) for d in shape) or (1,)


def _check_dtype(name: str, desc: TensorDesc) -> None:
    if desc.dtype not in DTYPES:
        raise TilingError(f"{name} dtype {desc.dtype} is not in [{', '.join(DTYPES)}]")


def hardtanh_grad_tiling(result: TensorDesc, grad: TensorDesc, y: TensorDesc, min_val: float | None,
                         max_val: float | None, platform: Platform | str | None = None) -> HardtanhGradTilingResult:
    if not isinstance(platform, Platform):
        platform = get_platform(platform)
    _check_dtype("result", result)  # CalcInputDtype
    _check_dtype("grad", grad)
    if grad.dtype != result.dtype:
        raise TilingError(f"grad dtype {grad.dtype} differs from result dtype {result.dtype}")
    _check_dtype("y", y)  # CalcOutputDtype
    if y.dtype != result.dtype:
        raise TilingError(f"y dtype {y.dtype} differs from result dtype {result.dtype}")
    shape = _ensure_not_scalar(result.shape)  # CheckShape
    if _ensure_not_scalar(grad.shape) != shape:
        raise TilingError(f"grad shape {list(grad.shape)} differs from result shape {list(result.shape)}")
    if _ensure_not_scalar(y.shape) != shape:
        raise TilingError(f"y shape {list(y.shape)} differs from result shape {list(result.shape)}")
    base = ElewiseBaseTiling(hardtanh_grad_dag(y.dtype), platform).do_tiling(y.shape, [result.shape, grad.shape])
    data = HardtanhGradTilingData(base, 0.0 if min_val is None else min_val, 0.0 if max_val is None else max_val)
    return HardtanhGradTilingResult(base.block_num, hardtanh_grad_tiling_key(base.sche_mode), WORKSPACE_SIZE, data,
                                    y.dtype, tuple(int(d) for d in y.shape))


def tiling_for(shape: Sequence[int], dtype: str, min_val: float = -1.0, max_val: float = 1.0,
               platform: Platform | str | None = None) -> HardtanhGradTilingResult:
    """The tiling of the aclnn case: result, grad and y of `shape` and `dtype`."""
    desc = TensorDesc(tuple(int(d) for d in shape), dtype)
    return hardtanh_grad_tiling(desc, desc, desc, min_val, max_val, platform)


