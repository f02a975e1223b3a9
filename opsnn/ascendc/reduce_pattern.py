"""AscendC's high-level ReduceSum / ReduceMax / ReduceMin<T, Pattern::Reduce::AR | RA,
isReuseSource> on Ascend950: a 2-D tile reduced along its last axis (AR: one result per row) or its
first (RA: one result per column). Python kernels call `PatternReduceSum(dst, src, srcShape,
srcInnerPad, ReducePattern.AR, isReuseSource[, sharedTmpBuffer])`; C++ kernels reach the same
functions through opsnn_kt/reduce_pattern_api.h.

The tile: srcShape = [rows, cols], row r's elements at src[r * cols .. r * cols + cols) (dense;
srcInnerPad is accepted and, as in AscendC's Ascend950 implementation, not read). AR writes
dst[0 .. rows), RA dst[0 .. cols).

The order of the operations is AscendC's Ascend950 implementation's ("multi-way binary-tree
folding"), so float sums round as on the device. With f the binary op (Add / Max / Min, rounded to
T) and g a register reduction (micro_reduce: the pairwise tree for SUM; MAX / MIN take the
extreme, a NaN giving the type's default NaN), vl = 256 / sizeof(T) lanes, mainR the largest power
of two <= the reduced extent (at most 2^15) and tailR the rest:

- AR, cols * sizeof(T) a multiple of 32 ("aligned", or cols == 1):
  - cols <= vl: cols == 1 copies; a row of one 32-byte block is g of it; a row of 2 or 3 blocks
    (less than half a register) adds its blocks one after another, f(block k, acc), then g of the
    8 (16 for half) lanes; otherwise g of the row (bfloat16 / 8-bit types: g of the row always).
  - cols > vl: first tailR elements folded into the main part -- with isReuseSource in place,
    x[i] = f(x[i], x[mainR + i]); without it into sharedTmpBuffer (rows of mainR), the tail's whole
    registers onto the first ones and its last partial register onto register 0, and a row whose
    cols is a power of two split in halves first (mainR halved, tailR = mainR). Then the mainR / vl
    registers of a row in groups of 16 consecutive ones, each group halved four times (register k
    with k + 8, then k + 4, k + 2, k + 1) into one, stored, until fewer than 16 remain; those
    halved the same way in registers; g of the last one.
- AR, not aligned: cols < vl: g of the row; else (always in place in src, whatever
  isReuseSource says): x[i] = f(x[i], x[mainR + i]) for the tail, then the registers halved
  across the whole row (register k with k + n/2), four halvings per stored round, g at the end.
- RA (rows reduced, each column on its own; cols * sizeof(T) a multiple of 32 is "aligned"): the
  tail rows folded first (row i = f(row i, row mainR + i); isReuseSource: in src, else into
  sharedTmpBuffer with the untouched main rows copied there; a power-of-two row count without
  isReuseSource halved first, except unaligned); then:
  - aligned with cols <= vl / 2 (or > 65535), and unaligned, and aligned cols > vl: the rows halved
    across the whole set (row i with row i + n/2) until one is left -- each level stored, except
    the last (cols <= vl / 2) or except within a round of four (the other two);
  - aligned vl / 2 < cols <= vl: groups of 16 consecutive rows, each halved four times into one
    row, stored, then the last few rows halved.
  (rows == 1 copies.)
- 8-byte types (int64 / uint64): the result only (integer sums wrap and do not depend on the
  order); their intermediate writes into src / sharedTmpBuffer are not modelled.

What lands in src (isReuseSource, or an unaligned tile) and in sharedTmpBuffer (when passed) is
what the algorithm stores there, element by element, so a sharedTmpBuffer smaller than the
algorithm's use is local_tensor_overflow, and a kernel that reads src afterwards reads what the
device leaves there. Without sharedTmpBuffer AscendC uses a stack buffer of its own: not modelled
as UB. The sanitizer's undefined values travel element by element through every step.

Types: ReduceSum float32, int32, uint32, int64, uint64 (AscendC's list: no half); ReduceMax /
ReduceMin also int8, uint8, int16, uint16, half, bfloat16 (bfloat16 computed in float, 8-bit types
in half, as AscendC does: exact for max / min)."""
from __future__ import annotations

from enum import Enum

import numpy as np

from opsnn.dtypes import bfloat16, dtype_name

