"""ThresholdV2 tiling for arch35 (upstream threshold_v2_tiling_arch35.cpp; docs/threshold-v2.md §7).

Checks, in upstream's order (each failure is a TilingError, upstream's GRAPH_FAILED): x, threshold
and value (when present) of the eight dtypes (they may differ from each other); y of x's dtype;
y of x's shape (0-d counts as [1]). Then atvoss ElewiseBaseTiling on x's DAG, which refuses
inputs that are neither of the output's shape nor one element, and empty shapes. Key =
GET_TPL_TILING_KEY(schMode, hasValue); block dim = blockNum; workspace 0."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from opsnn.atvoss import EleBaseTilingData, ElewiseBaseTiling, TilingError
from opsnn.platform import Platform, get_platform

from ...op_kernel.arch35.threshold_dag import DTYPES, threshold_dag
from ...op_kernel.arch35.threshold_tiling_struct import threshold_tiling_key

WORKSPACE_SIZE = 0


@dataclass(frozen=True)
class TensorDesc:
    """What the tiling context says of one tensor: its storage shape and dtype name."""
    shape: tuple[int, ...]
    dtype: str


@dataclass(frozen=True)
class ThresholdV2TilingResult:
    block_dim: int
    tiling_key: int
    workspace_size: int
    tiling_data: EleBaseTilingData
    dtype: str  # x's
    has_value: bool
    shape: tuple[int, ...]  # y's


def _ensure_not_scalar(shape) -> tuple[int, ...]:
    return tuple(int(d) for d in shape) or (1,)  # upstream EnsureNotScalar: [] is [1]


def _check_dtype(name: str, desc: TensorDesc) -> None:
    if desc.dtype not in DTYPES:
        raise TilingError(f"{name} dtype {desc.dtype} is not in [{', '.join(DTYPES)}]")


def threshold_v2_tiling(x: TensorDesc, threshold: TensorDesc, value: TensorDesc | None, y: TensorDesc,
                        platform: Platform | str | None = None) -> ThresholdV2TilingResult:
    if not isinstance(platform, Platform):
        platform = get_platform(platform)
    _check_dtype("x", x)
    _check_dtype("threshold", threshold)
    if value is not None:
        _check_dtype("value", value)
    if y.dtype != x.dtype:
        raise TilingError(f"y dtype {y.dtype} differs from x dtype {x.dtype}")
    if _ensure_not_scalar(x.shape) != _ensure_not_scalar(y.shape):
        raise TilingError(f"y shape {list(y.shape)} differs from x shape {list(x.shape)}")
    has_value = value is not None
    inputs: Sequence[tuple[int, ...]] = [x.shape, threshold.shape] + ([value.shape] if has_value else [])
    dag = threshold_dag(x.dtype, has_value)
    data = ElewiseBaseTiling(dag, platform).do_tiling(y.shape, inputs)
    return ThresholdV2TilingResult(data.block_num, threshold_tiling_key(data.sche_mode, has_value), WORKSPACE_SIZE,
                                   data, x.dtype, has_value, tuple(y.shape))


def tiling_for(shape: Sequence[int], dtype: str, platform: Platform | str | None = None,
               has_value: bool = True) -> ThresholdV2TilingResult:
    """The tiling of the aclnn case: x and y of `shape`, one-element threshold / value of x's dtype."""
    shape = tuple(int(d) for d in shape)
    scalar = TensorDesc((), dtype)
    return threshold_v2_tiling(TensorDesc(shape, dtype), scalar, scalar if has_value else None,
                               TensorDesc(shape, dtype), platform)
