// opsnn's benchmark kernel for the cost of one instruction call from C++ (bench_cpp_kernel.py):
// one core issues CALLS Adds of 64 floats on one UB buffer, nothing else.
#include <cstdint>

#include "gtest/gtest.h"
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

#ifndef CALLS
#define CALLS 2000
#endif

extern "C" __global__ __aicore__ void calls_kernel(GM_ADDR x, GM_ADDR tiling) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 1.0f, 64);
    for (int i = 0; i < CALLS; ++i) Adds(t, t, 1.0f, 64);
}

TEST(bench, calls) {
    uint8_t *x = static_cast<uint8_t *>(GmAlloc(256));
    uint8_t *tiling = static_cast<uint8_t *>(GmAlloc(32));
    ICPU_RUN_KF(calls_kernel, 1, x, tiling);
    GmFree(x);
    GmFree(tiling);
}
