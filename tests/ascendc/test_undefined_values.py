"""The sanitizer's undefined values, valgrind-style: computing on UB bytes nothing wrote is no
error (an A2 kernel works on whole 256-byte repeats past its last valid element); what is computed
from them stays undefined, element by element and mask bit by bit, and an error is reported where
it leaves the vector unit (a copy to GM, a scalar read), naming the instruction that first read
unwritten bytes."""
from __future__ import annotations

import numpy as np

from opsnn.ascendc import (
    CMPMODE,
    SELMODE,
    Adds,
    BinaryRepeatParams,
    Compare,
    Compares,
    DataCopy,
    DataCopyParams,
    Duplicate,
    Muls,
    Select,
    TPipe,
    TQue,
)
from opsnn.ascendc.pipe import QuePosition

from .helpers import Ub, copy_out, kinds, make_core

F32 = np.float32


def _partly_written(ub: Ub, valid: int, n: int = 64):
    t = ub.buffer(F32, n)
    b = t.buffer
    b.storage[b.base:b.base + 4 * valid] = np.arange(valid, dtype=F32).view(np.uint8)
    b.written = [(0, 4 * valid)]
    return t


def test_whole_repeat_compute_with_a_valid_copy_out_is_clean():
    core = make_core()
    ub = Ub(core)
    x, y = _partly_written(ub, 21), ub.buffer(F32, 64)
    Muls(y, x, F32(2), 64)  # the whole repeat: elements 21..63 are garbage
    Adds(y, y, F32(1), 64)
    copy_out(y, 21)
    assert kinds(core) == []
    np.testing.assert_array_equal(y.numpy(21), np.arange(21, dtype=F32) * 2 + 1)


def test_using_the_garbage_is_an_error_naming_where_it_came_from():
    core = make_core()
    ub = Ub(core)
    x, y = _partly_written(ub, 21), ub.buffer(F32, 64)
    Muls(y, x, F32(2), 64)
    Adds(y, y, F32(1), 64)
    copy_out(y, 24)  # three garbage elements
    assert kinds(core) == ["ub_read_before_write"]
    f = core.log.items[0]
    assert (f.instruction, f.tensor, f.offset, f.nbytes) == ("DataCopy", y.buffer.name, 84, 12)
    assert f"Muls read bytes [84, 256) of {x.buffer.name}" in f.detail  # the first read, not the Adds


def test_mask_bits_are_tracked_one_by_one():
    core = make_core()
    ub = Ub(core)
    x, g, mask, out = _partly_written(ub, 21), ub.buffer(F32, 64, np.ones(64, F32)), ub.buffer(np.uint8, 32), \
        ub.buffer(F32, 64)
    Compares(mask, x, F32(5), CMPMODE.GT, 64)  # bits 21..63 undefined; bit 21 shares byte 2 with 16..20
    Select(out, mask, g, F32(0), SELMODE.VSEL_TENSOR_SCALAR_MODE, 64)
    copy_out(out, 21)
    assert kinds(core) == []
    copy_out(out[21], 1)
    assert kinds(core) == ["ub_read_before_write"]


def test_a_defined_write_clears_and_a_reallocation_keeps_what_ub_holds():
    core = make_core()
    ub = Ub(core)
    x, y = _partly_written(ub, 8), ub.buffer(F32, 64)
    Muls(y, x, F32(2), 64)
    Duplicate(y, F32(3), 64)  # every element defined again
    copy_out(y, 64)
    assert kinds(core) == []
    pipe = TPipe(core)
    que = TQue(QuePosition.VECOUT, 1, name="q")
    pipe.InitBuffer(que, 1, 256)
    t = que.AllocTensor(F32)
    Muls(t, x, F32(2), 64)
    que.EnQue(t)
    que.FreeTensor(que.DeQue(F32))
    again = que.AllocTensor(F32)  # the same UB bytes: AllocTensor changes nothing in them
    assert again.buffer.written == [(0, 256)]
    assert [(a, b) for a, b, _ in again.buffer.undefined] == [(8 * 32, 8 * 256)]  # elements 8..63: garbage
    copy_out(again, 8)
    assert kinds(core) == []
    copy_out(again[8], 1)
    assert kinds(core) == ["ub_read_before_write"] and "Muls read bytes [32, 256)" in core.log.items[0].detail


