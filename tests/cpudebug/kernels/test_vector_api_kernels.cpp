// Kernels for opsnn's tests of the AscendC vector APIs reached from C++ (test_vector_api.py):
// reductions and their special registers, Gather / GatherMask / CreateVecIndex, Sort / Extract,
// high-level math, Axpy, the dequantising Cast. Each writes its results into one region of the
// output (the SLOT_* offsets below, in floats); the Python test computes every region with numpy
// the way AscendC computes it and compares bit for bit. Input: vec.x.bin (COUNT floats) in the
// folder the test runs in; output: vec.y.bin.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "gtest/gtest.h"
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t COUNT = 1000;  // 15 repeats of 64 floats and a tail of 40
constexpr uint32_t OUT = 4096;
constexpr uint32_t SLOT_SUM = 0, SLOT_ACC = 1, SLOT_MAX = 2, SLOT_MIN = 4, SLOT_MASKED = 8;
constexpr uint32_t SLOT_GATHER_MASK_COUNT = 31, SLOT_GATHER_MASK = 32, SLOT_GATHER = 128;
constexpr uint32_t SLOT_SORTED = 256, SLOT_SORTED_INDEX = 384, SLOT_TANH = 512, SLOT_POWER = 712;
constexpr uint32_t SLOT_AXPY = 912, SLOT_INDEX = 1200, SLOT_DEQ = 1300, SLOT_SIGN = 1400, SLOT_SQRT = 1600;
constexpr uint32_t SLOT_CUMSUM = 1700, SLOT_LAST_ROW = 1764, SLOT_BRC = 1800;
constexpr CumSumConfig lastAxisWithRow{true, false, true};  // a template argument: static storage

__aicore__ inline void VectorApis(GM_ADDR x, GM_ADDR y) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> inBuf, outBuf, work, tmp, u32Buf, i32Buf, recBuf;
    pipe.InitBuffer(inBuf, 1024 * sizeof(float));
    pipe.InitBuffer(outBuf, OUT * sizeof(float));
    pipe.InitBuffer(work, 1024 * sizeof(float));
    pipe.InitBuffer(tmp, 4096);
    pipe.InitBuffer(u32Buf, 256 * sizeof(uint32_t));
    pipe.InitBuffer(i32Buf, 256 * sizeof(int32_t));
    pipe.InitBuffer(recBuf, 128 * 8);
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), COUNT);
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), OUT);
    LocalTensor<float> in = inBuf.Get<float>(), out = outBuf.Get<float>(), w = work.Get<float>();
    LocalTensor<uint8_t> shared = tmp.Get<uint8_t>();
    LocalTensor<uint32_t> u32 = u32Buf.Get<uint32_t>();
    LocalTensor<int32_t> i32 = i32Buf.Get<int32_t>();
    LocalTensor<float> records = recBuf.Get<float>();

    DataCopy(in, xg, COUNT);
    Duplicate(out, 0.0f, OUT);
    PipeBarrier<PIPE_V>();

    // reductions: the count form and its ACC_VAL, max with its index, min over masked repeats
    ReduceSum<float>(out[SLOT_SUM], in, w, COUNT);
    out.SetValue(SLOT_ACC, GetAccVal<float>());
    ReduceMax<float>(out[SLOT_MAX], in, w, COUNT, true);
    ReduceMin<float>(out[SLOT_MIN], in, w, 48, 15, 8, true);  // lanes 0..47 of 15 repeats
    SetVectorMask<float>(0, 0xF0F0F0F0F0F0F0F0ull);            // the register's mask: isSetMask = false
    WholeReduceSum<float, false>(out[SLOT_MASKED], in, MASK_PLACEHOLDER, 15, 1, 1, 8);
    ResetMask();

    // GatherMask (odd lanes of 2 repeats), Gather (the first 64 reversed), CreateVecIndex
    uint64_t kept = 0;
    GatherMask(out[SLOT_GATHER_MASK], in, 2, false, 0, {1, 2, 8, 0}, kept);
    out.SetValue(SLOT_GATHER_MASK_COUNT, static_cast<float>(kept));
    CreateVecIndex(i32, 63, 64);                        // 63, 64, ...
    Muls(i32, i32, -4, 64);                             // -252, -256, ...
    Adds(i32, i32, 252 + 252, 64);                      // 252, 248, ..., 0: byte offsets of x[63..0]
    Gather(out[SLOT_GATHER], in, i32.ReinterpretCast<uint32_t>(), 0u, 64u);
    CreateVecIndex(i32, 7, 100);
    Cast(out[SLOT_INDEX], i32, RoundMode::CAST_NONE, 100);

    // Sort the first 128 scores with indices 0..127 into one list, then Extract it
    CreateVecIndex(i32, 0, 128);
    LocalTensor<float> concat;
    Concat(concat, in, w, 8);
    Sort<float, true>(records, concat, i32.ReinterpretCast<uint32_t>(), w, 4);
    Extract(out[SLOT_SORTED], out[SLOT_SORTED_INDEX].ReinterpretCast<uint32_t>(), records, 4);

    // high-level math and Axpy over the first 200
    Tanh(out[SLOT_TANH], in, shared, 200);
    Power(out[SLOT_POWER], in, 2.5f, 200);
    Duplicate(out[SLOT_AXPY], 1.0f, 200);
    Axpy(out[SLOT_AXPY], in, 0.5f, 200);
    Sign(out[SLOT_SIGN], in, 200);
    float scalar = in.GetValue(2) * in.GetValue(2);
    out.SetValue(SLOT_SQRT, static_cast<float>(sqrt(scalar)));  // the scalar unit's math, unqualified
    uint8_t parts = 7;
    out.SetValue(SLOT_SQRT + 1, static_cast<float>(Ceil(parts, 2ul) * 10 + ConstCeil(64, 64)));  // 4 * 10 + 1

    // int32 -> half through DEQSCALE 0.25, widened back to float
    Cast(i32, in, RoundMode::CAST_RINT, 64);
    SetDeqScale(static_cast<half>(0.25f));
    LocalTensor<half> h = w.ReinterpretCast<half>();
    Cast(h, i32, RoundMode::CAST_NONE, 64);
    Cast(out[SLOT_DEQ], h, RoundMode::CAST_NONE, 64);

    // CumSum along the last axis of x[0:64] as 2 x 32, with its last row; Broadcast of x[0:2] to 2 x 8
    LocalTensor<float> sums = out[SLOT_CUMSUM], lastRow = out[SLOT_LAST_ROW];
    CumSum<float, lastAxisWithRow>(sums, lastRow, in, shared, CumSumInfo{2, 32});  // 4096 bytes: its minimum
    const uint32_t brcDst[2] = {2, 8}, brcSrc[2] = {2, 1};
    Broadcast<float, 2, 1>(out[SLOT_BRC], in, brcDst, brcSrc, shared);
    out(SLOT_BRC + 16) = xg(3) * 2.0f;  // GlobalTensor's element proxy, read in a scalar expression

    DataCopy(yg, out, OUT);
}

