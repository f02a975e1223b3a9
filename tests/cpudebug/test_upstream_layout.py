"""`opsnn ut` on a test laid out as upstream's (<op>/tests/ut/op_kernel/test_<op>.cpp beside
<op>/op_kernel/<op>.cpp), with a kernel of our own: the <op>_tiling_def.h -include, the extern "C"
entry of a kernel template chosen by ICPU_SET_TILING_KEY from ASCENDC_TPL_UINT_SEL, TQueBind's
two hops, the mask/repeat Compares/Select, Sigmoid, LocalTensor(i), AscendC::Std and AlignUp."""
from __future__ import annotations

import numpy as np
import pytest

from opsnn.cpudebug import ut

from .conftest import op_tree

KERNEL = r'''
#include "kernel_operator.h"
#include "opx_tiling_key.h"
using namespace AscendC;
template <uint32_t mode>
__global__ __aicore__ void opx(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> q;
    TBuf<TPosition::VECCALC> maskBuf;
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x);
    yg.SetGlobalBuffer((__gm__ float *)y);
    uint32_t n = AlignUp(Std::min(64u, 100ul), DivCeil(32, 4));  // 64
    pipe.InitBuffer(q, 1, n * sizeof(float));
    pipe.InitBuffer(maskBuf, 256);
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, xg, n);
    q.EnQue<TPosition::GM, TPosition::VECIN, float>(t);
    t = q.DeQue<TPosition::GM, TPosition::VECIN, float>();
    if constexpr (mode == 0) {
        LocalTensor<uint8_t> m = maskBuf.Get<uint8_t>();
        Compares(m, t, 0.0f, CMPMODE::GT, 64, 1, UnaryRepeatParams{1, 1, 8, 8});
        Select(t, m, t, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64, 1, BinaryRepeatParams{1, 1, 1, 8, 8, 8});
    } else {
        Sigmoid(t, t, n);
        t(0) = static_cast<float>(t(1)) + OPX_BIAS;  // element access both ways
    }
    q.EnQue<TPosition::VECOUT, TPosition::GM, float>(t);
    t = q.DeQue<TPosition::VECOUT, TPosition::GM, float>();
    DataCopy(yg, t, n);
    q.FreeTensor(t);
}
'''
KEY = r'''
#include "ascendc/host_api/tiling/template_argument.h"
ASCENDC_TPL_ARGS_DECL(Opx, ASCENDC_TPL_UINT_DECL(mode, 1, ASCENDC_TPL_UI_LIST, 0, 1));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(mode, ASCENDC_TPL_UI_LIST, 0, 1)));
'''
TEST = r'''
#include <cmath>
#include <cstdio>
#include "gtest/gtest.h"
#include "tikicpulib.h"
#include "opx_tiling_key.h"  // GET_TPL_TILING_KEY reads its declarations, as CANN's does
extern "C" __global__ __aicore__ void opx(GM_ADDR x, GM_ADDR y, GM_ADDR tiling);
static void RunOpx(uint64_t key, const char *out) {
    float *x = (float *)AscendC::GmAlloc(256), *y = (float *)AscendC::GmAlloc(256);
    uint8_t *tiling = (uint8_t *)AscendC::GmAlloc(32);
    for (int i = 0; i < 64; ++i) x[i] = (i % 3 == 0 ? -1.0f : 1.0f) * 0.25f * i;
    x[5] = NAN;
    ICPU_SET_TILING_KEY(key);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(opx, 1, (uint8_t *)x, (uint8_t *)y, tiling);
    FILE *f = std::fopen(out, "wb");
    std::fwrite(x, 4, 64, f);
    std::fwrite(y, 4, 64, f);
    std::fclose(f);
    AscendC::GmFree(x); AscendC::GmFree(y); AscendC::GmFree(tiling);
}
TEST(opx, relu_by_repeat_form) { RunOpx(0, "relu.bin"); }
TEST(opx, sigmoid) { RunOpx(GET_TPL_TILING_KEY(1), "sigmoid.bin"); }
'''


@pytest.fixture(scope="module")
def ran(tmp_path_factory, runtime):
    root = tmp_path_factory.mktemp("layout")
    test = op_tree(root, "opx", KERNEL, TEST, {"op_kernel/opx_tiling_key.h": KEY,
                                               "tests/ut/op_kernel/opx_tiling_def.h": "#define OPX_BIAS 2.0f\n"})
    tests = test.parent
    work = root / "work"
    rc = ut.main([str(tests / "test_opx.cpp"), "--soc", "ascend910B1", "--workdir", str(work)])
    return rc, work


def _read(path):
    data = np.fromfile(path, dtype=np.float32)
    return data[:64], data[64:]


def test_builds_and_runs_clean(ran):
    rc, work = ran
    assert rc == 0
    assert (work / "relu.bin").is_file() and (work / "sigmoid.bin").is_file()


def test_repeat_form_compares_select_is_relu(ran):
    _, work = ran
    x, y = _read(work / "relu.bin")
    want = np.where(x > 0, x, np.float32(0))  # NaN > 0 is false
    np.testing.assert_array_equal(y.view(np.uint32), want.view(np.uint32))


def test_sigmoid_is_the_four_rounded_steps(ran):
    _, work = ran
    x, y = _read(work / "sigmoid.bin")
    e = np.exp(-x.astype(np.float64)).astype(np.float32)  # Exp: correctly rounded float
    s = (e.astype(np.float64) + 1).astype(np.float32)
    want = (1 / s.astype(np.float64)).astype(np.float32)
    want[0] = want[1] + np.float32(2.0)  # t(0) = t(1) + OPX_BIAS, the tiling_def's define
    nan = np.isnan(x)
    assert np.isnan(y[nan]).all()  # its sign and payload are the emulator's NaN rules (ieee.py)
    np.testing.assert_array_equal(y[~nan].view(np.uint32), want[~nan].view(np.uint32))