def test_a_copy_between_ub_buffers_moves_undefined_bytes_along():
    # A UB -> UB DataCopy is no use (valgrind's memcpy): the garbage it moves stays garbage, an
    # error only where it leaves UB (upstream index_put_with_sort keeps a whole aligned block so).
    core = make_core()
    ub = Ub(core)
    x, y, z = _partly_written(ub, 8), ub.buffer(F32, 64), ub.buffer(F32, 64)
    DataCopy(y, x, 64)
    DataCopy(z, y, DataCopyParams(1, 8, 0, 0))  # the burst form moves it on too
    assert kinds(core) == []
    copy_out(z, 8)
    assert kinds(core) == []
    copy_out(z[8], 8)
    assert kinds(core) == ["ub_read_before_write"]
    assert f"DataCopy read bytes [32, 256) of {x.buffer.name}" in core.log.items[0].detail


def test_the_mask_repeat_forms_follow_undefined_bits_one_by_one():
    # Upstream ctc_loss_v3: a Compare over a whole repeat of which only 5 elements were copied in,
    # then a mask/repeat-form Select reading that mask: elements 0..4 are defined, 5..63 garbage.
    core = make_core()
    ub = Ub(core)
    a, b = ub.buffer(np.int32, 64, np.arange(5)), ub.buffer(np.int32, 64, np.arange(64))
    mask, rep_mask = ub.buffer(np.uint8, 32), ub.buffer(np.uint8, 32)
    Compare(mask, a, b, CMPMODE.EQ, 64)  # the count form
    Compare(rep_mask, a, b, CMPMODE.EQ, 64, 1, BinaryRepeatParams())  # the mask/repeat form
    assert [(lo, hi) for lo, hi, _ in rep_mask.buffer.undefined] == [(5, 64)]  # bits, as the count form's
    ones, out = ub.buffer(F32, 64, np.ones(64, F32)), ub.buffer(F32, 64, np.zeros(64, F32))
    Select(out, rep_mask, ones, out, SELMODE.VSEL_TENSOR_TENSOR_MODE, 64, 1, BinaryRepeatParams(1, 0, 1, 8, 0, 8))
    copy_out(out, 5)
    assert kinds(core) == []
    np.testing.assert_array_equal(out.numpy(5), np.ones(5, F32))  # a == b for 0..4
    copy_out(out[5], 1)
    assert kinds(core) == ["ub_read_before_write"]
    assert "Compare read bytes [20, 256)" in core.log.items[0].detail


def test_select_takes_definedness_from_the_operand_it_picks():
    # Upstream ctc_loss_v3 accumulates into a tensor it never filled, selecting per slice where
    # the mask says: the elements the mask sends to the gathered values are defined, the others
    # keep the garbage -- each form, each tensor mode.
    core = make_core()
    ub = Ub(core)
    mask = ub.buffer(np.uint8, 32, np.array([0x0F] + [0] * 31, np.uint8))  # elements 0..3 from src0
    gathered, garbage = ub.buffer(F32, 64, np.arange(64, dtype=F32)), ub.buffer(F32, 64)  # never written
    counted, repeated, scalar = ub.buffer(F32, 64), ub.buffer(F32, 64), ub.buffer(F32, 64)
    Select(counted, mask, gathered, garbage, SELMODE.VSEL_TENSOR_TENSOR_MODE, 64)
    Select(repeated, mask, gathered, garbage, SELMODE.VSEL_TENSOR_TENSOR_MODE, 64, 1, BinaryRepeatParams())
    Select(scalar, mask, garbage, F32(0), SELMODE.VSEL_TENSOR_SCALAR_MODE, 64)  # the scalar where 4.. is picked
    copy_out(counted, 4)
    copy_out(repeated, 4)
    copy_out(scalar[4], 60)
    assert kinds(core) == []
    np.testing.assert_array_equal(counted.numpy(4), np.arange(4, dtype=F32))
    copy_out(counted[4], 1)  # the garbage the mask picked
    copy_out(repeated[63], 1)
    copy_out(scalar, 1)
    assert kinds(core) == ["ub_read_before_write"] * 3
