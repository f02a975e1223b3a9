// The UB a C++ kernel may fill is Atlas A2's whole UB, as CANN's CPU-debug checker allows it; the
// top 8 KiB is Select's tensor-scalar scratch, an error only where such a Select runs over buffers there.
#include "gtest/gtest.h"
#include "kernel_operator.h"
#include "tikicpulib.h"
using namespace AscendC;
// 190 KiB of buffers: within Atlas A2's UB as the toolkit checks it (192 KiB)
extern "C" __global__ __aicore__ void big_ub(GM_ADDR x, GM_ADDR mode) {
    TPipe pipe; TBuf<TPosition::VECCALC> a, m;
    pipe.InitBuffer(a, 190 * 1024 - 256);
    pipe.InitBuffer(m, 256);
    LocalTensor<float> t = a.Get<float>();
    Duplicate(t, 1.0f, 64);
    if (*mode) {  // tensor-scalar Select: its scratch is the top 8 KiB, where a lies
        LocalTensor<uint8_t> mk = m.Get<uint8_t>();
        Duplicate(mk.ReinterpretCast<uint16_t>(), (uint16_t)0xFFFF, 16);
        Select(t, mk, t, 2.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);  // SELECT_LINE
    }
}
TEST(ub, fits) { uint8_t *x = (uint8_t *)GmAlloc(32); x[0] = 0; ICPU_RUN_KF(big_ub, 1, x, x); GmFree(x); }
TEST(ub, select_scratch) { uint8_t *x = (uint8_t *)GmAlloc(32); x[0] = 1; ICPU_RUN_KF(big_ub, 1, x, x); GmFree(x); }
