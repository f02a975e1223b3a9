// The UB a C++ kernel may fill is Atlas A2's whole UB, as CANN's CPU-debug checker allows it. A
// tensor-scalar Select writes its scalar into 32 elements at UB byte 188416 (Atlas A2's scratch for
// that mode): an error only where the kernel then uses data it had there.
#include "gtest/gtest.h"
#include "kernel_operator.h"
#include "tikicpulib.h"
using namespace AscendC;
constexpr uint32_t SCRATCH_FLOAT = 188416 / sizeof(float);  // the scratch, as an index into buffer a
// 190 KiB of buffers: within Atlas A2's UB as the toolkit checks it (192 KiB)
extern "C" __global__ __aicore__ void big_ub(GM_ADDR y, GM_ADDR mode) {
    TPipe pipe; TBuf<TPosition::VECCALC> a, m;
    pipe.InitBuffer(a, 190 * 1024 - 256);
    pipe.InitBuffer(m, 256);
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), 64);
    LocalTensor<float> t = a.Get<float>();
    Duplicate(t, 1.0f, 64);
    Duplicate(t[SCRATCH_FLOAT], 3.0f, 64);  // live data where the scratch lies
    if (*mode) {
        LocalTensor<uint8_t> mk = m.Get<uint8_t>();
        Duplicate(mk.ReinterpretCast<uint16_t>(), (uint16_t)0xFFFF, 16);
        Select(t, mk, t, 2.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);  // SELECT_LINE
        if (*mode == 2) Duplicate(t[SCRATCH_FLOAT], 4.0f, 64);  // rewritten before any use: fine
        PipeBarrier<PIPE_ALL>();
        DataCopy(yg, t[SCRATCH_FLOAT], 64);  // USE_LINE: mode 1 copies out what the Select overwrote
    }
}
static void RunBigUb(uint8_t mode) {
    uint8_t *y = (uint8_t *)GmAlloc(256), *m = (uint8_t *)GmAlloc(32);
    m[0] = mode;
    ICPU_RUN_KF(big_ub, 1, y, m);
    GmFree(y);
    GmFree(m);
}
TEST(ub, fits) { RunBigUb(0); }
TEST(ub, select_scratch_used) { RunBigUb(1); }
TEST(ub, select_scratch_rewritten) { RunBigUb(2); }
