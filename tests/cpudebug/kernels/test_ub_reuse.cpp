// What a core wrote in UB stays there: AllocTensor hands out a buffer at its fixed address and leaves
// its bytes alone, so a kernel may read back what it wrote before a FreeTensor (upstream's add_rms_norm
// hands x1 + x2 from CopyIn to Compute so), and a Gather may work in place while no repeat reads what
// an earlier one wrote (add_rms_norm's rstd broadcast). The broken twins: a re-allocation that gets a
// buffer nothing wrote, and an in-place Gather whose tail reads what its first repeat wrote.
#include <cstdint>
#include <cstring>

#include "gtest/gtest.h"
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t ROW = 64;   // floats a row
constexpr uint32_t ROWS = 9;   // rows: one whole Gather repeat (8 rows of a block each) and a tail

// y[r] = x[r] + 1 through a one-buffer queue read back after its re-allocation; then, per row, the
// row's first value broadcast over its 32-byte block by an in-place Gather into s.
template <uint32_t BUFFERS, bool BAD_GATHER>
__aicore__ inline void Reuse(GM_ADDR x, GM_ADDR y, GM_ADDR s) {
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFERS> q;
    TBuf<TPosition::VECCALC> rows, offsets;
    pipe.InitBuffer(q, BUFFERS, ROW * sizeof(float));
    pipe.InitBuffer(rows, ROWS * 8 * sizeof(float));
    pipe.InitBuffer(offsets, ROWS * 8 * sizeof(uint32_t));
    GlobalTensor<float> xg, yg, sg;
    xg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), ROWS * ROW);
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), ROWS * ROW);
    sg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(s), ROWS * 8);
    LocalTensor<float> r = rows.Get<float>();
    LocalTensor<uint32_t> off = offsets.Get<uint32_t>();
    for (uint32_t i = 0; i < ROWS; ++i) {
        LocalTensor<float> in = q.template AllocTensor<float>();
        DataCopy(in, xg[i * ROW], ROW);
        Adds(in, in, 1.0f, ROW);
        q.FreeTensor(in);
        LocalTensor<float> again = q.template AllocTensor<float>();  // one buffer: the same bytes, still x + 1
        DataCopy(yg[i * ROW], again, ROW);                   // REREAD_LINE
        r.SetValue(i * 8, again.GetValue(0));
        q.FreeTensor(again);
        // row i's block: from its own first element (the bad twin: the tail block from row 0's)
        uint32_t from = (BAD_GATHER && i == ROWS - 1) ? 0 : i * 32;
        Duplicate(off[i * 8], from, 8);
    }
    Gather(r, r, off, 0, ROWS * 8);  // GATHER_LINE
    DataCopy(sg, r, ROWS * 8);
}

extern "C" __global__ __aicore__ void reuse_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR s) { Reuse<1, false>(x, y, s); }
extern "C" __global__ __aicore__ void other_buffer_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR s) {
    Reuse<2, false>(x, y, s);
}
extern "C" __global__ __aicore__ void bad_gather_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR s) { Reuse<1, true>(x, y, s); }

struct Gm {
    float *x, *y, *s;
    Gm() {
        x = static_cast<float *>(GmAlloc(ROWS * ROW * sizeof(float)));
        y = static_cast<float *>(GmAlloc(ROWS * ROW * sizeof(float)));
        s = static_cast<float *>(GmAlloc(ROWS * 8 * sizeof(float)));
        for (uint32_t i = 0; i < ROWS * ROW; ++i) x[i] = static_cast<float>(i);
        std::memset(y, 0, ROWS * ROW * sizeof(float));
        std::memset(s, 0, ROWS * 8 * sizeof(float));
    }
    ~Gm() { GmFree(x); GmFree(y); GmFree(s); }
};

TEST(ub_reuse, reread_after_realloc_and_in_place_gather) {
    Gm gm;
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(reuse_kernel, 1, (uint8_t *)gm.x, (uint8_t *)gm.y, (uint8_t *)gm.s);
    for (uint32_t i = 0; i < ROWS * ROW; ++i) EXPECT_EQ(gm.y[i], static_cast<float>(i) + 1.0f) << i;
    for (uint32_t i = 0; i < ROWS * 8; ++i) EXPECT_EQ(gm.s[i], static_cast<float>(i / 8 * ROW) + 1.0f) << i;
}

TEST(ub_reuse, realloc_of_a_buffer_never_written) {
    Gm gm;
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(other_buffer_kernel, 1, (uint8_t *)gm.x, (uint8_t *)gm.y, (uint8_t *)gm.s);
}

TEST(ub_reuse, in_place_gather_reading_an_earlier_repeat) {
    Gm gm;
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(bad_gather_kernel, 1, (uint8_t *)gm.x, (uint8_t *)gm.y, (uint8_t *)gm.s);
}
