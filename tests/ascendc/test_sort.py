"""Sort32, MrgSort, Sort, Extract, Concat, GetSortLen (sort.py) on A2's (score, index) records,
against numpy's stable sorts: descending scores, ties in input order (the earlier list first in a
merge), the half record's reserved bytes, exhausted suspension and its counts."""
from __future__ import annotations

import numpy as np
import pytest

from opsnn.ascendc import EmulatorError
from opsnn.ascendc.sort import (
    Concat,
    Extract,
    GetMrgSortResult,
    GetSortLen,
    MrgSort,
    MrgSort4Info,
    MrgSortSrcList,
    Sort,
    Sort32,
)

from .helpers import Ub, copy_out, kinds, make_core

F32 = np.dtype(np.float32)


def records_of(buf, n, t):
    raw = buf.ReinterpretCast(np.uint8).numpy(n * 8).reshape(n, 8)
    scores = np.ascontiguousarray(raw[:, :t.itemsize]).view(t).reshape(-1)
    index = np.ascontiguousarray(raw[:, 4:]).view(np.uint32).reshape(-1)
    return scores, index, raw


def stable_desc(scores):
    return sorted(range(len(scores)), key=lambda i: (-float(scores[i]), i))


def setup(scores, index, t, dst_records=256):
    core = make_core()
    ub = Ub(core)
    src0 = ub.buffer(t, scores.size, scores.astype(t))
    src1 = ub.buffer(np.uint32, index.size, index.astype(np.uint32))
    dst = ub.buffer(t, dst_records * 8 // t.itemsize)
    tmp = ub.buffer(t, dst_records * 8 // t.itemsize)
    return core, src0, src1, dst, tmp


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_sort32_sorts_each_group_descending_ties_in_order(dtype):
    t = np.dtype(dtype)
    rng = np.random.default_rng(3)
    scores = rng.integers(-4, 4, 64).astype(t)  # many ties
    index = np.arange(100, 164)
    core, src0, src1, dst, _ = setup(scores, index, t)
    Sort32(dst, src0, src1, 2)
    got_s, got_i, raw = records_of(dst, 64, t)
    for g in range(2):
        order = [g * 32 + i for i in stable_desc(scores[g * 32:(g + 1) * 32])]
        assert list(got_i[g * 32:(g + 1) * 32]) == [int(index[i]) for i in order]
        assert (got_s[g * 32:(g + 1) * 32] == scores[order]).all()
    if t.itemsize == 2:
        assert (raw[:, 2:4] == 0).all()  # the reserved bytes
    assert kinds(core) == []


def test_full_sort_and_extract_round_trip():
    t = np.dtype(np.float32)
    scores = np.random.default_rng(9).standard_normal(128).astype(t)
    scores[[5, 70]] = 0.5
    index = np.arange(128)
    core, src0, src1, dst, tmp = setup(scores, index, t)
    Sort(dst, src0, src1, tmp, 4, True)
    order = stable_desc(scores)
    got_s, got_i, _ = records_of(dst, 128, t)
    assert list(got_i) == order and (got_s == scores[order]).all()
    ub = Ub(core)
    values, idx = ub.buffer(t, 128), ub.buffer(np.uint32, 128)
    Extract(values, idx, dst, 4)
    assert (values.numpy(128) == scores[order]).all() and list(idx.numpy(128)) == order
    Sort(dst, src0, src1, tmp, 4, False)  # groups of 32 only
    _, got_i, _ = records_of(dst, 128, t)
    assert list(got_i[32:64]) == [32 + i for i in stable_desc(scores[32:64])]


def test_half_extract_writes_twice_the_indices_as_a2_does():
    t = np.dtype(np.float16)
    scores = np.arange(32)[::-1].astype(t)
    core, src0, src1, dst, _ = setup(scores, np.arange(32), t, dst_records=64)
    Sort32(dst, src0, src1, 1)
    ub = Ub(core)
    values, idx = ub.buffer(t, 32), ub.buffer(np.uint32, 64)
    Extract(values, idx, dst, 1)
    assert list(values.numpy(32)) == list(scores) and list(idx.numpy(32)) == list(range(32))
    small = Ub(core).buffer(np.uint32, 32)
    Extract(values, small, dst, 1)  # 64 indices into 32: past the buffer, as on the device
    assert "local_tensor_overflow" in kinds(core)


def test_nan_sorts_first():
    t = np.dtype(np.float32)
    scores = np.array([1.0, np.nan, 3.0, -np.inf] + [0.0] * 28, t)
    core, src0, src1, dst, _ = setup(scores, np.arange(32), t)
    Sort32(dst, src0, src1, 1)
    assert list(records_of(dst, 4, t)[1]) == [1, 2, 0, 4]


def test_mrg_sort_merges_lists_earlier_list_first_and_suspends():
    t = np.dtype(np.float32)
    core = make_core()
    ub = Ub(core)
    lists = []
    raw = {}
    for k, vals in enumerate([[9, 5, 5, 1], [7, 5, 0], [8, 2]]):
        a = np.array(vals, t)
        buf = ub.buffer(t, 16)
        rec = np.zeros((len(vals), 8), np.uint8)
        rec[:, :4] = a.reshape(-1, 1).view(np.uint8)
        rec[:, 4:] = (np.arange(len(vals)) + 10 * k).astype(np.uint32).reshape(-1, 1).view(np.uint8)
        buf.buffer.storage[buf.buffer.base:buf.buffer.base + rec.size] = rec.reshape(-1)
        buf.buffer.written = [(0, rec.size)]
        lists.append(buf)
        raw[k] = vals
    dst = ub.buffer(t, 64)
    MrgSort(dst, MrgSortSrcList(*lists), MrgSort4Info((4, 3, 2, 0), False, 7, 1))
    _, idx, _ = records_of(dst, 9, t)
    assert list(idx) == [0, 20, 10, 1, 2, 11, 21, 3, 12]  # 9 8 7 5(list0) 5(list0) 5(list1) 2 1 0
    assert GetMrgSortResult(core) == (4, 3, 2, 0)
    MrgSort(dst, MrgSortSrcList(*lists), MrgSort4Info((4, 3, 2, 0), True, 7, 1))
    assert GetMrgSortResult(core) == (3, 2, 2, 0)  # list 2 runs out with its 2, the 7th record
    with pytest.raises(EmulatorError, match="validBit 5"):
        MrgSort(dst, MrgSortSrcList(*lists), MrgSort4Info((4, 3, 2, 0), False, 5, 1))


def test_sort_len_concat_and_types():
    assert GetSortLen(np.float16, 10) == 40 and GetSortLen(np.float32, 10) == 20
    core = make_core()
    src = Ub(core).buffer(np.float16, 16)
    assert Concat(None, src, None, 1) is src
    with pytest.raises(EmulatorError, match="half or float"):
        GetSortLen(np.int32, 4)


def _padded_sort(valid_scores, valid_indices=None, t=F32, groups=1):
    """Upstream embedding_dense_grad_v2's sort: scores padded with -1 to whole groups of 32, the
    indices written only for the real elements."""
    n = 32 * groups
    scores = np.full(n, -1, t)
    scores[:len(valid_scores)] = valid_scores
    core = make_core()
    ub = Ub(core)
    src0 = ub.buffer(t, n, scores)
    src1 = ub.buffer(np.uint32, n, np.arange(len(valid_scores)) if valid_indices is None else valid_indices)
    dst, tmp = ub.buffer(t, n * 8 // t.itemsize), ub.buffer(t, n * 8 // t.itemsize)
    values, indices = ub.buffer(t, n), ub.buffer(np.uint32, n)
    return core, src0, src1, dst, tmp, values, indices


def test_unwritten_indices_travel_with_their_records():
    # 3 real scores among 29 padding ones; only the real ones have indices: the records the real
    # scores sort to are defined, the padding's indices are not
    core, src0, src1, dst, tmp, values, indices = _padded_sort(np.array([2.0, 7.0, 0.0], np.float32))
    Sort32(dst, src0, src1, 1)
    Extract(values, indices, dst, 1)
    assert list(indices.numpy(3)) == [1, 0, 2]
    copy_out(indices, 3)
    copy_out(values, 32)
    assert kinds(core) == []
    copy_out(indices[3], 1)  # the first padding record's index: nothing wrote it
    assert kinds(core) == ["ub_read_before_write"]
    assert "Sort32 read bytes [12, 128)" in core.log.items[0].detail


def test_an_unwritten_score_leaves_the_whole_group_undefined():
    t = np.dtype(np.float32)
    core = make_core()
    ub = Ub(core)
    src0 = ub.buffer(t, 32, np.arange(31, dtype=t))  # score 31 never written: the order is garbage
    src1 = ub.buffer(np.uint32, 32, np.arange(32))
    dst, values, indices = ub.buffer(t, 64), ub.buffer(t, 32), ub.buffer(np.uint32, 32)
    Sort32(dst, src0, src1, 1)
    Extract(values, indices, dst, 1)
    copy_out(indices, 1)
    assert kinds(core) == ["ub_read_before_write"]


def test_full_sort_and_merge_carry_unwritten_indices_by_record():
    # two groups; only group 1's first index is unwritten: after the full sort it sits where its
    # score (the largest) puts it, record 0, and only there
    t = np.dtype(np.float32)
    core, src0, src1, dst, tmp, values, indices = _padded_sort(np.arange(64, dtype=t), np.arange(32), t, groups=2)
    Sort(dst, src0, src1, tmp, 2)
    Extract(values, indices, dst, 2)
    assert list(values.numpy(3)) == [63, 62, 61]
    copy_out(indices[32], 32)  # scores 31..0: group 0's, all with written indices
    copy_out(values, 64)
    assert kinds(core) == []
    copy_out(indices, 1)
    assert kinds(core) == ["ub_read_before_write"]
    # MrgSort: records 0..3 (written indices) merged from two lists are clean; a list reaching
    # record 4 (a padding record, index unwritten) carries it into the merge
    core, src0, src1, dst, tmp, values, indices = _padded_sort(np.array([9, 8, 7, 6], t))
    Sort32(dst, src0, src1, 1)
    merged = tmp
    MrgSort(merged, MrgSortSrcList(dst, dst[4]), MrgSort4Info((2, 2, 0, 0), False, 3, 1))  # records 0, 1 and 2, 3
    copy_out(merged, 8)
    assert kinds(core) == []
    MrgSort(merged, MrgSortSrcList(dst, dst[4]), MrgSort4Info((2, 3, 0, 0), False, 3, 1))  # and record 4
    assert list(records_of(merged, 5, t)[0]) == [9, 8, 7, 6, -1]
    copy_out(merged, 8)
    assert kinds(core) == []
    copy_out(merged[8], 2)
    assert kinds(core) == ["ub_read_before_write"]
