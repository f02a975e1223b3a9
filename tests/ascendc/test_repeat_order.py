"""The mask/repeat form's repeats run in order: a repeat that reads what an earlier repeat of the
same instruction wrote sees that result. Upstream's log_softmax_v2 reduces a column by
`Max(acc, rows, acc, 16, nRows, {1, 1, 1, 0, 2, 0})` (dstRepStride 0, src1 the destination):
repeat k takes the max of row k and the max so far. Independent repeats still read every source
before anything is written."""
import numpy as np

from opsnn.ascendc import Add, Max
from opsnn.ascendc.repeat import BinaryRepeatParams

from .helpers import Ub, copy_out, kinds, make_core

F32 = np.dtype(np.float32)


def _rows(core, rows: np.ndarray):
    """rows (n x 16 floats) laid out two blocks (16 floats) apart, and a 16-float accumulator."""
    ub = Ub(core)
    x = ub.buffer(F32, rows.size, rows.reshape(-1))
    acc = ub.buffer(F32, 16, np.full(16, -np.inf, F32))
    return x, acc


def test_a_column_max_and_sum_accumulate_over_the_repeats():
    rows = np.random.default_rng(3).standard_normal((7, 16)).astype(F32)
    core = make_core()
    x, acc = _rows(core, rows)
    Max(acc, x, acc, 16, 7, BinaryRepeatParams(1, 1, 1, 0, 2, 0))
    np.testing.assert_array_equal(acc.numpy(16), rows.max(axis=0))
    total = Ub(core).buffer(F32, 16, np.zeros(16, F32))
    Add(total, x, total, 16, 7, BinaryRepeatParams(1, 1, 1, 0, 2, 0))
    expected = np.zeros(16, F32)
    for r in rows:  # in repeat order, rounded after each
        expected = (expected + r).astype(F32)
    np.testing.assert_array_equal(total.numpy(16), expected)
    assert core.counters.instructions == {"Max": 1, "Add": 1}  # one instruction each, however run
    copy_out(acc, 16)
    copy_out(total, 16)
    assert kinds(core) == []


def test_a_repeat_reads_what_the_one_before_wrote():
    # dst one repeat (8 floats) ahead of the source: repeat k + 1 reads what repeat k wrote
    core = make_core()
    x = Ub(core).buffer(F32, 64, np.arange(64, dtype=F32))
    Add(x[8], x, x, 8, 3, BinaryRepeatParams(1, 1, 1, 1, 1, 1))
    expected = np.arange(64, dtype=F32)
    for k in range(3):
        expected[8 * (k + 1):8 * (k + 2)] = expected[8 * k:8 * (k + 1)] * 2
    np.testing.assert_array_equal(x.numpy(64), expected)


def test_repeats_that_share_no_element_read_before_anything_is_written():
    core = make_core()
    x = Ub(core).buffer(F32, 64, np.arange(64, dtype=F32))
    Add(x, x, x, 8, 8, BinaryRepeatParams(1, 1, 1, 1, 1, 1))  # each repeat its own 8 elements
    np.testing.assert_array_equal(x.numpy(64), np.arange(64, dtype=F32) * 2)
