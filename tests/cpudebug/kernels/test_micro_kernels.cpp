// AscendC::MicroAPI kernels written for opsnn's tests (Ascend950 register-level code).
//
// silu_kernel<T>: y = x / (1 + exp(-x)) in float registers, for float (DIST_NORM load and store),
// half and bfloat16 (DIST_UNPACK_B16 load, Cast to float from RegLayout ZERO, Cast back with
// CAST_RINT, DIST_PACK_B32 store); the element count is a tiling field, so a tail that is not a
// multiple of 64 lanes is run. Inputs come from <name>.x.bin in the folder the test runs in, the
// result goes to <name>.y.bin: test_micro.py writes the one and checks the other bit for bit.
//
// merge_kernel: ZEROING against MERGING under a VL16 mask. bad_load_kernel / undefined_kernel:
// the lanes a register load reads past its buffer, and undefined lanes, stored to UB and copied to
// GM; tail_load_kernel: the same load at a tail with those lanes masked off (clean).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;
using AscendC::MicroAPI::MaskReg;
using AscendC::MicroAPI::RegTensor;

struct SiluTiling {
    uint32_t count;
};

constexpr uint32_t MAX_COUNT = 512;
constexpr uint32_t LANES = VECTOR_REG_WIDTH / sizeof(float);

constexpr static MicroAPI::CastTrait TO_FLOAT = {MicroAPI::RegLayout::ZERO, MicroAPI::SatMode::UNKNOWN,
                                                 MicroAPI::MaskMergeMode::ZEROING, RoundMode::UNKNOWN};
constexpr static MicroAPI::CastTrait FROM_FLOAT = {MicroAPI::RegLayout::ZERO, MicroAPI::SatMode::NO_SAT,
                                                   MicroAPI::MaskMergeMode::ZEROING, RoundMode::CAST_RINT};

template <typename T>
__aicore__ inline void SiluBody(__local_mem__ T *in, __local_mem__ T *out, uint32_t count) {
    __VEC_SCOPE__ {
        RegTensor<float> x, t, one;
        MaskReg all = MicroAPI::CreateMask<float>();
        MicroAPI::Duplicate<float, MicroAPI::MaskMergeMode::ZEROING, float>(one, 1.0f, all);
        uint32_t rest = count;
        uint16_t loops = static_cast<uint16_t>((count + LANES - 1) / LANES);
        for (uint16_t i = 0; i < loops; ++i) {
            MaskReg mask = MicroAPI::UpdateMask<float>(rest);
            if constexpr (std::is_same_v<T, float>) {
                MicroAPI::DataCopy<float, MicroAPI::LoadDist::DIST_NORM>(x, in + i * LANES);
            } else {
                RegTensor<T> packed;
                MicroAPI::DataCopy<T, MicroAPI::LoadDist::DIST_UNPACK_B16>(packed, in + i * LANES);
                MicroAPI::Cast<float, T, TO_FLOAT>(x, packed, mask);
            }
            MicroAPI::Muls(t, x, -1.0f, mask);
            MicroAPI::Exp(t, t, mask);
            MicroAPI::Adds(t, t, 1.0f, mask);
            MicroAPI::Div(t, x, t, mask);
            if constexpr (std::is_same_v<T, float>) {
                MicroAPI::DataCopy<float, MicroAPI::StoreDist::DIST_NORM_B32>(out + i * LANES, t, mask);
            } else {
                RegTensor<T> narrow;
                MicroAPI::Cast<T, float, FROM_FLOAT>(narrow, t, mask);
                MicroAPI::DataCopy<T, MicroAPI::StoreDist::DIST_PACK_B32>(out + i * LANES, narrow, mask);
            }
        }
    }
}

template <typename T>
__aicore__ inline void Silu(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(SiluTiling, tl, tiling);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, MAX_COUNT * sizeof(T));
    pipe.InitBuffer(outQ, 1, MAX_COUNT * sizeof(T));
    GlobalTensor<T> xg, yg;
    xg.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(x), tl.count);
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y), tl.count);
    LocalTensor<T> a = inQ.AllocTensor<T>();
    DataCopyPad(a, xg, DataCopyExtParams(1, tl.count * sizeof(T), 0, 0, 0), DataCopyPadExtParams<T>());
    inQ.EnQue(a);
    a = inQ.DeQue<T>();
    LocalTensor<T> b = outQ.AllocTensor<T>();
    SiluBody<T>((__local_mem__ T *)a.GetPhyAddr(), (__local_mem__ T *)b.GetPhyAddr(), tl.count);
    inQ.FreeTensor(a);
    outQ.EnQue(b);
    b = outQ.DeQue<T>();
    DataCopyPad(yg, b, DataCopyExtParams(1, tl.count * sizeof(T), 0, 0, 0));
    outQ.FreeTensor(b);
}

