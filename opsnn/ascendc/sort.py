"""Sorting on Atlas A2: Sort32, MrgSort, the high-level Sort, Extract, Concat, GetSortLen and
GetSortOffset, on AscendC's A2 "(score, index)" layout.

Layout (documented): a sorted element is an 8-byte record -- the score (half or float) in its
low bytes, its uint32 index in the high 4 bytes; a half score leaves bytes 2..3 reserved (the
model writes zeros there). GetSortLen<T>(n) / GetSortOffset<T>(n) count T elements of that
layout: 4 n for half, 2 n for float (AscendC's A2 implementation; its documentation says bytes).

- Sort32(dst, src0, src1, repeatTime): each repeat sorts 32 scores of src0 with the uint32
  indices of src1 into 32 records, descending by score, equal scores in their input order
  (documented); repeat r reads src0[32 r..], src1[32 r..] and writes records 32 r.. of dst.
- MrgSort(dst, [src1..src4], MrgSort4Info(elementLengths, ifExhaustedSuspension, validBit,
  repeatTimes)): merges 2..4 sorted lists of records (validBit 3, 7, 15) into dst, descending;
  equal scores: the earlier list's record first (documented). With ifExhaustedSuspension it
  stops when a list runs out, after that list's last record. How many records of each list it
  took is left in MRG_SORT_RESULT (GetMrgSortResult). repeatTimes > 1 (4 equal lists stored one
  after another) merges repeatTimes groups, each 4 lists further on.
- Sort<T, isFullSort>(dst, concat, index, tmp, repeatTime): Sort32 over repeatTime * 32 scores;
  isFullSort then merges every group into one descending list (AscendC's A2 implementation
  merges in rounds of 4 through tmp: the result is every record in descending score order, equal
  scores in input order; tmp is written with the Sort32 records).
- Extract(dstValue, dstIndex, sorted, repeatTime): the scores and the indices out of the records,
  as AscendC's A2 implementation does it: two GatherMasks (scores: fixed pattern 1 on float lanes,
  3 on half lanes, repeatTime repeats; indices: pattern 2 on uint32 lanes, repeatTime repeats for
  float and 2 * repeatTime for half -- so a half Extract writes twice the indices it has records
  for, as on the device).
- Concat(concat, src, tmp, repeatTime): on A2 ``concat = src`` (no data moves): the Python form
  returns src for the caller to use; C++'s header assigns the handle.

Score order: descending by value; -0 and +0 compare equal (input order decides); a NaN score is
placed before every number, NaNs in input order (the hardware's order for NaN is not
documented: chosen).

Undefined values (the sanitizer, local_tensor's docstring) travel with their records: an index
nothing wrote makes only its own record's index undefined, wherever the sort puts it; an
undefined score makes the whole sorted group (every record a merge writes) undefined, since the
order itself then depends on garbage. A kernel that sorts a few real indices among padding scores
and reads only the records the padding sorts behind is clean (upstream's embedding_dense_grad_v2
sorts 1 index in a group of 32 so).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import spr
from .errors import EmulatorError
from .gather_mask import GatherMask, GatherMaskParams
from .local_tensor import LocalTensor, read_local
from .repeat import scatter

_SCORES = (np.dtype(np.float16), np.dtype(np.float32))
RECORD_BYTES = 8
SORT32 = 32


@dataclass
class MrgSort4Info:
    """AscendC's MrgSort4Info: list lengths (in records), suspension, valid lists, repeats."""
    elementLengths: tuple = (0, 0, 0, 0)  # noqa: N815 - AscendC field names
    ifExhaustedSuspension: bool = False  # noqa: N815
    validBit: int = 15  # noqa: N815
    repeatTimes: int = 1  # noqa: N815


@dataclass
class MrgSortSrcList:
    """AscendC's MrgSortSrcList: up to four LocalTensors of records (None: not given)."""
    src1: LocalTensor | None = None
    src2: LocalTensor | None = None
    src3: LocalTensor | None = None
    src4: LocalTensor | None = None
    lists: list = field(init=False, repr=False)

    def __post_init__(self):
        self.lists = [self.src1, self.src2, self.src3, self.src4]


def _check(name: str, t: np.dtype) -> np.dtype:
    t = np.dtype(t)
    if t not in _SCORES:
        raise EmulatorError(f"{name} on {t}: half or float scores")
    return t


def GetSortLen(dtype, elem_count: int) -> int:  # noqa: N802 - AscendC name
    """T elements of elem_count records (4 per record for half, 2 for float)."""
    return int(elem_count) * RECORD_BYTES // _check("GetSortLen", dtype).itemsize


GetSortOffset = GetSortLen


def descending_order(scores: np.ndarray) -> np.ndarray:
    """The stable descending order of scores (module docstring: NaN first, -0 == +0)."""
    key = scores.astype(np.float64)
    key = np.where(np.isnan(key), np.inf, key)
    nan_first = ~np.isnan(scores.astype(np.float64))  # False (0) sorts first
    return np.lexsort((np.arange(scores.size), -key, nan_first))


