// Kernels with a defect each, written for opsnn's tests: the sanitizer must name the core, the
// instruction and the source line, and the test program must go on to the next case.
#include <cstdint>
#include <cstring>

#include "gtest/gtest.h"
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 256;  // floats a core copies

// Each core copies N floats from x to y at its own offset; `spill` floats more than its share.
extern "C" __global__ __aicore__ void copy_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    uint32_t spill = *reinterpret_cast<uint32_t *>(tiling);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + GetBlockIdx() * N, N);
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y) + GetBlockIdx() * N, N);
    pipe.InitBuffer(q, 1, (N + spill) * sizeof(float));
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, xg, N + spill);
    q.EnQue(t);
    LocalTensor<float> u = q.DeQue<float>();
    DataCopy(yg, u, N + spill);  // OUT_OF_BOUNDS_LINE
    q.FreeTensor(u);
}

extern "C" __global__ __aicore__ void ub_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> big;
    pipe.InitBuffer(big, 300 * 1024);  // UB_LINE: more than the core's UB
}

extern "C" __global__ __aicore__ void queue_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    if (GetBlockIdx() == 1) {
        LocalTensor<float> t = q.DeQue<float>();  // QUEUE_LINE: nothing was enqueued
        q.FreeTensor(t);
    }
}

extern "C" __global__ __aicore__ void assert_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    ASSERT(GetBlockNum() == 1 && "one core only");
}

struct Gm {
    uint8_t *x, *y, *tiling;
    explicit Gm(uint32_t cores, uint32_t spill) {
        x = static_cast<uint8_t *>(GmAlloc(cores * N * sizeof(float)));
        y = static_cast<uint8_t *>(GmAlloc(cores * N * sizeof(float)));
        tiling = static_cast<uint8_t *>(GmAlloc(sizeof(uint32_t)));
        std::memcpy(tiling, &spill, sizeof(spill));
        for (uint32_t i = 0; i < cores * N; ++i) reinterpret_cast<float *>(x)[i] = static_cast<float>(i);
    }
    ~Gm() {
        GmFree(x);
        GmFree(y);
        GmFree(tiling);
    }
};

TEST(bad, clean_copy) {
    Gm gm(2, 0);
    ICPU_RUN_KF(copy_kernel, 2, gm.x, gm.y, gm.tiling);
    EXPECT_EQ(reinterpret_cast<float *>(gm.y)[2 * N - 1], 2 * N - 1);
}
TEST(bad, out_of_bounds) {
    Gm gm(2, 8);
    ICPU_RUN_KF(copy_kernel, 2, gm.x, gm.y, gm.tiling);
}
TEST(bad, ub_exhausted) {
    Gm gm(1, 0);
    ICPU_RUN_KF(ub_kernel, 1, gm.x, gm.y, gm.tiling);
}
TEST(bad, queue_misuse) {
    Gm gm(2, 0);
    ICPU_RUN_KF(queue_kernel, 2, gm.x, gm.y, gm.tiling);
}
TEST(bad, assert_fails) {
    Gm gm(2, 0);
    ICPU_RUN_KF(assert_kernel, 2, gm.x, gm.y, gm.tiling);
}