from .binary import add_values, max_values, min_values
from .cast import cast_values
from .errors import EmulatorError
from .local_tensor import LocalTensor, mark_undefined, read_local
from .micro_reduce import ReduceType, reduce_values
from .repeat import _store
from .rounding import RoundMode

VECTOR_BYTES = 256
BLOCK_BYTES = 32
MAIN_R_CAP = 1 << 15  # CalculateMainR looks at 15 bits of the extent
U16_STRIDE = 65535


class ReducePattern(Enum):
    """Pattern::Reduce::AR (the last axis reduced) and RA (the first)."""
    AR = "AR"
    RA = "RA"


_D = np.dtype
_SUM_TYPES = (_D(np.float32), _D(np.int32), _D(np.uint32), _D(np.int64), _D(np.uint64))
_EXTREME_TYPES = (_D(np.int8), _D(np.uint8), _D(np.int16), _D(np.uint16), _D(np.float16), bfloat16, _D(np.float32),
                  _D(np.int32), _D(np.uint32), _D(np.int64), _D(np.uint64))


def _pow2_floor(n: int, cap: int = MAIN_R_CAP) -> int:
    return min(1 << (max(n, 1).bit_length() - 1), cap)


class _Mem:
    """A working copy of a UB range as the algorithm sees it: values, undefined flags, and which
    elements it wrote; padded by one register so whole-register loads past the end read lanes the
    masks then leave out."""

    def __init__(self, values: np.ndarray, undef: np.ndarray, pad: int):
        self.v = np.concatenate([values, np.zeros(pad, values.dtype)])
        self.u = np.concatenate([undef, np.ones(pad, bool)])
        self.w = np.zeros(self.v.size, bool)

    @classmethod
    def blank(cls, dtype, count: int, pad: int) -> _Mem:
        return cls(np.zeros(count, dtype), np.ones(count, bool), pad)

    def load(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return self.v[index], self.u[index]

    def store(self, index: np.ndarray, values: np.ndarray, undef: np.ndarray) -> None:
        self.v[index] = values
        self.u[index] = undef
        self.w[index] = True


def _rows_index(starts: np.ndarray, offset: int, lanes: int) -> np.ndarray:
    """[rows, lanes]: element `offset + j` of each row starting at starts[r]."""
    return starts[:, None] + offset + np.arange(lanes)[None, :]


def _chunks_index(starts: np.ndarray, count: int, vl: int) -> np.ndarray:
    """[count, rows, vl]: register k (elements k * vl ..) of each row."""
    return starts[None, :, None] + (np.arange(count) * vl)[:, None, None] + np.arange(vl)[None, None, :]


class _Op:
    """The reduction's binary op f and register reduction g, on the compute type."""

    def __init__(self, kind: ReduceType, compute: np.dtype):
        self.kind = kind
        self.compute = compute
        self._f = {ReduceType.SUM: add_values, ReduceType.MAX: max_values, ReduceType.MIN: min_values}[kind]

    def f(self, a: tuple, b: tuple) -> tuple[np.ndarray, np.ndarray]:
        (av, au), (bv, bu) = a, b
        with np.errstate(all="ignore"):
            return np.asarray(self._f(av, bv), self.compute), au | bu

    def g(self, a: tuple, lanes: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Each row's reduction over its first `lanes` lanes (all by default)."""
        v, u = a
        if lanes is not None:
            v, u = v[..., :lanes], u[..., :lanes]
        active = np.ones(v.shape, bool)
        with np.errstate(all="ignore"):
            return reduce_values(self.kind, v, active), u.any(axis=-1)


def _halve(op: _Op, v: np.ndarray, u: np.ndarray, axis: int) -> tuple[np.ndarray, np.ndarray]:
    h = v.shape[axis] // 2
    lo = [slice(None)] * v.ndim
    hi = [slice(None)] * v.ndim
    lo[axis], hi[axis] = slice(0, h), slice(h, 2 * h)
    return op.f((v[tuple(lo)], u[tuple(lo)]), (v[tuple(hi)], u[tuple(hi)]))


def _fold(op: _Op, items: tuple, local: bool, store) -> tuple[np.ndarray, np.ndarray]:
    """Items (axis 0: a power-of-two count) folded to one: rounds of four halvings, each round's
    result stored (store(values, undef)); then the rest halved without storing. local: a round
    works on groups of 16 consecutive items, else the halvings span all items."""
    v, u = items
    levels = v.shape[0].bit_length() - 1
    for _ in range(levels // 4):
        n = v.shape[0]
        if local:
            v, u = v.reshape((n // 16, 16) + v.shape[1:]), u.reshape((n // 16, 16) + u.shape[1:])
            for _ in range(4):
                v, u = _halve(op, v, u, 1)
            v, u = v[:, 0], u[:, 0]
        else:
            for _ in range(4):
                v, u = _halve(op, v, u, 0)
        store(v, u)
    for _ in range(levels % 4):
        v, u = _halve(op, v, u, 0)
    return v[0], u[0]


def _reduce_ar(op: _Op, src: _Mem, tmp: _Mem | None, rows: int, cols: int, reuse: bool, vl: int,
               cast_path: bool, itemsize: int) -> tuple:
    rs = np.arange(rows, dtype=np.int64) * cols
    aligned = (cols * itemsize) % BLOCK_BYTES == 0 or cols == 1
    if cols == 1:
        v, u = src.load(_rows_index(rs, 0, 1))
        return v[:, 0], u[:, 0]
    if cols <= vl:
        block = BLOCK_BYTES // itemsize
        if aligned and not cast_path and cols < vl // 2 and cols != block:
            acc = src.load(_rows_index(rs, 0, block))
            for k in range(1, cols // block):
                acc = op.f(src.load(_rows_index(rs, k * block, block)), acc)
            return op.g(acc)
        return op.g(src.load(_rows_index(rs, 0, cols)))
    main = _pow2_floor(cols)
    tail = cols - main
    if aligned and not reuse and tail == 0:
        main //= 2
        tail = main
    if not aligned or reuse:
        work, ws = src, rs
        work.store(_rows_index(rs, 0, tail), *op.f(src.load(_rows_index(rs, 0, tail)),
                                                   src.load(_rows_index(rs, main, tail))))
    else:
        work, ws = tmp, np.arange(rows, dtype=np.int64) * main
        whole = (tail // vl) * vl
        work.store(_rows_index(ws, 0, whole), *op.f(src.load(_rows_index(rs, 0, whole)),
                                                    src.load(_rows_index(rs, main, whole))))
        work.store(_rows_index(ws, whole, main - whole), *src.load(_rows_index(rs, whole, main - whole)))
        if tail > whole:  # the tail's partial register goes onto register 0
            part = tail - whole
            work.store(_rows_index(ws, 0, part), *op.f(work.load(_rows_index(ws, 0, part)),
                                                      src.load(_rows_index(rs, main + whole, part))))
    base = main // vl

    def store(v, u):
        work.store(_chunks_index(ws, v.shape[0], vl), v, u)
    last = _fold(op, work.load(_chunks_index(ws, base, vl)), aligned, store)
    return op.g(last)


def _reduce_ra(op: _Op, src: _Mem, tmp: _Mem | None, rows: int, cols: int, reuse: bool, vl: int,
               itemsize: int, batch_invariant: bool = False) -> tuple:
    cs = np.arange(cols, dtype=np.int64)

    def row_index(first: int, count: int) -> np.ndarray:
        return (np.arange(first, first + count, dtype=np.int64) * cols)[:, None] + cs[None, :]

    if rows == 1:
        v, u = src.load(row_index(0, 1))
        return v[0], u[0]
    aligned = (cols * itemsize) % BLOCK_BYTES == 0 or batch_invariant
    if not aligned:
        variant = "global"
    elif cols <= vl // 2 or cols > U16_STRIDE:
        variant = "concat"
    else:
        variant = "local" if cols <= vl or batch_invariant else "global"
    main = _pow2_floor(rows)
    tail = rows - main
    if aligned and not reuse and tail == 0:
        main //= 2
        tail = main
    if variant == "concat" and rows == 2:
        v, u = op.f(src.load(row_index(0, 1)), src.load(row_index(1, 1)))
        return v[0], u[0]
    in_place = reuse or not aligned
    work = src if in_place else tmp
    if not in_place:
        work.store(row_index(tail, main - tail), *src.load(row_index(tail, main - tail)))
    work.store(row_index(0, tail), *op.f(src.load(row_index(0, tail)), src.load(row_index(main, tail))))
    items = work.load(row_index(0, main))
    if variant == "concat":  # every halving stored but the last
        v, u = items
        while v.shape[0] > 2:
            v, u = _halve(op, v, u, 0)
            work.store(row_index(0, v.shape[0]), v, u)
        v, u = _halve(op, v, u, 0)
        return v[0], u[0]

    def store(v, u):
        work.store(row_index(0, v.shape[0]), v, u)
    return _fold(op, items, variant == "local", store)


def _read(lt: LocalTensor, count: int, name: str, compute: np.dtype) -> tuple[np.ndarray, np.ndarray, str | None]:
    """count elements of lt as the compute type, the sanitizer's undefined ones flagged, and where
    undefined bytes were first read (None: none)."""
    ctx = lt.ctx
    before = len(ctx.undefined_inputs)
    values = read_local(lt, count, name).copy()
    undef = np.zeros(count, bool)
    origin = None
    for entry in ctx.undefined_inputs[before:]:
        if entry[0] == name:
            undef[max(entry[1], 0):min(entry[2], count)] = True
            origin = origin or entry[3]
    ctx.undefined_inputs[before:] = [e for e in ctx.undefined_inputs[before:] if e[0] != name]
    return (cast_values(values, compute, RoundMode.CAST_NONE) if values.dtype != compute else values), undef, origin


def _write(lt: LocalTensor, values: np.ndarray, undef: np.ndarray, positions: np.ndarray, name: str,
           origin: str | None) -> None:
    """values[positions] at lt's elements `positions` (runs of consecutive ones, one write each),
    converted to lt's type; the undefined ones marked so."""
    if positions.size == 0:
        return
    out = values if values.dtype == lt.dtype else cast_values(values, lt.dtype, RoundMode.CAST_RINT)
    cuts = np.flatnonzero(np.diff(positions) != 1) + 1
    lt.ctx.undefined_inputs[:] = [e for e in lt.ctx.undefined_inputs if e[0] != name]
    for run in np.split(positions, cuts):
        a, b = int(run[0]), int(run[-1]) + 1
        _store(lt[a], np.ascontiguousarray(out[a:b]), name)
    bad = positions[undef[positions]]
    if bad.size:
        mark_undefined(lt, bad, origin or name)


def _check(name: str, kind: ReduceType, dst: LocalTensor, src: LocalTensor, tmp, src_shape, pattern) -> tuple:
    t = src.dtype
    allowed = _SUM_TYPES if kind is ReduceType.SUM else _EXTREME_TYPES
    if t not in allowed or dst.dtype != t:
        raise EmulatorError(f"{name} on {dtype_name(t)} -> {dtype_name(dst.dtype)}: AscendC's Ascend950 {name} takes "
                            f"{', '.join(dtype_name(a) for a in allowed)}, one type for dst and src")
    if not isinstance(pattern, ReducePattern):
        raise EmulatorError(f"{name}: the pattern must be ReducePattern.AR or RA (Pattern::Reduce::AR / RA), "
                            f"got {pattern!r}")
    if tmp is not None and (not isinstance(tmp, LocalTensor) or tmp.dtype.itemsize != 1):
        raise EmulatorError(f"{name}: sharedTmpBuffer is a LocalTensor<uint8_t>")
    try:
        rows, cols = (int(v) for v in src_shape)
    except (TypeError, ValueError):
        raise EmulatorError(f"{name}: srcShape is [rows, cols], got {src_shape!r}") from None
    if rows < 0 or cols < 0:
        raise EmulatorError(f"{name}: srcShape [{rows}, {cols}] has a negative extent")
    return rows, cols


def _pattern_reduce(name: str, kind: ReduceType, dst: LocalTensor, src: LocalTensor, src_shape, src_inner_pad,
                    pattern, is_reuse_source: bool, tmp: LocalTensor | None, batch_invariant: bool = False) -> None:
    rows, cols = _check(name, kind, dst, src, tmp, src_shape, pattern)
    ctx = src.ctx
    ctx.counters.issue(name)
    if rows == 0 or cols == 0:
        return
    t = src.dtype
    compute = _D(np.float32) if t == bfloat16 else t
    vl = VECTOR_BYTES // (4 if t.itemsize == 8 else t.itemsize)
    count = rows * cols
    values, undef, origin = _read(src, count, name, compute)
    op = _Op(kind, compute)
    if t.itemsize == 8:  # integers: the order does not matter (module docstring)
        v = values.reshape(rows, cols)
        u = undef.reshape(rows, cols)
        axis = 1 if pattern is ReducePattern.AR else 0
        with np.errstate(all="ignore"):
            if kind is ReduceType.SUM:
                result = np.add.reduce(v, axis=axis, dtype=t)
            else:
                result = (np.max if kind is ReduceType.MAX else np.min)(v, axis=axis)
        _write(dst, np.asarray(result, t), u.any(axis=axis), np.arange(result.size), name, origin)
        return
    reuse = bool(is_reuse_source)
    mem = _Mem(values, undef, vl)
    scratch = _Mem.blank(compute, count, vl)
    if pattern is ReducePattern.AR:
        cast_path = t == bfloat16 or t.itemsize == 1
        result, result_undef = _reduce_ar(op, mem, scratch, rows, cols, reuse, vl, cast_path, t.itemsize)
    else:
        result, result_undef = _reduce_ra(op, mem, scratch, rows, cols, reuse or batch_invariant, vl, t.itemsize,
                                          batch_invariant)
    result = np.asarray(result, compute)
    _write(src, mem.v, mem.u, np.flatnonzero(mem.w[:count]), name, origin)
    if tmp is not None:
        as_t = tmp.ReinterpretCast(t)
        _write(as_t, scratch.v, scratch.u, np.flatnonzero(scratch.w[:count]), name, origin)
    _write(dst, result, np.asarray(result_undef, bool), np.arange(result.size), name, origin)


def PatternReduceSum(dst: LocalTensor, src: LocalTensor, srcShape, srcInnerPad: bool,  # noqa: N802, N803
                     pattern: ReducePattern, isReuseSource: bool = False,  # noqa: N803 - AscendC names
                     sharedTmpBuffer: LocalTensor | None = None) -> None:  # noqa: N803
    """ReduceSum<T, pattern, isReuseSource>(dst, src[, sharedTmpBuffer], srcShape, srcInnerPad) of
    Ascend950 (module docstring: the order of the additions)."""
    _pattern_reduce("ReduceSum", ReduceType.SUM, dst, src, srcShape, srcInnerPad, pattern, isReuseSource,
                    sharedTmpBuffer)


def PatternReduceMax(dst: LocalTensor, src: LocalTensor, srcShape, srcInnerPad: bool,  # noqa: N802, N803
                     pattern: ReducePattern, isReuseSource: bool = False,  # noqa: N803
                     sharedTmpBuffer: LocalTensor | None = None) -> None:  # noqa: N803
    """ReduceMax<T, pattern, isReuseSource> of Ascend950: the largest of each row (AR) or column (RA);
    a NaN wins (module docstring: which NaN)."""
    _pattern_reduce("ReduceMax", ReduceType.MAX, dst, src, srcShape, srcInnerPad, pattern, isReuseSource,
                    sharedTmpBuffer)


def PatternReduceMin(dst: LocalTensor, src: LocalTensor, srcShape, srcInnerPad: bool,  # noqa: N802, N803
                     pattern: ReducePattern, isReuseSource: bool = False,  # noqa: N803
                     sharedTmpBuffer: LocalTensor | None = None) -> None:  # noqa: N803
    """ReduceMin<T, pattern, isReuseSource> of Ascend950: the smallest of each row (AR) or column (RA)."""
    _pattern_reduce("ReduceMin", ReduceType.MIN, dst, src, srcShape, srcInnerPad, pattern, isReuseSource,
                    sharedTmpBuffer)


def BatchInvariantReduceSumRA(dst: LocalTensor, src: LocalTensor, srcShape) -> None:  # noqa: N802, N803
    """The atvoss reduce schedule's own RA sum for batch-invariant kernels (ReduceSumOp's
    ComputeBatchInvariant): in place in src, the tail rows folded in, then groups of 16
    consecutive rows halved into one whatever the column count (above half a register; at or
    below it the rows halved across the whole set, as ReduceSum<RA>), so a column's order of
    additions does not depend on how many columns the tile has."""
    _pattern_reduce("ReduceSum", ReduceType.SUM, dst, src, srcShape, False, ReducePattern.RA, True, None,
                    batch_invariant=True)


__all__ = ["BatchInvariantReduceSumRA", "PatternReduceMax", "PatternReduceMin", "PatternReduceSum", "ReducePattern"]
