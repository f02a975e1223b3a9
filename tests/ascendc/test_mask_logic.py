"""And / Or on packed masks and the unordered NE Compare (NaN != NaN) of the arch35 emulator,
through UB as the sanitizer sees it (HardtanhGrad's DAG: in range AND, OR is NaN)."""
import numpy as np

from opsnn.ascendc import CMPMODE, And, Compare, GlobalMemory, Or, TBuf, TPipe
from opsnn.ascendc.core import CoreContext
from opsnn.platform import get_platform

DATA = np.array([0.5, -3, np.nan, 2, 0.1, 7, -0.0, np.inf, 0.2, np.nan, 1], np.float32)


def _core():
    core = CoreContext(0, 1, get_platform("Ascend950"), GlobalMemory(), True)
    pipe = TPipe(core)

    def buffer(name, dtype, nbytes):
        buf = TBuf(name=name)
        pipe.InitBuffer(buf, nbytes)
        return buf.Get(np.dtype(dtype))
    return core, buffer


def _fill(t, values) -> None:
    raw = np.ascontiguousarray(values).view(np.uint8)
    b = t.buffer
    b.storage[b.base:b.base + raw.size] = raw
    b.written = [(0, raw.size)]  # the test wrote them: not a read-before-write


def _bits(mask, n):
    b = mask.buffer
    return np.unpackbits(b.storage[b.base:b.base + 2], bitorder="little")[:n] == 1


def _errors(core):
    return [f for f in core.log.findings() if f.level == "error"]


def test_and_or_on_packed_masks():
    core, buffer = _core()
    x = buffer("x", np.float32, 64)
    _fill(x, DATA)
    lt, gt, ne, both, keep = (buffer(n, np.uint8, 32) for n in ("lt", "gt", "ne", "and", "or"))
    n = DATA.size
    Compare(lt, x, np.float32(1), CMPMODE.LT, n)
    Compare(gt, x, np.float32(0), CMPMODE.GT, n)
    Compare(ne, x, x, CMPMODE.NE, n)
    And(both, lt, gt, n)
    Or(keep, both, ne, n)
    with np.errstate(invalid="ignore"):
        inside = (DATA < 1) & (DATA > 0)
    np.testing.assert_array_equal(_bits(ne, n), np.isnan(DATA))
    np.testing.assert_array_equal(_bits(both, n), inside)
    np.testing.assert_array_equal(_bits(keep, n), inside | np.isnan(DATA))
    assert _errors(core) == []


def test_and_of_an_unwritten_mask_is_reported():
    core, buffer = _core()
    a, b, out = (buffer(n, np.uint8, 32) for n in ("a", "b", "out"))
    And(out, a, b, 16)
    assert not _errors(core)
    from .helpers import copy_out
    copy_out(out, 2)
    assert {f.kind for f in _errors(core)} == {"ub_read_before_write"}


def test_atvoss_mask_nodes_combine_masks_only():
    import pytest

    from opsnn.atvoss import CMP, And, Compare, Const, CopyIn, Or, Select
    from opsnn.atvoss.dag import DagError
    x = CopyIn(0, "float32")
    lt, gt = Compare(x, Const(1.0, "float32"), CMP.LT), Compare(x, Const(0.0, "float32"), CMP.GT)
    keep = Or(And(lt, gt), Compare(x, x, CMP.NE))
    assert (keep.op, keep.dtype) == ("Or", "uint8")
    assert Select(keep, x, Const(0.0, "float32")).op == "Select"
    with pytest.raises(DagError, match="combines masks"):
        And(lt, x)
    with pytest.raises(DagError, match="mask must be a Compare, And or Or"):
        Select(x, x, x)
