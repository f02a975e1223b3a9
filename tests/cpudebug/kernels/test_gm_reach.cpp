// GM a kernel reaches other than through its arguments: a buffer whose address it reads from a
// pointer table in GM (a tensor list, upstream's multi_add_rms_norm_dynamic_quant), and a
// GlobalTensor set past its buffer by a core with no work (upstream's top_k_top_p_sample_v2). Both
// are legal; what is judged is each access: past the buffer the table points at, or a non-empty
// access through the dangling GlobalTensor, is a finding at its line and the core goes on.
#include <cstdint>
#include <cstring>

#include "gtest/gtest.h"
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 64;  // floats in the buffer the table points at

// y = the buffer the table's first entry points at (+ `extra` floats: the broken twin reads past it);
// every core sets a GlobalTensor at its own row of y, past y for cores >= 1, and clears `rows` floats.
extern "C" __global__ __aicore__ void reach_kernel(GM_ADDR table, GM_ADDR y, GM_ADDR tiling) {
    uint32_t extra = reinterpret_cast<uint32_t *>(tiling)[0];
    uint32_t rows = reinterpret_cast<uint32_t *>(tiling)[1];
    GM_ADDR listed = reinterpret_cast<GM_ADDR>(*reinterpret_cast<__gm__ uint64_t *>(table));
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 2 * N * sizeof(float));
    LocalTensor<float> t = b.Get<float>();
    GlobalTensor<float> src, dst, row;
    src.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(listed), N);
    dst.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), N);
    if (GetBlockIdx() == 0) {
        DataCopy(t, src, N + extra);  // LISTED_LINE
        DataCopy(dst, t, N);
    }
    row.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y) + (GetBlockIdx() + 1) * N, rows);  // past y for cores >= 1
    if (GetBlockIdx() == 1) {
        InitGlobalMemory(row, rows, 0.0f);  // DANGLING_LINE
    }
}

struct Gm {
    uint8_t *table, *listed, *y, *tiling;
    Gm(uint32_t extra, uint32_t rows) {
        listed = static_cast<uint8_t *>(GmAlloc(N * sizeof(float)));
        table = static_cast<uint8_t *>(GmAlloc(sizeof(uint64_t)));
        y = static_cast<uint8_t *>(GmAlloc(N * sizeof(float)));
        tiling = static_cast<uint8_t *>(GmAlloc(2 * sizeof(uint32_t)));
        for (uint32_t i = 0; i < N; ++i) reinterpret_cast<float *>(listed)[i] = static_cast<float>(i) + 0.5f;
        uint64_t address = reinterpret_cast<uint64_t>(listed);
        std::memcpy(table, &address, sizeof(address));
        uint32_t t[2] = {extra, rows};
        std::memcpy(tiling, t, sizeof(t));
        std::memset(y, 0, N * sizeof(float));
    }
    ~Gm() { GmFree(table); GmFree(listed); GmFree(y); GmFree(tiling); }
};

TEST(gm_reach, listed_buffer_and_an_unused_dangling_tensor) {
    Gm gm(0, 0);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(reach_kernel, 2, gm.table, gm.y, gm.tiling);
    for (uint32_t i = 0; i < N; ++i) EXPECT_EQ(reinterpret_cast<float *>(gm.y)[i], static_cast<float>(i) + 0.5f);
}

TEST(gm_reach, past_the_listed_buffer) {
    Gm gm(8, 0);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(reach_kernel, 2, gm.table, gm.y, gm.tiling);
}

TEST(gm_reach, a_dangling_tensor_used) {
    Gm gm(0, 8);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(reach_kernel, 2, gm.table, gm.y, gm.tiling);
}
