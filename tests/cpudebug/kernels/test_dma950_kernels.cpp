// Ascend950's DMA forms and helpers reached from C++ (test_dma950.py), each result checked here
// against the layout AscendC documents: DataCopy with NdDmaParams (a transpose, and constant
// padding), DataCopyPad<T, PaddingMode::Compact>, SetLoopModePara around a DataCopyPad,
// NumericLimits, GetTPipePtr, a __simd_vf__ function run by asc_vf_call and VF_CALL.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "gtest/gtest.h"
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 64;  // x: 8 x 8 floats 0..63

template <typename T>
__simd_vf__ inline void Double(__ubuf__ T *dst, __ubuf__ T *src, uint32_t count) {
    MicroAPI::RegTensor<T> v;
    uint32_t left = count;
    MicroAPI::MaskReg mask = MicroAPI::UpdateMask<T>(left);
    MicroAPI::DataCopy(v, src);
    MicroAPI::Add(v, v, v, mask);
    MicroAPI::DataCopy(dst, v, mask);
}

extern "C" __global__ __aicore__ void dma950(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b, c, d, e;
    pipe.InitBuffer(a, 128 * sizeof(float));
    pipe.InitBuffer(b, 128 * sizeof(float));
    pipe.InitBuffer(c, 128 * sizeof(float));
    pipe.InitBuffer(d, 128 * sizeof(float));
    pipe.InitBuffer(e, 128 * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), N);
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), 5 * 128);
    LocalTensor<float> t = a.Get<float>(), p = b.Get<float>(), k = c.Get<float>(), l = d.Get<float>();
    LocalTensor<float> m = e.Get<float>();
    for (LocalTensor<float> z : {t, p, k, l, m}) Duplicate(z, 0.0f, 128);  // what no copy writes reads 0
    NdDmaDci();
    // the transpose: 8 x 8 -> 8 x 8, dst stride 8 along x's columns and 1 along its rows
    NdDmaLoopInfo<2> transpose{{1, 8}, {8, 1}, {8, 8}, {0, 0}, {0, 0}};
    DataCopy<float, 2>(t, xg, NdDmaParams<float, 2>{transpose, 0.0f});
    // rows 0..1 of x, 1 column of -1 on the left, 3 on the right: a 2 x 12 tile
    static constexpr NdDmaConfig plain;
    NdDmaLoopInfo<2> padded{{1, 8}, {1, 12}, {8, 2}, {1, 0}, {3, 0}};
    DataCopy<float, 2, plain>(p, xg, NdDmaParams<float, 2>{padded, -1.0f});
    // three bursts of 3 floats, one float apart in GM, back to back in UB
    DataCopyPad<float, PaddingMode::Compact>(k, xg, DataCopyExtParams(3, 12, 4, 0, 0),
                                             DataCopyPadExtParams<float>(true, 0, 0, 9.0f));
    // loop mode: 2 iterations of a 2-float burst, GM rows 8 floats apart, UB 32 bytes apart
    SetLoopModePara(LoopModeParams(2, 1, 32, 32, 0, 0), DataCopyMVType::OUT_TO_UB);
    DataCopyPad(l, xg, DataCopyExtParams(1, 8, 0, 0, 0), DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
    ResetLoopModePara(DataCopyMVType::OUT_TO_UB);
    NumericLimits<float>::Max(m, 8);
    m.SetValue(8, NumericLimits<float>::Lowest());
    m.SetValue(9, NumericLimits<float>::Infinity());
    m.SetValue(10, GetTPipePtr() == &pipe ? 1.0f : 0.0f);
    asc_vf_call<Double<float>>((__ubuf__ float *)m.GetPhyAddr(16), (__ubuf__ float *)t.GetPhyAddr(), 8u);
    VF_CALL<Double<float>>((__ubuf__ float *)m.GetPhyAddr(24), (__ubuf__ float *)m.GetPhyAddr(16), 8u);
    DataCopy(yg, t, 128);
    DataCopy(yg[128], p, 128);
    DataCopy(yg[256], k, 128);
    DataCopy(yg[384], l, 128);
    DataCopy(yg[512], m, 32);
}

TEST(dma950, layouts) {
    auto *x = static_cast<float *>(GmAlloc(N * sizeof(float)));
    auto *y = static_cast<float *>(GmAlloc(5 * 128 * sizeof(float)));
    for (uint32_t i = 0; i < N; ++i) x[i] = static_cast<float>(i);
    std::memset(y, 0, 5 * 128 * sizeof(float));
    ICPU_RUN_KF(dma950, 1, (uint8_t *)x, (uint8_t *)y, (uint8_t *)x);
    for (uint32_t r = 0; r < 8; ++r)
        for (uint32_t col = 0; col < 8; ++col) EXPECT_EQ(y[col * 8 + r], x[r * 8 + col]) << r << "," << col;
    const float *p = y + 128;
    for (uint32_t r = 0; r < 2; ++r) {
        EXPECT_EQ(p[r * 12], -1.0f);
        for (uint32_t col = 0; col < 8; ++col) EXPECT_EQ(p[r * 12 + 1 + col], x[r * 8 + col]);
        for (uint32_t col = 9; col < 12; ++col) EXPECT_EQ(p[r * 12 + col], -1.0f);
    }
    const float compact[] = {0, 1, 2, 4, 5, 6, 8, 9, 10, 9, 9, 9, 9, 9, 9, 9};
    for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(y[256 + i], compact[i]) << i;
    EXPECT_EQ(y[384], 0.0f);
    EXPECT_EQ(y[385], 1.0f);
    EXPECT_EQ(y[384 + 8], 8.0f);  // the second iteration: GM +32 bytes, UB +32 bytes
    EXPECT_EQ(y[384 + 9], 9.0f);
    const float *m = y + 512;
    for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(m[i], 3.4028234663852886e38f);
    EXPECT_EQ(m[8], -3.4028234663852886e38f);
    EXPECT_TRUE(std::isinf(m[9]) && m[9] > 0);
    EXPECT_EQ(m[10], 1.0f);
    for (uint32_t i = 0; i < 8; ++i) {
        EXPECT_EQ(m[16 + i], 2.0f * x[i * 8]);  // the transposed tile's first row, doubled
        EXPECT_EQ(m[24 + i], 4.0f * x[i * 8]);
    }
    GmFree(x);
    GmFree(y);
}
