"""int4b_t (opsnn/ascendc/int4.py): two elements a byte, the even one in the low nibble. The count
form Cast half <-> int4 against numpy (each round mode, saturation to [-8, 7], NaN -> 0), moves of
int4 tensors from C++ (DataCopy's element count is halved; GlobalTensor / LocalTensor offsets are
half a byte an element), and any other instruction on them refused by name."""
from __future__ import annotations

import json

import numpy as np
import pytest

from opsnn.ascendc import EmulatorError
from opsnn.ascendc.cast_repeat import Cast
from opsnn.ascendc.int4 import INT4, pack, unpack
from opsnn.ascendc.rounding import RoundMode
from opsnn.cpudebug import ut
from tests.ascendc.helpers import Ub, make_core


def test_pack_and_unpack_put_the_even_element_in_the_low_nibble():
    assert pack(np.array([1, -1, 7, -8])).tolist() == [0xF1, 0x87]
    assert unpack(np.array([0xF1, 0x87], np.uint8)).tolist() == [1, -1, 7, -8]


@pytest.mark.parametrize("mode, rounded", [
    (RoundMode.CAST_RINT, [2, -2, 2, -2, 7, -8, 0, 0, 7, -8]),
    (RoundMode.CAST_NONE, [2, -2, 2, -2, 7, -8, 0, 0, 7, -8]),
    (RoundMode.CAST_FLOOR, [1, -2, 2, -3, 7, -8, 0, 0, 7, -8]),
    (RoundMode.CAST_CEIL, [2, -1, 3, -2, 7, -8, 0, 0, 7, -8]),
    (RoundMode.CAST_ROUND, [2, -2, 3, -3, 7, -8, 0, 0, 7, -8]),
    (RoundMode.CAST_TRUNC, [1, -1, 2, -2, 7, -8, 0, 0, 7, -8]),
])
def test_cast_half_to_int4_rounds_then_saturates(mode, rounded):
    x = np.array([1.5, -1.5, 2.5, -2.5, 9.0, -100.0, np.nan, 0.0, np.inf, -np.inf, 0, 0], np.float16)
    core = make_core()
    ub = Ub(core)
    src, dst, back = ub.buffer(np.float16, 12, x), ub.buffer(INT4, 6), ub.buffer(np.float16, 12)
    Cast(dst, src, mode, 12)
    assert unpack(dst.numpy(6).view(np.uint8))[:10].tolist() == rounded
    Cast(back, dst, RoundMode.CAST_NONE, 12)  # int4 -> half: exact
    assert back.numpy(12)[:10].tolist() == rounded and core.log.items == []


def test_what_int4_cast_refuses():
    core = make_core()
    ub = Ub(core)
    h, q, f = ub.buffer(np.float16, 16), ub.buffer(INT4, 8), ub.buffer(np.float32, 16)
    with pytest.raises(EmulatorError, match="odd count"):
        Cast(q, h, RoundMode.CAST_RINT, 3)
    with pytest.raises(EmulatorError, match="CAST_ODD"):
        Cast(q, h, RoundMode.CAST_ODD, 16)
    with pytest.raises(EmulatorError, match="half <-> int4 only"):
        Cast(q, f, RoundMode.CAST_RINT, 16)
    with pytest.raises(EmulatorError, match="CAST_NONE only"):
        Cast(h, q, RoundMode.CAST_RINT, 16)
    with pytest.raises(EmulatorError, match="only the count form"):
        Cast(q, h, RoundMode.CAST_RINT, 16, 1, None)


INT4_KERNEL = r'''
#include "gtest/gtest.h"
#include "tikicpulib.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void q(GM_ADDR x, GM_ADDR y, GM_ADDR mode) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> hb, qb, bb;
    pipe.InitBuffer(hb, 128 * sizeof(half));
    pipe.InitBuffer(qb, 64);
    pipe.InitBuffer(bb, 128 * sizeof(half));
    GlobalTensor<half> xg;
    xg.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(x), 128);
    GlobalTensor<int4b_t> y4;
    y4.SetGlobalBuffer(reinterpret_cast<__gm__ int4b_t *>(y), 256);
    LocalTensor<half> h = hb.Get<half>(), back = bb.Get<half>();
    LocalTensor<int4b_t> q4 = qb.Get<int4b_t>();
    DataCopy(h, xg, 128);
    Cast(q4, h, RoundMode::CAST_RINT, 128);
    if (*mode == 2) Abs(q4, q4, 64);  // REFUSED_LINE
    DataCopy(y4[128], q4, 128);              // 64 bytes at byte 64 of y: int4 offsets are half a byte each
    DataCopy(q4[64], y4[128], 64);           // the first 64 back from GM, over the second 64 in UB
    Cast(back, q4, RoundMode::CAST_NONE, 128);
    DataCopy(xg, back, 128);
}
static void RunQ(uint8_t mode) {
    auto *x = reinterpret_cast<half *>(GmAlloc(128 * sizeof(half)));
    for (int i = 0; i < 128; ++i) x[i] = half(static_cast<float>(i % 19) - 9.5f);
    auto *y = reinterpret_cast<uint8_t *>(GmAlloc(128));
    auto *m = reinterpret_cast<uint8_t *>(GmAlloc(32));
    m[0] = mode;
    ICPU_RUN_KF(q, 1, reinterpret_cast<uint8_t *>(x), y, m);
    FILE *f = std::fopen("q.y.bin", "wb");
    std::fwrite(y, 1, 128, f);
    std::fclose(f);
    f = std::fopen("q.x.bin", "wb");
    std::fwrite(x, sizeof(half), 128, f);
    std::fclose(f);
}
TEST(q, moves) { RunQ(1); }
TEST(q, refused) { RunQ(2); }
'''


def test_int4_from_cpp_moves_and_casts_and_refuses_the_rest(tmp_path, runtime):
    src = tmp_path / "test_q.cpp"
    src.write_text(INT4_KERNEL)
    out = tmp_path / "run.json"
    rc = ut.main([str(src), "--soc", "ascend910B1", "--workdir", str(tmp_path), "--json", str(out),
                  "--", "--gtest_filter=q.moves"])
    [moves] = json.loads(out.read_text())["runs"][0]["launches"]
    assert rc == 0 and moves["ok"] and moves["findings"] == []
    x = (np.arange(128) % 19 - 9.5).astype(np.float16)
    q = np.clip(np.rint(x.astype(np.float64)), -8, 7).astype(np.int8)  # RINT: -9.5 -> -10 -> -8
    y = np.fromfile(tmp_path / "q.y.bin", dtype=np.uint8)
    assert not y[:64].any() and np.array_equal(y[64:], pack(q))
    back = np.concatenate([q[:64], q[:64]]).astype(np.float16)
    assert np.array_equal(np.fromfile(tmp_path / "q.x.bin", dtype=np.float16), back)
    rc = ut.main([str(src), "--soc", "ascend910B1", "--workdir", str(tmp_path), "--json", str(out),
                  "--", "--gtest_filter=q.refused"])
    [refused] = json.loads(out.read_text())["runs"][0]["launches"]
    [f] = refused["findings"]
    line = next(i for i, t in enumerate(INT4_KERNEL.splitlines(), 1) if "REFUSED_LINE" in t)
    assert rc == 1 and (f["kind"], f["instruction"], f["source"]) == ("core_failed", "Abs", f"test_q.cpp:{line}")
    assert "Abs on int4 tensors (int4b_t) is not modelled" in f["detail"]
