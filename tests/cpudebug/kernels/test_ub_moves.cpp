// UB -> UB moves, written for opsnn's tests: TransDataTo5HD (address lists from GetPhyAddr, and
// LocalTensor lists) and Copy (a broadcast row by srcRepeatSize 0, the mask register with
// isSetMask = false), each checked value by value on the host.
#include <cstdint>
#include <cstring>

#include "gtest/gtest.h"
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t ROWS = 16, COLS = 16;  // a [16, 16] float matrix: two repeats of 8 columns

// y = x transposed ([16, 16] -> [16, 16]), through TransDataTo5HD's uint64_t address form.
extern "C" __global__ __aicore__ void transpose_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> in, out;
    pipe.InitBuffer(in, ROWS * COLS * sizeof(float));
    pipe.InitBuffer(out, ROWS * COLS * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), ROWS * COLS);
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), ROWS * COLS);
    LocalTensor<float> a = in.Get<float>();
    LocalTensor<float> b = out.Get<float>();
    DataCopy(a, xg, ROWS * COLS);
    uint64_t src[16], dst[16];
    for (uint32_t i = 0; i < 16; ++i) src[i] = a.GetPhyAddr(i * COLS);  // row i, 8 columns a repeat
    for (uint32_t k = 0; k < 8; ++k) {  // column k of rows 0..7, then of rows 8..15: row k of y
        dst[2 * k] = b.GetPhyAddr(k * ROWS);
        dst[2 * k + 1] = b.GetPhyAddr(k * ROWS + 8);
    }
    TransDataTo5HDParams p;
    p.repeatTimes = 2;
    p.srcRepStride = 1;             // the next 8 columns: one block on
    p.dstRepStride = 8 * ROWS / 8;  // the next 8 rows of y: 8 rows of 2 blocks on
    TransDataTo5HD<float>(dst, src, p);
    DataCopy(yg, b, ROWS * COLS);
}

// y = a [16, 16] half matrix transposed through the LocalTensor-list form (one repeat, strides 0).
extern "C" __global__ __aicore__ void transpose_half_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> in, out;
    pipe.InitBuffer(in, 256 * sizeof(half));
    pipe.InitBuffer(out, 256 * sizeof(half));
    GlobalTensor<half> xg, yg;
    xg.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(x), 256);
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(y), 256);
    LocalTensor<half> a = in.Get<half>();
    LocalTensor<half> b = out.Get<half>();
    DataCopy(a, xg, 256);
    LocalTensor<half> src[NCHW_CONV_ADDR_LIST_SIZE], dst[NCHW_CONV_ADDR_LIST_SIZE];
    for (int32_t i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
        src[i] = a[i * 16];
        dst[i] = b[i * 16];
    }
    TransDataTo5HD<half>(dst, src, TransDataTo5HDParams(false, false, 1, 0, 0));
    DataCopy(yg, b, 256);
}

// y = row 0 of x copied to 4 rows (srcRepeatSize 0), then element 3 of row 1 from x's row 1 under
// the mask register (isSetMask = false).
extern "C" __global__ __aicore__ void copy_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> in, out;
    pipe.InitBuffer(in, 64 * sizeof(float));
    pipe.InitBuffer(out, 64 * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), 64);
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), 64);
    LocalTensor<float> a = in.Get<float>();
    LocalTensor<float> b = out.Get<float>();
    DataCopy(a, xg, 64);
    Copy(b, a, 16, 4, {1, 1, 2, 0});
    SetVectorMask<float>(0, 1ull << 3);
    Copy<float, false>(b[16], a[16], MASK_PLACEHOLDER, 1, CopyRepeatParams());
    ResetMask();
    DataCopy(yg, b, 64);
}

TEST(ub_moves, transpose_float_by_addresses) {
    auto *x = static_cast<float *>(GmAlloc(ROWS * COLS * sizeof(float)));
    auto *y = static_cast<float *>(GmAlloc(ROWS * COLS * sizeof(float)));
    for (uint32_t i = 0; i < ROWS * COLS; ++i) x[i] = static_cast<float>(i);
    ICPU_RUN_KF(transpose_kernel, 1, (uint8_t *)x, (uint8_t *)y, (uint8_t *)x);
    for (uint32_t r = 0; r < COLS; ++r)
        for (uint32_t c = 0; c < ROWS; ++c) EXPECT_EQ(y[r * ROWS + c], x[c * COLS + r]) << r << "," << c;
    GmFree(x);
    GmFree(y);
}

TEST(ub_moves, transpose_half_by_tensors) {
    auto *x = static_cast<uint16_t *>(GmAlloc(256 * 2));
    auto *y = static_cast<uint16_t *>(GmAlloc(256 * 2));
    for (uint32_t i = 0; i < 256; ++i) x[i] = static_cast<uint16_t>(0x7C00 | i);  // NaN payloads move as bits
    ICPU_RUN_KF(transpose_half_kernel, 1, (uint8_t *)x, (uint8_t *)y, (uint8_t *)x);
    for (uint32_t r = 0; r < 16; ++r)
        for (uint32_t c = 0; c < 16; ++c) EXPECT_EQ(y[r * 16 + c], x[c * 16 + r]) << r << "," << c;
    GmFree(x);
    GmFree(y);
}

TEST(ub_moves, copy_broadcast_and_mask_register) {
    auto *x = static_cast<float *>(GmAlloc(64 * sizeof(float)));
    auto *y = static_cast<float *>(GmAlloc(64 * sizeof(float)));
    for (uint32_t i = 0; i < 64; ++i) x[i] = static_cast<float>(100 + i);
    ICPU_RUN_KF(copy_kernel, 1, (uint8_t *)x, (uint8_t *)y, (uint8_t *)x);
    for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(y[i], i == 19 ? x[19] : x[i % 16]) << i;
    GmFree(x);
    GmFree(y);
}
