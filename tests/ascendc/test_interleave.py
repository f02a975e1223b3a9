"""Interleave / DeInterleave over LocalTensors (interleave.py), against AscendC's documented
examples and numpy: the interleaved sequence split in two, the even / odd elements, even counts,
32-byte alignment, and an overlap of a destination with a source as the kernel's defect."""
from __future__ import annotations

import numpy as np
import pytest

from opsnn.ascendc import ApiContractError, DeInterleave, EmulatorError, Interleave

from .helpers import Ub, kinds, make_core


def _tensors(dtype, n, values):
    core = make_core()
    ub = Ub(core)
    return core, [ub.buffer(dtype, n, v) for v in values]


@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.uint8])
def test_interleave_as_documented(dtype):
    n = 512 if np.dtype(dtype).itemsize > 1 else 128
    a, b = np.arange(1, n + 1).astype(dtype), np.arange(n + 1, 2 * n + 1).astype(dtype)
    core, (s0, s1, d0, d1) = _tensors(dtype, n, [a, b, None, None])
    Interleave(d0, d1, s0, s1, n)
    seq = np.stack([a, b], 1).reshape(-1)  # AscendC's example: [1 513 2 ...] and [257 769 258 ...]
    assert np.array_equal(d0.numpy(n), seq[:n]) and np.array_equal(d1.numpy(n), seq[n:])
    DeInterleave(s0, s1, d0, d1, n)  # back: the even and the odd elements of dst0 | dst1
    assert np.array_equal(s0.numpy(n), a) and np.array_equal(s1.numpy(n), b) and kinds(core) == []


def test_deinterleave_of_one_source():
    x = np.arange(1, 513, dtype=np.float16)
    core, (src, d0, d1) = _tensors(np.float16, 512, [x, None, None])
    DeInterleave(d0, d1, src, 512)
    assert np.array_equal(d0.numpy(256), x[0::2]) and np.array_equal(d1.numpy(256), x[1::2])


def test_what_interleave_refuses():
    core, (s0, s1, d0, d1) = _tensors(np.float32, 64, [np.ones(64), np.ones(64), None, None])
    with pytest.raises(EmulatorError, match="even"):
        Interleave(d0, d1, s0, s1, 63)
    with pytest.raises(ApiContractError, match="overlaps"):
        Interleave(s0, d1, s0, s1, 64)
    Interleave(d0[4], d1, s0, s1, 8)  # 16 bytes in: not 32-byte aligned
    assert "datacopy_unaligned" in kinds(core)