extern "C" __global__ __aicore__ void silu_f32(GM_ADDR x, GM_ADDR y, GM_ADDR t) { Silu<float>(x, y, t); }
extern "C" __global__ __aicore__ void silu_f16(GM_ADDR x, GM_ADDR y, GM_ADDR t) { Silu<half>(x, y, t); }
extern "C" __global__ __aicore__ void silu_bf16(GM_ADDR x, GM_ADDR y, GM_ADDR t) { Silu<bfloat16_t>(x, y, t); }

// y[0:64] = x * 2 on the first 16 lanes over a register of 7s: ZEROING (y[64:128]: MERGING).
extern "C" __global__ __aicore__ void merge_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> in, out;
    pipe.InitBuffer(in, LANES * sizeof(float));
    pipe.InitBuffer(out, 2 * LANES * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), LANES);
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), 2 * LANES);
    LocalTensor<float> a = in.Get<float>();
    LocalTensor<float> b = out.Get<float>();
    DataCopy(a, xg, LANES);
    __local_mem__ float *src = (__local_mem__ float *)a.GetPhyAddr();
    __local_mem__ float *dst = (__local_mem__ float *)b.GetPhyAddr();
    __VEC_SCOPE__ {
        RegTensor<float> v, zeroing, merging;
        MaskReg all = MicroAPI::CreateMask<float>();
        MaskReg first16 = MicroAPI::CreateMask<float, MicroAPI::MaskPattern::VL16>();
        MicroAPI::DataCopy(v, src);
        MicroAPI::Duplicate(zeroing, 7.0f, all);
        merging = zeroing;  // a copy: the two registers are distinct from here on
        MicroAPI::Muls<float, float, MicroAPI::MaskMergeMode::ZEROING>(zeroing, v, 2.0f, first16);
        MicroAPI::Muls<float, float, MicroAPI::MaskMergeMode::MERGING>(merging, v, 2.0f, first16);
        MicroAPI::DataCopy(dst, zeroing, all);
        MicroAPI::DataCopy(dst + LANES, merging, all);
    }
    DataCopy(yg, b, 2 * LANES);
}

// A register load that runs past its 64-float buffer: bytes [128, 384) of a 256-byte buffer.
extern "C" __global__ __aicore__ void bad_load_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> in, out;
    pipe.InitBuffer(in, LANES * sizeof(float));
    pipe.InitBuffer(out, LANES * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), LANES);
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), LANES);
    LocalTensor<float> a = in.Get<float>();
    LocalTensor<float> b = out.Get<float>();
    DataCopy(a, xg, LANES);
    DataCopy(b, xg, LANES);
    __local_mem__ float *src = (__local_mem__ float *)a.GetPhyAddr();
    RegTensor<float> v;
    MicroAPI::DataCopy(v, src + 32);  // PAST_BUFFER_LINE
    MaskReg all = MicroAPI::CreateMask<float>();
    MicroAPI::DataCopy((__local_mem__ float *)b.GetPhyAddr(), v, all);  // lanes 32..63: past a's end
    DataCopy(yg, b, LANES);  // PAST_BUFFER_SINK_LINE
}

// bad_load_kernel's legal twin: the same whole-register load at a tail, but only the lanes inside
// the buffer are stored (a register loop's last iteration): clean.
extern "C" __global__ __aicore__ void tail_load_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> in, out;
    pipe.InitBuffer(in, LANES * sizeof(float));
    pipe.InitBuffer(out, LANES * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), LANES);
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), LANES);
    LocalTensor<float> a = in.Get<float>();
    LocalTensor<float> b = out.Get<float>();
    DataCopy(a, xg, LANES);
    __local_mem__ float *src = (__local_mem__ float *)a.GetPhyAddr();
    RegTensor<float> v;
    MicroAPI::DataCopy(v, src + 32);
    uint32_t inside = 32;
    MaskReg first = MicroAPI::UpdateMask<float>(inside);
    MicroAPI::DataCopy((__local_mem__ float *)b.GetPhyAddr(), v, first);
    DataCopy(yg, b, 32);
}

