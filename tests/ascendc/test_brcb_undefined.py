"""Brcb's undefined values element by element: an unwritten source element makes only the block it
fills undefined (log_softmax_grad's kernel broadcasts 8 sums of which it wrote 4 and copies out
only the blocks of the 4)."""
import numpy as np

from opsnn.ascendc import Brcb, BrcbRepeatParams

from .helpers import Ub, copy_out, kinds, make_core


def test_only_the_blocks_of_unwritten_source_elements_are_undefined():
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(np.float32, 8)
    src.buffer.written = [(0, 16)]  # elements 0..3 written, 4..7 not
    dst = ub.buffer(np.float32, 64)
    Brcb(dst, src, 1, BrcbRepeatParams(1, 8))
    copy_out(dst, 32)  # the blocks of elements 0..3
    assert kinds(core) == []
    copy_out(dst[32], 8)  # the block of element 4
    assert kinds(core) == ["ub_read_before_write"]