def records(scores: np.ndarray, index: np.ndarray) -> np.ndarray:
    """uint8 bytes of the records (score, index), in the given order."""
    out = np.zeros((scores.size, RECORD_BYTES), np.uint8)
    out[:, :scores.dtype.itemsize] = scores.reshape(-1, 1).view(np.uint8)
    out[:, 4:] = index.astype(np.uint32).reshape(-1, 1).view(np.uint8)
    return out.reshape(-1)


def _scores_of(raw: np.ndarray, t: np.dtype) -> np.ndarray:
    return np.ascontiguousarray(raw.reshape(-1, RECORD_BYTES)[:, :t.itemsize]).view(t).reshape(-1)


def _write_records(name: str, dst: LocalTensor, start_record: int, raw: np.ndarray,
                   undefined: np.ndarray | None = None, origin: str | None = None) -> None:
    """Store record bytes; `undefined` (one flag per byte of raw) marks the bytes that hold values
    computed from undefined ones (the sanitizer), `origin` saying where they were first read."""
    if undefined is not None and origin is not None and undefined.any():
        dst.ctx.undefined_inputs.append((name, np.flatnonzero(undefined), None, origin, raw.size))
    scatter(dst.ReinterpretCast(np.uint8), start_record * RECORD_BYTES + np.arange(raw.size, dtype=np.int64), raw,
            name)


def _take_undefined(pending: list, first: int, count: int) -> tuple[np.ndarray, str | None]:
    """The undefined elements the reads since pending[first] found (read_local's entries: element
    ranges of the tensor read), as flags over its `count` elements; the entries are consumed."""
    undefined = np.zeros(count, dtype=bool)
    origin = None
    for entry in pending[first:]:
        undefined[max(entry[1], 0):entry[2]] = True
        origin = origin or entry[3]
    del pending[first:]
    return undefined, origin


def _merged_undefined(byte_undefined: np.ndarray, order: np.ndarray, t: np.dtype) -> np.ndarray:
    """Byte flags of records put in `order`: each record keeps its own bytes' flags, unless a score
    is undefined, which makes the order -- and so every record placed -- undefined."""
    per_record = byte_undefined.reshape(-1, RECORD_BYTES)
    if per_record[:, :t.itemsize].any():
        return np.ones(order.size * RECORD_BYTES, dtype=bool)
    return per_record[order].reshape(-1)


def Sort32(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, repeat_time: int) -> None:  # noqa: N802
    """Sort each group of 32 scores with their indices into records (module docstring)."""
    name = "Sort32"
    t = _check(name, src0.dtype)
    if dst.dtype != t or src1.dtype != np.dtype(np.uint32):
        raise EmulatorError(f"Sort32: dst of the scores' type ({t}), src1 uint32; got {dst.dtype}, {src1.dtype}")
    repeats = int(repeat_time)
    if repeats <= 0:
        return
    n = repeats * SORT32
    pending = dst.ctx.undefined_inputs
    first = len(pending)
    scores = read_local(src0, n, name).copy().reshape(repeats, SORT32)
    score_undefined, origin = _take_undefined(pending, first, n)
    index = read_local(src1, n, name).copy().reshape(repeats, SORT32)
    index_undefined, index_origin = _take_undefined(pending, first, n)
    order = np.stack([descending_order(row) for row in scores])
    rows = np.take_along_axis(scores, order, axis=1), np.take_along_axis(index, order, axis=1)
    undefined = np.zeros((repeats, SORT32, RECORD_BYTES), dtype=bool)
    undefined[:, :, 4:] = np.take_along_axis(index_undefined.reshape(repeats, SORT32), order, axis=1)[..., None]
    undefined[score_undefined.reshape(repeats, SORT32).any(axis=1)] = True  # a group ordered by garbage
    _write_records(name, dst, 0, records(rows[0].reshape(-1), rows[1].reshape(-1)), undefined.reshape(-1),
                   origin or index_origin)


def _read_records(name: str, src: LocalTensor, count: int) -> np.ndarray:
    return read_local(src.ReinterpretCast(np.uint8), count * RECORD_BYTES, name).copy()