// 40 floats written of a 64-float buffer; a MERGING Abs keeps the unwritten lanes' undefined
// values, and the whole register goes to UB and on to GM: the copy to GM is the error.
extern "C" __global__ __aicore__ void undefined_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> in, out;
    pipe.InitBuffer(in, LANES * sizeof(float));
    pipe.InitBuffer(out, LANES * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), LANES);
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), LANES);
    LocalTensor<float> a = in.Get<float>();
    LocalTensor<float> b = out.Get<float>();
    DataCopyPad(a, xg, DataCopyExtParams(1, 40 * sizeof(float), 0, 0, 0), DataCopyPadExtParams<float>());
    RegTensor<float> v;
    MicroAPI::DataCopy(v, (__local_mem__ float *)a.GetPhyAddr());  // UNDEFINED_LOAD_LINE
    uint32_t n = 40;
    MaskReg valid = MicroAPI::UpdateMask<float>(n);
    MaskReg all = MicroAPI::CreateMask<float>();
    MicroAPI::Abs<float, MicroAPI::MaskMergeMode::MERGING>(v, v, valid);
    MicroAPI::DataCopy((__local_mem__ float *)b.GetPhyAddr(), v, all);
    DataCopy(yg, b, LANES);  // UNDEFINED_SINK_LINE
}

// ---- the host side ----
static std::vector<uint8_t> ReadFile(const char *path) {
    std::vector<uint8_t> bytes;
    if (FILE *f = std::fopen(path, "rb")) {
        uint8_t buf[4096];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) bytes.insert(bytes.end(), buf, buf + n);
        std::fclose(f);
    }
    return bytes;
}

template <typename K>
static void RunSilu(const char *name, K kernel, size_t elem) {
    std::string base(name);
    std::vector<uint8_t> input = ReadFile((base + ".x.bin").c_str());
    ASSERT_FALSE(input.empty()) << base << ".x.bin: test_micro.py writes it";
    uint32_t count = static_cast<uint32_t>(input.size() / elem);
    ASSERT_LE(count, MAX_COUNT);
    auto *x = static_cast<uint8_t *>(GmAlloc(input.size()));
    auto *y = static_cast<uint8_t *>(GmAlloc(input.size()));
    auto *tiling = static_cast<uint8_t *>(GmAlloc(sizeof(SiluTiling)));
    std::memcpy(x, input.data(), input.size());
    reinterpret_cast<SiluTiling *>(tiling)->count = count;
    ICPU_RUN_KF(kernel, 1, x, y, tiling);
    FILE *f = std::fopen((base + ".y.bin").c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fwrite(y, 1, input.size(), f);
    std::fclose(f);
    GmFree(x);
    GmFree(y);
    GmFree(tiling);
}

TEST(micro, silu_float) { RunSilu("silu_f32", silu_f32, 4); }
TEST(micro, silu_half) { RunSilu("silu_f16", silu_f16, 2); }
TEST(micro, silu_bfloat16) { RunSilu("silu_bf16", silu_bf16, 2); }

TEST(micro, zeroing_and_merging) {
    auto *x = static_cast<float *>(GmAlloc(LANES * sizeof(float)));
    auto *y = static_cast<float *>(GmAlloc(2 * LANES * sizeof(float)));
    for (uint32_t i = 0; i < LANES; ++i) x[i] = static_cast<float>(i) + 0.5f;
    ICPU_RUN_KF(merge_kernel, 1, (uint8_t *)x, (uint8_t *)y, (uint8_t *)x);
    for (uint32_t i = 0; i < LANES; ++i) {
        EXPECT_EQ(y[i], i < 16 ? 2 * x[i] : 0.0f) << i;
        EXPECT_EQ(y[LANES + i], i < 16 ? 2 * x[i] : 7.0f) << i;
    }
    GmFree(x);
    GmFree(y);
}

TEST(micro, tail_load_past_buffer_masked_off) {
    auto *x = static_cast<float *>(GmAlloc(LANES * sizeof(float)));
    auto *y = static_cast<float *>(GmAlloc(LANES * sizeof(float)));
    for (uint32_t i = 0; i < LANES; ++i) x[i] = static_cast<float>(i);
    ICPU_RUN_KF(tail_load_kernel, 1, (uint8_t *)x, (uint8_t *)y, (uint8_t *)x);
    for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(y[i], static_cast<float>(32 + i)) << i;
    GmFree(x);
    GmFree(y);
}

TEST(micro_bad, load_past_buffer) {
    auto *x = static_cast<uint8_t *>(GmAlloc(LANES * sizeof(float)));
    auto *y = static_cast<uint8_t *>(GmAlloc(LANES * sizeof(float)));
    ICPU_RUN_KF(bad_load_kernel, 1, x, y, x);
    GmFree(x);
    GmFree(y);
}

TEST(micro_bad, undefined_lanes_reach_gm) {
    auto *x = static_cast<uint8_t *>(GmAlloc(LANES * sizeof(float)));
    auto *y = static_cast<uint8_t *>(GmAlloc(LANES * sizeof(float)));
    ICPU_RUN_KF(undefined_kernel, 1, x, y, x);
    GmFree(x);
    GmFree(y);
}
