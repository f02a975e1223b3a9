"""AscendC::MicroAPI's reductions inside one vector register (Ascend950): `Reduce<ReduceType>`
(ReduceSum / ReduceMax / ReduceMin) -- every active lane to one result -- and
`ReduceDataBlock<ReduceType>` (ReduceSumWithDataBlock / ReduceMaxWithDataBlock /
ReduceMinWithDataBlock) -- each 32-byte block's active lanes to one result. micro.py re-exports
them, so Python kernels call them as `micro.Reduce(...)` and the bridge as ``MicroAPI.ReduceSum``.

What AscendC documents (Ascend950's Reduce / ReduceDataBlock pages), and what is modelled:

- The merge mode: ZEROING (None: the default, ZEROING), the one AscendC supports here; MERGING is
  refused by name.
- Where the results go: a Reduce writes its result to lane 0 of dst (MAX / MIN: the value to lane 0
  and the index of the lane it came from to lane 1, the index's bits stored as the lane type --
  reinterpret them as uint16 / uint32 for half / float); a ReduceDataBlock writes block k's result
  to lane k. Every other lane of dst is +0.
- SUM: a pairwise tree over the lanes in element order -- lane 2k + lane 2k+1, then pairs of those
  -- each addition rounded to the type (documented: "二叉树累加"). Inactive lanes take no part:
  they enter the tree as the exact identity (-0.0 for floats, 0 for integers). A register or
  block with no active lane gives +0 (documented). Types (dst, src): (half, half), (float, float),
  (int32, int32), (uint32, uint32), (int32, int16), (uint32, uint16) -- the 16-bit lanes widened
  first, integers wrap -- and, for Reduce only, (int64, int64), (uint64, uint64).
- MAX / MIN: the extreme of the active lanes; ties give the first lane (documented); -0 < +0
  (documented: max(-0, +0) = +0, min(-0, +0) = -0); a NaN among the active lanes gives the type's
  NaN (the default quiet NaN, 0x7E00 / 0x7FC00000: "该数据类型的nan") and the first NaN's index
  (documented); no active lane gives the type's lowest (MAX) or highest (MIN) value -- for floats
  -inf / +inf (the page says "the type's minimum/maximum": infinity is chosen). Types: dst and src
  alike, half, float, int16, uint16, int32, uint32 (and int64, uint64 for Reduce).
- The sanitizer: a result is undefined when an active lane it reads is undefined or a mask bit it
  depends on is; the zeroed lanes are defined."""
from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING

import numpy as np

from opsnn.dtypes import dtype_name

from .binary import add_values
from .errors import EmulatorError
from .ieee import NAN_BITS

if TYPE_CHECKING:
    from .micro_core import MaskMergeMode, MaskReg, RegTensor

# The register helpers are micro_core's (micro.py re-exports this module's instructions).

BLOCK_BYTES = 32  # a DataBlock


class ReduceType(Enum):
    SUM = 0
    MAX = 1
    MIN = 2


_D = np.dtype
_SUM_PAIRS = {(_D(np.float16), _D(np.float16)), (_D(np.float32), _D(np.float32)), (_D(np.int32), _D(np.int32)),
              (_D(np.uint32), _D(np.uint32)), (_D(np.int32), _D(np.int16)), (_D(np.uint32), _D(np.uint16))}
_SUM_PAIRS_B64 = {(_D(np.int64), _D(np.int64)), (_D(np.uint64), _D(np.uint64))}
_EXTREME_TYPES = (_D(np.float16), _D(np.float32), _D(np.int16), _D(np.uint16), _D(np.int32), _D(np.uint32))
_EXTREME_TYPES_B64 = (_D(np.int64), _D(np.uint64))


# ---- the reductions of lanes, shared with the high-level reduce (reduce_pattern.py) ----

