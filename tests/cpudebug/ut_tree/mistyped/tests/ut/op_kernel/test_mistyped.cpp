#include "gtest/gtest.h"
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void mistyped(GM_ADDR x);

TEST(mistyped, runs) {
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(32);
    ICPU_RUN_KF(mistyped, 1, x);
    AscendC::GmFree(x);
}
