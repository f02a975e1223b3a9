"""Ascend950's multi-dimensional DMA (AscendC's DataCopy with NdDmaParams) on AscendC's own five
documented scenarios -- constant padding, nearest-value padding, transpose, broadcast, slice --
against numpy, and DataCopyPad's PaddingMode::Compact UB layout."""
from __future__ import annotations

import numpy as np
import pytest

from opsnn.ascendc import (
    DataCopyExtParams,
    DataCopyNdDma,
    DataCopyPad,
    DataCopyPadExtParams,
    EmulatorError,
    PaddingMode,
)

from .helpers import Ub, gm_tensor, kinds, make_core


def _copy(x: np.ndarray, ub_elements: int, loop, constant=0, nearest=False):
    core = make_core()
    ub = Ub(core)
    src, _ = gm_tensor(core, "x", x.reshape(-1))
    dst = ub.buffer(x.dtype, ub_elements, np.full(ub_elements, -7, x.dtype))
    DataCopyNdDma(dst, src, *loop, constant=constant, nearest=nearest)
    return core, dst.numpy(ub_elements)


def test_2d_constant_padding():
    """x [16, 32] copied whole, 15 / 17 columns of padding left / right and 13 / 3 rows above /
    below, into a [32, 64] UB tile (AscendC's scenario 1)."""
    x = np.arange(16 * 32, dtype=np.float32).reshape(16, 32)
    core, got = _copy(x, 32 * 64, ([32, 16], [1, 32], [1, 64], [15, 13], [17, 3]), constant=0.5)
    want = np.pad(x, ((13, 3), (15, 17)), constant_values=0.5)
    assert np.array_equal(got.reshape(32, 64), want) and kinds(core) == []


def test_2d_nearest_value_padding():
    """x [28, 15], 11 / 6 columns and 3 / 1 rows of nearest-value padding, into [32, 32]."""
    x = np.arange(28 * 15, dtype=np.int32).reshape(28, 15)
    _, got = _copy(x, 32 * 32, ([15, 28], [1, 15], [1, 32], [11, 3], [6, 1]), nearest=True)
    assert np.array_equal(got.reshape(32, 32), np.pad(x, ((3, 1), (11, 6)), mode="edge"))


def test_2d_transpose_broadcast_and_slice():
    x = np.arange(16 * 64, dtype=np.float16).reshape(16, 64)
    _, got = _copy(x, 64 * 16, ([64, 16], [1, 64], [16, 1], [0, 0], [0, 0]))
    assert np.array_equal(got.reshape(64, 16), x.T)  # scenario 3: dst stride 16 along columns, 1 along rows
    row = np.arange(16, dtype=np.float32)
    _, got = _copy(row, 3 * 16, ([16, 3], [1, 0], [1, 16], [0, 0], [0, 0]))
    assert np.array_equal(got.reshape(3, 16), np.broadcast_to(row, (3, 16)))  # scenario 4: src stride 0
    big = np.arange(32 * 64, dtype=np.float32).reshape(32, 64)
    _, got = _copy(big, 16 * 16, ([10, 16], [1, 64], [1, 16], [0, 0], [0, 0]))
    assert np.array_equal(got.reshape(16, 16)[:, :10], big[:16, :10])  # scenario 5: a slice
    assert (got.reshape(16, 16)[:, 10:] == -7).all()  # the rest of each UB row untouched


def test_three_dimensions_with_padding_on_each():
    x = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)
    sizes, lp, rp = [4, 3, 2], [1, 0, 1], [2, 1, 0]
    full = [a + n + b for a, n, b in zip(lp, sizes, rp, strict=True)]  # [7, 4, 3], lowest first
    dst_strides = [1, full[0], full[0] * full[1]]
    _, got = _copy(x, full[0] * full[1] * full[2], (sizes, [1, 4, 12], dst_strides, lp, rp), constant=9)
    want = np.pad(x, ((1, 0), (0, 1), (1, 2)), constant_values=9)
    assert np.array_equal(got.reshape(full[::-1]), want)


def test_refusals_and_the_sanitizer():
    x = np.arange(64, dtype=np.float32)
    with pytest.raises(EmulatorError, match="1 to 5 dimensions"):
        _copy(x, 64, ([8] * 6, [1] * 6, [1] * 6, [0] * 6, [0] * 6))
    with pytest.raises(EmulatorError, match="paddings 0..255"):
        _copy(x, 64, ([8], [1], [1], [256], [0]))
    core, _ = _copy(x, 64, ([64, 2], [1, 32], [1, 64], [0, 0], [0, 0]))  # the second row runs past x
    assert "gm_read_past_tensor" in kinds(core)
    core, _ = _copy(x, 64, ([64, 2], [1, 0], [1, 64], [0, 0], [0, 0]))  # the second row lands past the UB tile
    assert "local_tensor_overflow" in kinds(core)


