#include <cstring>
#include "gtest/gtest.h"
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void branches(GM_ADDR y);

TEST(branches, each_soc_gets_its_branch) {
    // the CMakeLists' if/else gives each SoC its own options: UT_SOC_VERSION and BRANCH_SOC agree
    EXPECT_STREQ(UT_SOC_VERSION, BRANCH_SOC);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(64);
    ICPU_RUN_KF(branches, 1, y);
    AscendC::GmFree(y);
}
