#include <cstdint>
#include "gtest/gtest.h"
#ifdef __CCE_KT_TEST__
#include "tikicpulib.h"
#endif

extern "C" __global__ __aicore__ void addone(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling);

TEST(addone, values) {
    // the generated struct is laid out as the host's TilingDef: flag, 3 bytes, perCore, pad3, 2 bytes, total
    static_assert(sizeof(AddoneTilingData) == 24, "TilingDef layout");
    static_assert(offsetof(AddoneTilingData, perCore) == 4 && offsetof(AddoneTilingData, total) == 16, "offsets");
    constexpr uint32_t cores = 2, per = 64;
    float *x = (float *)AscendC::GmAlloc(cores * per * 4), *y = (float *)AscendC::GmAlloc(cores * per * 4);
    auto *td = (AddoneTilingData *)AscendC::GmAlloc(sizeof(AddoneTilingData));
    td->perCore = per;
    td->total = cores * per;
    for (uint32_t i = 0; i < cores * per; ++i) x[i] = 0.5f * i;
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(addone, cores, (uint8_t *)x, (uint8_t *)y, nullptr, (uint8_t *)td);
    for (uint32_t i = 0; i < cores * per; ++i) EXPECT_EQ(y[i], 0.5f * i + 1.0f) << i;
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(td);
}