def tree_sum(values: np.ndarray, active: np.ndarray) -> np.ndarray:
    """The sum of each row's active lanes (last axis) by the pairwise tree, every addition rounded
    to the type; rows with no active lane give +0 (module docstring)."""
    t = values.dtype
    identity = t.type(-0.0) if t.kind == "f" else t.type(0)
    v = np.where(active, values, identity).astype(t, copy=False)
    n = v.shape[-1]
    width = 1 << max(n - 1, 0).bit_length()
    if width != n:
        pad = np.full(v.shape[:-1] + (width - n,), identity, t)
        v = np.concatenate([v, pad], axis=-1)
    while v.shape[-1] > 1:
        v = add_values(np.ascontiguousarray(v[..., 0::2]), np.ascontiguousarray(v[..., 1::2]))
    out = v[..., 0].copy()
    out[~active.any(axis=-1)] = t.type(0)
    return out


def _order_keys(values: np.ndarray) -> np.ndarray:
    """Integers ordered as the values are, -0 below +0 (floats: sign-magnitude bits to two's
    complement); int64 for every type but uint64."""
    t = values.dtype
    if t.kind != "f":
        return values.astype(np.uint64 if t == _D(np.uint64) else np.int64)
    bits = values.view(np.int32 if t.itemsize == 4 else np.int16).astype(np.int64)
    magnitude = (1 << (8 * t.itemsize - 1)) - 1
    return np.where(bits < 0, -(bits & magnitude) - 1, bits)


def extreme(values: np.ndarray, active: np.ndarray, largest: bool) -> tuple[np.ndarray, np.ndarray]:
    """(value, index) per row (last axis): the largest / smallest active lane, the first of ties;
    a NaN gives the type's default NaN and the first NaN's lane; no active lane gives -inf / +inf
    (floats) or the type's lowest / highest value (module docstring)."""
    t = values.dtype
    keys = _order_keys(values)
    if t.kind == "f":
        empty = t.type(-np.inf if largest else np.inf)
    else:
        info = np.iinfo(t)
        empty = t.type(info.min if largest else info.max)
    lowest = np.iinfo(keys.dtype).min if largest else np.iinfo(keys.dtype).max
    masked = np.where(active, keys, lowest)
    idx = np.argmax(masked, axis=-1) if largest else np.argmin(masked, axis=-1)
    value = np.take_along_axis(values, idx[..., None], axis=-1)[..., 0].copy()
    if t.kind == "f":
        nan = np.isnan(values) & active
        has_nan = nan.any(axis=-1)
        if has_nan.any():
            bits, _, default, _ = NAN_BITS[t]
            value.view(bits)[has_nan] = default
            idx = np.where(has_nan, np.argmax(nan, axis=-1), idx)
    none = ~active.any(axis=-1)
    value[none] = empty
    idx = np.where(none, 0, idx)
    return value, idx


def reduce_values(kind: ReduceType, values: np.ndarray, active: np.ndarray) -> np.ndarray:
    """The result value of each row's reduction (SUM, MAX or MIN), as a Reduce computes it."""
    if kind is ReduceType.SUM:
        return tree_sum(values, active)
    return extreme(values, active, kind is ReduceType.MAX)[0]


# ---- the instructions ----

def _kind(kind) -> ReduceType:
    if not isinstance(kind, ReduceType):
        raise EmulatorError(f"MicroAPI::Reduce: the ReduceType must be SUM, MAX or MIN, got {kind!r}")
    return kind


def _types(name: str, kind: ReduceType, dst: RegTensor, src: RegTensor, per_block: bool) -> tuple[np.dtype, np.dtype]:
    td, ts = dst.dtype, src.dtype
    if kind is ReduceType.SUM:
        allowed = _SUM_PAIRS if per_block else _SUM_PAIRS | _SUM_PAIRS_B64
        ok = (td, ts) in allowed
        what = "(dst, src) pairs " + ", ".join(f"({dtype_name(a)}, {dtype_name(b)})" for a, b in sorted(
            allowed, key=str))
    else:
        allowed = _EXTREME_TYPES if per_block else _EXTREME_TYPES + _EXTREME_TYPES_B64
        ok = td == ts and ts in allowed
        what = "one type of " + ", ".join(dtype_name(a) for a in allowed)
    if not ok:
        raise EmulatorError(f"MicroAPI::{name} from {dtype_name(ts)} to {dtype_name(td)}: takes {what}")
    return td, ts