def MrgSort(dst: LocalTensor, src: MrgSortSrcList, params: MrgSort4Info) -> None:  # noqa: N802
    """Merge 2..4 sorted record lists into dst (module docstring)."""
    name = "MrgSort"
    t = _check(name, dst.dtype)
    valid = {3: 2, 7: 3, 15: 4}.get(int(params.validBit))
    if valid is None:
        raise EmulatorError(f"MrgSort validBit {params.validBit}: 3, 7 or 15 (the first 2, 3 or 4 lists)")
    lengths = [int(v) for v in params.elementLengths][:valid]
    lists = src.lists[:valid]
    if any(lst is None for lst in lists) or any(lst.dtype != t for lst in lists):
        raise EmulatorError(f"MrgSort with validBit {params.validBit} takes {valid} lists of {t}")
    repeats = int(params.repeatTimes)
    if repeats <= 0:
        return
    if repeats > 1 and (valid != 4 or params.ifExhaustedSuspension or len(set(lengths)) != 1):
        raise EmulatorError("MrgSort repeatTimes > 1 needs 4 lists of one length, stored one after another, "
                            "validBit 15 and no exhausted suspension (AscendC's conditions)")
    taken = [0, 0, 0, 0]
    out_at = 0
    for r in range(repeats):
        shift = r * 4 * lengths[0] * RECORD_BYTES // t.itemsize
        pending = dst.ctx.undefined_inputs
        raws, flags, origin = [], [], None
        for lst, length in zip(lists, lengths, strict=True):
            first = len(pending)
            raws.append(_read_records(name, lst[shift], length))
            undefined, found = _take_undefined(pending, first, length * RECORD_BYTES)
            flags.append(undefined)
            origin = origin or found
        merged = np.concatenate(raws)
        scores = _scores_of(merged, t)
        order = descending_order(scores)  # stable: the earlier list first on ties
        owner = np.repeat(np.arange(valid), lengths)[order]
        stop = order.size
        if params.ifExhaustedSuspension:
            last = [int(np.flatnonzero(owner == k)[-1]) for k in range(valid) if lengths[k]]
            stop = min(last) + 1 if last else 0
        taken = [int((owner[:stop] == k).sum()) for k in range(4)]
        picked = merged.reshape(-1, RECORD_BYTES)[order[:stop]].reshape(-1)
        _write_records(name, dst, out_at, picked, _merged_undefined(np.concatenate(flags), order[:stop], t), origin)
        out_at += stop
    dst.ctx.spr[spr.MRG_SORT_RESULT] = tuple(taken)


def GetMrgSortResult(ctx) -> tuple[int, int, int, int]:  # noqa: N802 - AscendC name
    """How many records of each list the core's last MrgSort took."""
    return spr.read(ctx, spr.MRG_SORT_RESULT, "GetMrgSortResult")


def Sort(dst: LocalTensor, concat: LocalTensor, index: LocalTensor, tmp: LocalTensor, repeat_time: int,  # noqa: N802
         is_full_sort: bool = True) -> None:
    """Sort32 over repeatTime groups of 32; with isFullSort one descending list (module docstring)."""
    name = "Sort"
    t = _check(name, concat.dtype)
    if dst.dtype != t or tmp.dtype != t or index.dtype != np.dtype(np.uint32):
        raise EmulatorError(f"Sort: dst, concat and tmp of one type (half or float), index uint32; got "
                            f"{dst.dtype}, {concat.dtype}, {tmp.dtype}, {index.dtype}")
    repeats = int(repeat_time)
    if repeats <= 0:
        return
    Sort32(dst, concat, index, repeats)
    if not is_full_sort or repeats == 1:
        return
    n = repeats * SORT32
    pending = dst.ctx.undefined_inputs
    first = len(pending)
    raw = _read_records(name, dst, n)
    undefined, origin = _take_undefined(pending, first, raw.size)
    _write_records(name, tmp, 0, raw, undefined, origin)
    order = descending_order(_scores_of(raw, t))
    _write_records(name, dst, 0, raw.reshape(-1, RECORD_BYTES)[order].reshape(-1),
                   _merged_undefined(undefined, order, t), origin)


def Extract(dst_value: LocalTensor, dst_index: LocalTensor, sorted_records: LocalTensor,  # noqa: N802
            repeat_time: int) -> None:
    """Scores and indices out of the records, by AscendC's two GatherMasks (module docstring)."""
    t = _check("Extract", sorted_records.dtype)
    if dst_value.dtype != t or dst_index.dtype != np.dtype(np.uint32):
        raise EmulatorError(f"Extract: dstValue of the records' type ({t}), dstIndex uint32; got "
                            f"{dst_value.dtype}, {dst_index.dtype}")
    repeats = int(repeat_time)
    if repeats <= 0:
        return
    value_pattern, index_repeats = (3, 2 * repeats) if t.itemsize == 2 else (1, repeats)
    GatherMask(dst_value, sorted_records, value_pattern, False, 0, GatherMaskParams(1, repeats, 8, 0))
    GatherMask(dst_index, sorted_records.ReinterpretCast(np.uint32), 2, False, 0,
               GatherMaskParams(1, index_repeats, 8, 0))


def Concat(concat: LocalTensor, src: LocalTensor, tmp: LocalTensor, repeat_time: int) -> LocalTensor:  # noqa: N802
    """A2's Concat: the scores are sorted where they are; returns src (module docstring)."""
    _check("Concat", src.dtype)
    return src