@pytest.mark.parametrize("is_pad", [False, True])
def test_compact_mode_packs_the_bursts(is_pad):
    """Three 12-byte bursts, 4 bytes apart in GM: Normal puts each at a 32-byte boundary, Compact
    back to back (36 bytes), the end alone rounded up to 64 bytes (paddingValue there under isPad)."""
    x = np.arange(16, dtype=np.float32)
    core = make_core()
    ub = Ub(core)
    src, _ = gm_tensor(core, "x", x)
    params = DataCopyExtParams(3, 12, 4, 0, 0)
    pad = DataCopyPadExtParams(is_pad, 0, 0, 2.5)
    compact = ub.buffer(np.float32, 16, np.full(16, -1, np.float32))
    DataCopyPad(compact, src, params, pad, PaddingMode.Compact)
    got = compact.numpy(16)
    assert list(got[:9]) == [0, 1, 2, 4, 5, 6, 8, 9, 10]
    assert list(got[9:16]) == ([-1] * 7 if not is_pad else [2.5] * 7)  # 36 bytes -> 64: 7 floats of padding
    normal = ub.buffer(np.float32, 24, np.full(24, -1, np.float32))
    DataCopyPad(normal, src, params, pad)
    assert list(normal.numpy(24)[[0, 1, 2, 8, 9, 10, 16, 17, 18]]) == [0, 1, 2, 4, 5, 6, 8, 9, 10]
    out, _ = gm_tensor(core, "y", np.zeros(16, np.float32))
    DataCopyPad(out, compact, DataCopyExtParams(3, 12, 0, 4, 0), PaddingMode.Compact)  # UB -> GM: GM gaps 4 B
    assert list(np.frombuffer(core.gm.bytes_view(out.ptr.addr, 64), np.float32)[[0, 1, 2, 4, 5, 6, 8, 9, 10]]) == \
        [0, 1, 2, 4, 5, 6, 8, 9, 10]
    with pytest.raises(EmulatorError, match="has no PaddingMode"):
        DataCopyPad(compact, src, 4, PaddingMode.Compact)


def test_loop_mode_repeats_the_burst_copy_until_reset():
    """SetLoopModePara(OUT_TO_UB): DataCopyPad runs loop2Size x loop1Size times, each iteration
    moved by the loop strides (bytes) on both sides; ResetLoopModePara ends it; UB -> GM is a path
    of its own."""
    from opsnn.ascendc import DataCopyMVType, LoopModeParams, ResetLoopModePara, SetLoopModePara
    x = np.arange(64, dtype=np.float32)
    core = make_core()
    ub = Ub(core)
    src, _ = gm_tensor(core, "x", x)
    dst = ub.buffer(np.float32, 64, np.full(64, -1, np.float32))
    # 2 x 3 iterations of one 8-byte burst: src rows 16 floats apart (inner) and 4 floats (outer)
    SetLoopModePara(core, LoopModeParams(3, 2, 64, 32, 16, 96), DataCopyMVType.OUT_TO_UB)
    DataCopyPad(dst, src, DataCopyExtParams(1, 8, 0, 0, 0), DataCopyPadExtParams(False, 0, 0, 0))
    got = dst.numpy(48)
    for i2 in range(2):
        for i1 in range(3):
            at = (i1 * 32 + i2 * 96) // 4
            assert list(got[at:at + 2]) == list(x[i1 * 16 + i2 * 4:][:2]), (i1, i2)
    out, _ = gm_tensor(core, "y", np.zeros(8, np.float32))
    DataCopyPad(out, dst, DataCopyExtParams(1, 8, 0, 0, 0))  # UB -> GM: no loop mode on that path
    assert list(np.frombuffer(core.gm.bytes_view(out.ptr.addr, 32), np.float32)) == [0, 1] + [0] * 6
    ResetLoopModePara(core, DataCopyMVType.OUT_TO_UB)
    again = ub.buffer(np.float32, 16, np.full(16, -1, np.float32))
    DataCopyPad(again, src, DataCopyExtParams(1, 8, 0, 0, 0), DataCopyPadExtParams(False, 0, 0, 0))
    assert list(again.numpy(16)[8:]) == [-1] * 8 and list(again.numpy(2)) == [0, 1]  # once, no loop
