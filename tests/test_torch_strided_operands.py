"""torch semantics on operands torch walks with its basic loop (a stride-2 view: every element
through the scalar body) or in memory order (Fortran order): opsnn's numpy API gives torch's
bits there too, not the C-contiguous split (issue 35 item 18: selu gave NaN where torch gives
grad * scale)."""
from __future__ import annotations

import numpy as np
import pytest

import opsnn
from opsnn.dtypes import bfloat16

torch = pytest.importorskip("torch")
SELU_ALPHA, SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def _bits(a) -> list:
    a = np.asarray(a)
    return a.view(f"u{a.dtype.itemsize}").reshape(-1).tolist()


@pytest.mark.parametrize("backend", ["auto", "reference"])
def test_selu_with_a_stride_2_grad(backend):
    base = np.ones(80, np.float32)
    r = np.full(40, np.nan, np.float32)
    got = opsnn.selu_backward(base[::2], r, backend=backend)
    want = torch.ops.aten.elu_backward(torch.from_numpy(base)[::2], SELU_ALPHA, SELU_SCALE, 1, True,
                                       torch.from_numpy(r)).numpy()
    assert _bits(got) == _bits(want) and not np.isnan(got).any()


@pytest.mark.parametrize("backend", ["auto", "reference"])
@pytest.mark.parametrize("layout", ["strided", "fortran"])
def test_hardtanh_with_a_nan_x(layout, backend):
    if layout == "strided":
        gbase, x = np.ones(80, np.float32), np.full(40, np.nan, np.float32)
        g, tg = gbase[::2], torch.from_numpy(gbase)[::2]
        tx = torch.from_numpy(x)
    else:
        g = np.asfortranarray(np.ones((5, 9), np.float32))
        x = np.asfortranarray(np.full((5, 9), np.nan, np.float32))
        tg, tx = torch.from_numpy(g.T.copy()).T, torch.from_numpy(x.T.copy()).T
    got = opsnn.hardtanh_backward(g, x, -1.0, 1.0, backend=backend)
    want = torch.ops.aten.hardtanh_backward(tg, tx, -1.0, 1.0).numpy()
    assert _bits(got) == _bits(want)


def test_leaky_bfloat16_nan_bits_with_a_stride_2_grad():
    base = np.full(80, np.nan, np.float32).astype(bfloat16)
    x = np.ones(40, bfloat16)
    tbase = torch.from_numpy(np.full(80, np.nan, np.float32)).bfloat16()
    got = opsnn.leaky_relu_backward(base[::2], x, 0.01)
    want = torch.ops.aten.leaky_relu_backward(tbase[::2], torch.ones(40, dtype=torch.bfloat16), 0.01, False)
    assert _bits(got) == want.view(torch.int16).numpy().view(np.uint16).tolist()