extern "C" __global__ __aicore__ void vector_apis(GM_ADDR x, GM_ADDR y) { VectorApis(x, y); }

// a work buffer smaller than AscendC's formula for ReduceMax with calIndex: a finding at that line
extern "C" __global__ __aicore__ void short_work(GM_ADDR x, GM_ADDR y) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> inBuf, work;
    pipe.InitBuffer(inBuf, 1024 * sizeof(float));
    pipe.InitBuffer(work, 16 * sizeof(float));  // 15 repeats need 30 + 8 floats
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), COUNT);
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), OUT);
    LocalTensor<float> in = inBuf.Get<float>(), w = work.Get<float>();
    DataCopy(in, xg, COUNT);
    ReduceMax<float>(in, in, w, 64, 15, 8, true);  // SHORT_WORK_LINE
    DataCopy(yg, in, 8);
}

static std::vector<float> ReadBin(const char *path, size_t n) {
    std::vector<float> v(n, 0.0f);
    FILE *f = std::fopen(path, "rb");
    if (f != nullptr) {
        size_t got = std::fread(v.data(), sizeof(float), n, f);
        (void)got;
        std::fclose(f);
    }
    return v;
}

TEST(vector_api, runs_and_writes) {
    std::vector<float> host = ReadBin("vec.x.bin", COUNT);
    uint8_t *x = (uint8_t *)GmAlloc(COUNT * sizeof(float));
    uint8_t *y = (uint8_t *)GmAlloc(OUT * sizeof(float));
    std::memcpy(x, host.data(), COUNT * sizeof(float));
    SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(vector_apis, 1, x, y);
    FILE *f = std::fopen("vec.y.bin", "wb");
    ASSERT_NE(f, nullptr);
    std::fwrite(y, sizeof(float), OUT, f);
    std::fclose(f);
    GmFree(x);
    GmFree(y);
}

TEST(vector_api_bad, short_work_buffer) {
    uint8_t *x = (uint8_t *)GmAlloc(COUNT * sizeof(float));
    uint8_t *y = (uint8_t *)GmAlloc(OUT * sizeof(float));
    std::memset(x, 0, COUNT * sizeof(float));
    SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(short_work, 1, x, y);
    GmFree(x);
    GmFree(y);
}