def _reduce(name: str, kind: ReduceType, dst: RegTensor, src: RegTensor, mask: MaskReg, mode, per_block: bool) -> None:
    from . import micro_core as micro

    kind = _kind(kind)
    if mode is not None and mode is not micro.MaskMergeMode.ZEROING:
        raise EmulatorError(f"MicroAPI::{name} with {getattr(mode, 'name', mode)}: AscendC supports ZEROING only")
    td, ts = _types(name, kind, dst, src, per_block)
    ctx = dst.ctx
    micro._issue(name, ctx)
    size = ts.itemsize
    active, m_undef, m_origin = micro._mask_lanes(name, mask, size)
    values = src.lanes(ts).copy()
    if kind is ReduceType.SUM and td != ts:
        values = values.astype(td)  # the 16-bit lanes widened: the sum is in dst's type
    s_undef = src.lane_undef(size)
    groups = micro.VECTOR_REG_WIDTH // BLOCK_BYTES if per_block else 1
    shape = (groups, values.size // groups)
    lanes_v, lanes_a = values.reshape(shape), active.reshape(shape)
    used = (s_undef & active) | m_undef
    undef = used.reshape(shape).any(axis=1)
    out = np.zeros(micro.VECTOR_REG_WIDTH // td.itemsize, dtype=td)
    out_undef = np.zeros(out.size, dtype=bool)
    if kind is ReduceType.SUM:
        out[:groups] = tree_sum(lanes_v, lanes_a)
        out_undef[:groups] = undef
    else:
        value, index = extreme(lanes_v, lanes_a, kind is ReduceType.MAX)
        out[:groups] = value
        out_undef[:groups] = undef
        if not per_block:  # the index, its bits as the lane type
            out[1:2] = np.array([index[0]], dtype=np.dtype(f"u{td.itemsize}")).view(td)
            out_undef[1] = undef[0]
    origin = micro._source_origin(name, ctx, [src], [s_undef & active]) or m_origin
    micro._write_lanes(dst, td, out, np.ones(out.size, dtype=bool), out_undef, micro.MaskMergeMode.ZEROING, origin)


def Reduce(dst: RegTensor, src: RegTensor, mask: MaskReg, kind: ReduceType = ReduceType.SUM,  # noqa: N802
           mode: MaskMergeMode | None = None) -> None:
    """MicroAPI::Reduce<type>(dst, src, mask): the active lanes of src to lane 0 of dst (MAX / MIN:
    the index to lane 1); module docstring."""
    kind = _kind(kind)
    _reduce(f"Reduce{kind.name.capitalize()}", kind, dst, src, mask, mode, per_block=False)


def ReduceDataBlock(dst: RegTensor, src: RegTensor, mask: MaskReg,  # noqa: N802 - AscendC name
                    kind: ReduceType = ReduceType.SUM, mode: MaskMergeMode | None = None) -> None:
    """MicroAPI::ReduceDataBlock<type>(dst, src, mask): block k's active lanes to lane k of dst."""
    kind = _kind(kind)
    _reduce(f"Reduce{kind.name.capitalize()}WithDataBlock", kind, dst, src, mask, mode, per_block=True)


def _named(kind: ReduceType, per_block: bool):
    suffix = "WithDataBlock" if per_block else ""
    name = f"Reduce{kind.name.capitalize()}{suffix}"

    def op(dst: RegTensor, src: RegTensor, mask: MaskReg, mode: MaskMergeMode | None = None) -> None:
        _reduce(name, kind, dst, src, mask, mode, per_block)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"MicroAPI::{name}(dst, src, mask): {'ReduceDataBlock' if per_block else 'Reduce'}<{kind.name}>."
    return op


ReduceSum = _named(ReduceType.SUM, False)
ReduceMax = _named(ReduceType.MAX, False)
ReduceMin = _named(ReduceType.MIN, False)
ReduceSumWithDataBlock = _named(ReduceType.SUM, True)
ReduceMaxWithDataBlock = _named(ReduceType.MAX, True)
ReduceMinWithDataBlock = _named(ReduceType.MIN, True)

__all__ = ["Reduce", "ReduceDataBlock", "ReduceMax", "ReduceMaxWithDataBlock", "ReduceMin", "ReduceMinWithDataBlock",
           "ReduceSum", "ReduceSumWithDataBlock", "ReduceType", "extreme", "reduce_values", "tree_sum"]
