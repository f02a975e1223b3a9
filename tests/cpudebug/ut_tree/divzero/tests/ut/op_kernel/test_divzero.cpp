#include <cstring>

#include "gtest/gtest.h"
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void divzero(GM_ADDR y, GM_ADDR tiling);

TEST(divzero, rows_per_core_left_zero) {
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(32), *tiling = (uint8_t *)AscendC::GmAlloc(32);
    std::memset(tiling, 0, 32);
    ICPU_RUN_KF(divzero, 1, y, tiling);
    AscendC::GmFree(y);
    AscendC::GmFree(tiling);
}
