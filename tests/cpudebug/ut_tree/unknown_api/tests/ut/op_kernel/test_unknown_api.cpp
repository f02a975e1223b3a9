#include "gtest/gtest.h"
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void unknown_api(GM_ADDR x);

TEST(unknown_api, runs) {
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(32);
    ICPU_RUN_KF(unknown_api, 1, x);
    AscendC::GmFree(x);
}
