#include "gtest/gtest.h"
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void overrun(GM_ADDR x, GM_ADDR y);

TEST(overrun, writes_past_y) {
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(72 * 4), *y = (uint8_t *)AscendC::GmAlloc(64 * 4);
    ICPU_RUN_KF(overrun, 1, x, y);
    AscendC::GmFree(x);
    AscendC::GmFree(y);
}
