#include "gtest/gtest.h"
#include "tikicpulib.h"

// declared as a plain C entry, never #included: upstream's build has nothing that defines it
extern "C" __global__ __aicore__ void wrapped(GM_ADDR y);

TEST(wrapped, runs) {
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(32);
    ICPU_SET_TILING_KEY(1);
    ICPU_RUN_KF(wrapped, 1, y);
    EXPECT_EQ(reinterpret_cast<float *>(y)[0], 1.0f);
    AscendC::GmFree(y);
}
