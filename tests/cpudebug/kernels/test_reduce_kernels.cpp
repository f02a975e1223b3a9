// Ascend950 reduction kernels of opsnn's own, for test_reduce_cpp.py: each case's inputs come from
// <case>.in<k>.bin and its tiling from <case>.tiling.bin in the folder the test runs in; its
// outputs go to <case>.out<k>.bin, which the test checks bit for bit.
//
// micro_reduce     MicroAPI Reduce<SUM> under a 37-lane mask, Reduce<MAX> (value and index),
//                  ReduceDataBlock<SUM> under 44 lanes, the int16 -> int32 widening sum
// pattern_reduce   AscendC's ReduceSum<float, AR, true>, ReduceSum<float, RA, false> with a
//                  sharedTmpBuffer, ReduceMax<half, AR>, on the tiling's [rows, cols]
// l2 / l2_bi       the atvoss ReduceSch on a DAG of our own: y0 = sqrt(s), y1 = s = sum(x * x) over the R axes
//                  (AR and ARA, one or several cores, several R tiles, a group reduce through
//                  workspace; l2_bi batch-invariant)
// absmax           y = max(|x|) * scale, scale a Var from the tiling (ReduceMaxOp)
// empty_fill       PatternID 0: the half output filled with Process's float argument
// micro_rows       the MicroAPI upstream's norm reductions are written with: rows of 37 floats read
//                  at unaligned addresses (LoadUnAlignPre / LoadUnAlign), their tails cleared
//                  by ShiftLefts on the register seen as uint32, squared (Mula), summed (Reduce),
//                  each sum stored one element at a time (StoreUnAlign + StoreUnAlignPost), the
//                  rows copied through unaligned stores; MulDstAdd, Move, And, ShiftRights; the
//                  scalar bit counts, Duplicate from a register, Pack / UnPack (registers, masks),
//                  AddrReg loads and stores, ccec's plt_b16(count, POST_UPDATE)
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "atvoss/reduce/reduce_operator.h"
#include "atvoss/reduce/reduce_sch.h"
#include "atvoss/reduce/reduce_tiling_key_decl.h"
#include "atvoss/util/dag.h"
#include "gtest/gtest.h"
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;
using AscendC::MicroAPI::MaskReg;
using AscendC::MicroAPI::RegTensor;
using namespace Ops::Base::ReduceOpTmpl;

// ---- MicroAPI reductions: y[0:64] sum (lane 0), y[64:128] max (lane 0 value, lane 1 index),
// y[128:192] per-block sums, y[192:256] the widening int16 sum's lanes ----
extern "C" __global__ __aicore__ void micro_reduce(GM_ADDR x, GM_ADDR x16, GM_ADDR y, GM_ADDR tiling) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> in, in16, out;
    pipe.InitBuffer(in, 256);
    pipe.InitBuffer(in16, 256);
    pipe.InitBuffer(out, 4 * 256);
    GlobalTensor<float> xg, yg;
    GlobalTensor<int16_t> x16g;
    xg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), 64);
    x16g.SetGlobalBuffer(reinterpret_cast<__gm__ int16_t *>(x16), 128);
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), 256);
    LocalTensor<float> a = in.Get<float>();
    LocalTensor<int16_t> a16 = in16.Get<int16_t>();
    LocalTensor<float> b = out.Get<float>();
    DataCopy(a, xg, 64);
    DataCopy(a16, x16g, 128);
    __local_mem__ float *src = (__local_mem__ float *)a.GetPhyAddr();
    __local_mem__ int16_t *src16 = (__local_mem__ int16_t *)a16.GetPhyAddr();
    __local_mem__ float *dst = (__local_mem__ float *)b.GetPhyAddr();
    __VEC_SCOPE__ {
        RegTensor<float> v, r;
        RegTensor<int16_t> v16;
        RegTensor<int32_t> r32;
        MaskReg all = MicroAPI::CreateMask<float>();
        uint32_t n37 = 37, n44 = 44, n100 = 100;
        MaskReg m37 = MicroAPI::UpdateMask<float>(n37);
        MaskReg m44 = MicroAPI::UpdateMask<float>(n44);
        MaskReg m100 = MicroAPI::UpdateMask<int16_t>(n100);
        MicroAPI::DataCopy(v, src);
        MicroAPI::Reduce<MicroAPI::ReduceType::SUM>(r, v, m37);
        MicroAPI::DataCopy(dst, r, all);
        MicroAPI::Reduce<MicroAPI::ReduceType::MAX, float>(r, v, all);
        MicroAPI::DataCopy(dst + 64, r, all);
        MicroAPI::ReduceDataBlock<MicroAPI::ReduceType::SUM>(r, v, m44);
        MicroAPI::DataCopy(dst + 128, r, all);
        MicroAPI::DataCopy(v16, src16);
        MicroAPI::ReduceSum(r32, v16, m100);
        MicroAPI::DataCopy((__local_mem__ int32_t *)(dst + 192), r32, all);
    }
    DataCopy(yg, b, 256);
}

// ---- the high-level reductions: y0 = ReduceSum AR (rows), y1 = ReduceSum RA with a tmp buffer
// (cols), y2 = ReduceMax<half, AR> of the same values as half (rows) ----
struct PatternTiling {
    uint32_t rows, cols;
};

extern "C" __global__ __aicore__ void pattern_reduce(GM_ADDR x, GM_ADDR xh, GM_ADDR y0, GM_ADDR y1, GM_ADDR y2,
                                                     GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(PatternTiling, tl, tiling);
    const uint32_t n = tl.rows * tl.cols;
    TPipe pipe;
    TBuf<TPosition::VECCALC> s0, s1, sh, d0, d1, d2, tmp;
    pipe.InitBuffer(s0, n * 4 + 256);
    pipe.InitBuffer(s1, n * 4 + 256);
    pipe.InitBuffer(sh, n * 2 + 256);
    pipe.InitBuffer(d0, tl.rows * 4 + 256);
    pipe.InitBuffer(d1, tl.cols * 4 + 256);
    pipe.InitBuffer(d2, tl.rows * 2 + 256);
    pipe.InitBuffer(tmp, n * 4 + 256);
    GlobalTensor<float> xg, y0g, y1g;
    GlobalTensor<half> xhg, y2g;
    xg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), n);
    xhg.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(xh), n);
    y0g.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y0), tl.rows);
    y1g.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y1), tl.cols);
    y2g.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(y2), tl.rows);
    LocalTensor<float> a = s0.Get<float>(), b = s1.Get<float>(), r0 = d0.Get<float>(), r1 = d1.Get<float>();
    LocalTensor<half> h = sh.Get<half>(), r2 = d2.Get<half>();
    DataCopyExtParams in32{1, n * 4, 0, 0, 0}, in16{1, n * 2, 0, 0, 0};
    DataCopyPad(a, xg, in32, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
    DataCopyPad(b, xg, in32, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
    DataCopyPad(h, xhg, in16, DataCopyPadExtParams<half>{false, 0, 0, half(0)});
    const uint32_t shape[2] = {tl.rows, tl.cols};
    ReduceSum<float, Pattern::Reduce::AR, true>(r0, a, shape, false);
    ReduceSum<float, Pattern::Reduce::RA, false>(r1, b, tmp.Get<uint8_t>(), shape, false);
    ReduceMax<half, Pattern::Reduce::AR>(r2, h, shape, false);
    DataCopyPad(y0g, r0, DataCopyExtParams{1, tl.rows * 4, 0, 0, 0});
    DataCopyPad(y1g, r1, DataCopyExtParams{1, tl.cols * 4, 0, 0, 0});
    DataCopyPad(y2g, r2, DataCopyExtParams{1, tl.rows * 2, 0, 0, 0});
}

// ---- reduce DAGs on the atvoss ReduceSch ----
template <class T>
struct L2Dag {  // y0 = sqrt(s), y1 = s, s = sum(x * x)
    using X = Bind<Vec::CopyIn<T>, Placeholder::In0<T>>;
    using Sq = Bind<Vec::Mul<T>, X, X>;
    using Sum = Bind<Vec::ReduceSumOp<T>, Sq>;
    using Out0 = Bind<Vec::CopyOut<T>, Placeholder::Out0<T>, Bind<Vec::Sqrt<T>, Sum>>;
    using Out1 = Bind<Vec::CopyOut<T>, Placeholder::Out1<T>, Sum>;
    using OpDag = DAGSch<Elems<Out0, Out1>, void, MemOptCfg<MemLevel::LEVEL_2>>;
};

struct AbsMaxDag {
    using X = Bind<Vec::CopyIn<float>, Placeholder::In0<float>>;
    using M = Bind<Vec::ReduceMaxOp<float>, Bind<Vec::Abs<float>, X>>;
    using Out = Bind<Vec::CopyOut<float>, Placeholder::Out0<float>, Bind<Vec::Muls<float>, M, Placeholder::Var<float, 0>>>;
    using OpDag = DAGSch<Elems<Out>, void, MemOptCfg<MemLevel::LEVEL_2>>;
};

struct HalfSumDag {  // half in and out, the sum in float
    using X = Bind<Vec::CopyIn<half>, Placeholder::In0<half>>;
    using S = Bind<Vec::ReduceSumOp<float>, Bind<Vec::Cast<float, half, 0>, X>>;
    using Out = Bind<Vec::CopyOut<half>, Placeholder::Out0<half>, Bind<Vec::Cast<half, float, 1>, S>>;
    using OpDag = DAGSch<Elems<Out>, void, MemOptCfg<MemLevel::LEVEL_2>>;
};

struct ScaledTiling {
    Ops::Base::ReduceOpTilingData reduce;
    float scale;
};

template <REDUCE_TPL_PARAM>
__global__ __aicore__ void l2(GM_ADDR x, GM_ADDR y0, GM_ADDR y1, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(Ops::Base::ReduceOpTilingData, t, tiling);
    TPipe pipe;
    ReduceSch<REDUCE_TPL_VALUE, L2Dag<float>::OpDag> op(&t);
    op.Init(&pipe, x, y0, y1, GetUserWorkspace(workspace));
    op.Process();
}

template <REDUCE_TPL_PARAM>
__global__ __aicore__ void absmax(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(ScaledTiling, t, tiling);
    TPipe pipe;
    ReduceSch<REDUCE_TPL_VALUE, AbsMaxDag::OpDag> op(&t.reduce);
    op.template SetVar<float, 0>(t.scale);
    op.Init(&pipe, x, y, workspace);
    op.Process();
}

extern "C" __global__ __aicore__ void empty_fill(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(ScaledTiling, t, tiling);
    TPipe pipe;
    ReduceSch<true, false, 0, 0, 0, HalfSumDag::OpDag> op(&t.reduce);
    op.Init(&pipe, x, y, workspace);
    op.Process(t.scale);
}

// ---- the host side ----
// ---- y0[1 : 1 + 5 * 37] = x[0 : 5 * 37] (unaligned stores), y1[r] = sum of row r's squares,
// y2 = x[0:64] * x[64:128] + x[128:192] fused, y3 = Move / And / ShiftRights on x's bits,
// y4 = the scalar bit counts ----
extern "C" __global__ __aicore__ void micro_rows(GM_ADDR x, GM_ADDR y0, GM_ADDR y1, GM_ADDR y2, GM_ADDR y3,
                                                 GM_ADDR y4, GM_ADDR y5, GM_ADDR y6, GM_ADDR y7) {
    constexpr uint32_t ROW = 37, ROWS = 5;
    TPipe pipe;
    TBuf<TPosition::VECCALC> in, out0, out1, out2, out3, out4, out5, out6, out7;
    pipe.InitBuffer(in, 256 * 4);
    pipe.InitBuffer(out0, 192 * 4);
    pipe.InitBuffer(out1, 8 * 4);
    pipe.InitBuffer(out2, 64 * 4);
    pipe.InitBuffer(out3, 3 * 64 * 4);
    pipe.InitBuffer(out4, 8 * 4);
    pipe.InitBuffer(out5, 2 * 64 * 4);
    pipe.InitBuffer(out6, 2 * 64 * 4);
    pipe.InitBuffer(out7, 256 * 4);
    GlobalTensor<float> xg, y0g, y1g, y2g;
    GlobalTensor<int32_t> y3g, y4g;
    xg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), 256);
    y0g.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y0), 192);
    y1g.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y1), 8);
    y2g.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y2), 64);
    y3g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(y3), 3 * 64);
    y4g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(y4), 8);
    GlobalTensor<float> y5g;
    GlobalTensor<int32_t> y6g;
    y5g.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y5), 2 * 64);
    y6g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(y6), 2 * 64);
    LocalTensor<float> b5 = out5.Get<float>();
    LocalTensor<int32_t> b6 = out6.Get<int32_t>();
    __local_mem__ float *dupOut = (__local_mem__ float *)b5.GetPhyAddr();
    __local_mem__ int32_t *packOut = (__local_mem__ int32_t *)b6.GetPhyAddr();
    GlobalTensor<float> y7g;
    y7g.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y7), 256);
    LocalTensor<float> b7 = out7.Get<float>();
    __local_mem__ float *twice = (__local_mem__ float *)b7.GetPhyAddr();
    LocalTensor<float> a = in.Get<float>();
    LocalTensor<float> b0 = out0.Get<float>(), b1 = out1.Get<float>(), b2 = out2.Get<float>();
    LocalTensor<int32_t> b3 = out3.Get<int32_t>(), b4 = out4.Get<int32_t>();
    DataCopy(a, xg, 256);
    Duplicate(b0, 0.0f, 192);
    Duplicate(b1, 0.0f, 8);
    __local_mem__ float *src = (__local_mem__ float *)a.GetPhyAddr();
    __local_mem__ float *rows = (__local_mem__ float *)b0.GetPhyAddr() + 1;
    __local_mem__ float *sums = (__local_mem__ float *)b1.GetPhyAddr();
    __local_mem__ float *fused = (__local_mem__ float *)b2.GetPhyAddr();
    __local_mem__ int32_t *bitsOut = (__local_mem__ int32_t *)b3.GetPhyAddr();
    __VEC_SCOPE__ {
        MicroAPI::RegTensor<float> v, sq, s, zero, p, q, r;
        MicroAPI::RegTensor<int32_t> iv, hi, keep;
        MicroAPI::UnalignReg uIn, uRows, uSums;
        MaskReg all = MicroAPI::CreateMask<float>();
        uint32_t n = ROW;
        MaskReg rowMask = MicroAPI::UpdateMask<uint32_t>(n);
        MicroAPI::Duplicate(zero, 0.0f);
        for (uint32_t k = 0; k < ROWS; ++k) {
            __local_mem__ float *row = src + k * ROW;
            MicroAPI::LoadUnAlignPre(uIn, row);
            MicroAPI::LoadUnAlign(v, uIn, row);
            MicroAPI::ShiftLefts((MicroAPI::RegTensor<uint32_t> &)v, (MicroAPI::RegTensor<uint32_t> &)v,
                                 static_cast<int16_t>(0), rowMask);
            MicroAPI::StoreUnAlign(rows, v, uRows, ROW);
            sq = zero;
            MicroAPI::Mula(sq, v, v, all);
            MicroAPI::Reduce<MicroAPI::ReduceType::SUM>(s, sq, all);
            MicroAPI::StoreUnAlign<float, MicroAPI::PostLiteral::POST_MODE_UPDATE>(sums, s, uSums, 1);
        }
        MicroAPI::StoreUnAlignPost(rows, uRows, 0);
        MicroAPI::DataCopyUnAlignPost(sums, uSums, 0);
        MicroAPI::DataCopy(p, src);
        MicroAPI::DataCopy(q, src + 64);
        MicroAPI::DataCopy(r, src + 128);
        MicroAPI::MulDstAdd(p, q, r, all);
        MicroAPI::DataCopy(fused, p, all);
        // x's bits: Move the first 10 lanes over -1 (MERGING), the top half-word (And), >> 20 arithmetic
        MicroAPI::DataCopy(iv, (__local_mem__ int32_t *)src);
        uint32_t ten = 10;
        MaskReg m10 = MicroAPI::UpdateMask<int32_t>(ten);
        MicroAPI::Duplicate(keep, -1);
        MicroAPI::Copy<int32_t, MicroAPI::MaskMergeMode::MERGING>(keep, iv, m10);  // Move's other name
        MicroAPI::DataCopy(bitsOut, keep, all);
        MicroAPI::Duplicate(hi, static_cast<int32_t>(0xFFFF0000u));
        MicroAPI::And(hi, iv, hi, all);
        MicroAPI::DataCopy(bitsOut + 64, hi, all);
        MicroAPI::ShiftRights(iv, iv, static_cast<int16_t>(20), all);
        MicroAPI::DataCopy(bitsOut + 128, iv, all);
        // the last row's sum (lane 0 of s) to every lane; a b16 predicate of 50 lanes as a b32 one
        MicroAPI::RegTensor<float> spread, ones;
        MicroAPI::Duplicate(spread, s, all);
        MicroAPI::DataCopy(dupOut, spread, all);
        uint32_t left = 178;  // ccec's plt_b16 takes 128 lanes and leaves 50 for the next one
        MaskReg m16 = plt_b16(left, POST_UPDATE);
        m16 = plt_b16(left, POST_UPDATE);
        MaskReg m32;
        MicroAPI::UnPack(m32, m16);
        MicroAPI::Duplicate(ones, 0.0f);
        MicroAPI::Duplicate<float, MicroAPI::MaskMergeMode::MERGING>(ones, 1.0f, m32);
        MicroAPI::DataCopy(dupOut + 64, ones, all);
        // x's first 128 half-words: the high 64 widened (UnPack HIGHEST), then narrowed back (Pack)
        MicroAPI::RegTensor<uint16_t> h16, back;
        MicroAPI::RegTensor<uint32_t> h32;
        MicroAPI::DataCopy(h16, (__local_mem__ uint16_t *)src);
        MicroAPI::UnPack<uint32_t, uint16_t, MicroAPI::HighLowPart::HIGHEST>(h32, h16);
        MicroAPI::DataCopy((__local_mem__ uint32_t *)packOut, h32, all);
        MicroAPI::Pack(back, h32);
        MaskReg all16 = MicroAPI::CreateMask<uint16_t>();  // a b32 mask would store only the even lanes
        MicroAPI::DataCopy((__local_mem__ uint16_t *)(packOut + 64), back, all16);
        // y7 = 2 * x through address registers: offset = i * 128 + j * 64 floats
        MicroAPI::RegTensor<float> w;
        for (uint16_t i = 0; i < 2; ++i) {
            for (uint16_t j = 0; j < 2; ++j) {
                MicroAPI::AddrReg at = MicroAPI::CreateAddrReg<float>(i, 128, j, 64);
                MicroAPI::LoadAlign(w, src, at);
                MicroAPI::Muls(w, w, 2.0f, all);
                MicroAPI::StoreAlign(twice, w, at, all);
            }
        }
    }
    for (int32_t i = 0; i < 4; ++i) b4.SetValue(i, static_cast<int32_t>(GetBitCount<1>(i ^ (i + 1)) - 1));
    b4.SetValue(4, static_cast<int32_t>(ScalarCountLeadingZero(0x0FFFFFFFFFFFFFFFull)));
    b4.SetValue(5, static_cast<int32_t>(ScalarGetSFFValue<1>(28)));
    b4.SetValue(6, static_cast<int32_t>(GetSFFValue<0>(~0ull)));
    b4.SetValue(7, static_cast<int32_t>(sbitset1(0, 5)));
    DataCopy(y0g, b0, 192);
    DataCopy(y1g, b1, 8);
    DataCopy(y2g, b2, 64);
    DataCopy(y3g, b3, 3 * 64);
    DataCopy(y4g, b4, 8);
    DataCopy(y5g, b5, 2 * 64);
    DataCopy(y6g, b6, 2 * 64);
    DataCopy(y7g, b7, 256);
}

static std::vector<uint8_t> ReadBin(const std::string &path) {
    std::vector<uint8_t> bytes;
    if (FILE *f = std::fopen(path.c_str(), "rb")) {
        uint8_t buf[4096];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) bytes.insert(bytes.end(), buf, buf + n);
        std::fclose(f);
    }
    return bytes;
}

static uint8_t *ToGm(const std::vector<uint8_t> &bytes) {
    auto *p = static_cast<uint8_t *>(AscendC::GmAlloc(bytes.size()));
    std::memcpy(p, bytes.data(), bytes.size());
    return p;
}

/* A case: its inputs, its outputs' sizes (<case>.outsizes.bin: uint64 each), its tiling, the block
 * dim (<case>.blockdim.bin: uint32), a workspace of 16 MiB. */
struct Case {
    std::vector<uint8_t *> in, out;
    std::vector<uint64_t> outBytes;
    uint8_t *tiling = nullptr, *workspace = nullptr;
    uint32_t blockDim = 0;
    std::string name;

    Case(const std::string &n, int inputs) : name(n) {
        for (int k = 0; k < inputs; ++k) {
            std::vector<uint8_t> b = ReadBin(n + ".in" + std::to_string(k) + ".bin");
            EXPECT_FALSE(b.empty()) << n << ".in" << k << ".bin: test_reduce_cpp.py writes it";
            in.push_back(ToGm(b));
        }
        std::vector<uint8_t> sizes = ReadBin(n + ".outsizes.bin");
        outBytes.resize(sizes.size() / 8);
        std::memcpy(outBytes.data(), sizes.data(), sizes.size());
        for (uint64_t size : outBytes) out.push_back(static_cast<uint8_t *>(AscendC::GmAlloc(size)));
        tiling = ToGm(ReadBin(n + ".tiling.bin"));
        workspace = static_cast<uint8_t *>(AscendC::GmAlloc(16 * 1024 * 1024));
        std::vector<uint8_t> dim = ReadBin(n + ".blockdim.bin");
        if (dim.size() == 4) std::memcpy(&blockDim, dim.data(), 4);
    }
    ~Case() {
        for (size_t k = 0; k < out.size(); ++k) {
            if (FILE *f = std::fopen((name + ".out" + std::to_string(k) + ".bin").c_str(), "wb")) {
                std::fwrite(out[k], 1, outBytes[k], f);
                std::fclose(f);
            }
            AscendC::GmFree(out[k]);
        }
        for (uint8_t *p : in) AscendC::GmFree(p);
        AscendC::GmFree(tiling);
        AscendC::GmFree(workspace);
    }
};

TEST(reduce, micro) {
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    Case c("micro", 2);
    ICPU_RUN_KF(micro_reduce, 1, c.in[0], c.in[1], c.out[0], c.tiling);
}

TEST(reduce, micro_rows) {
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    Case c("micro_rows", 1);
    ICPU_RUN_KF(micro_rows, 1, c.in[0], c.out[0], c.out[1], c.out[2], c.out[3], c.out[4], c.out[5], c.out[6],
                c.out[7]);
}

TEST(reduce, pattern) {
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    for (const char *name : {"pattern_a", "pattern_b", "pattern_c"}) {
        Case c(name, 2);
        ICPU_RUN_KF(pattern_reduce, 1, c.in[0], c.in[1], c.out[0], c.out[1], c.out[2], c.tiling);
    }
}

TEST(reduce, l2) {
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    {
        Case c("l2_ar", 1);  // AR, inner R axis split: several R tiles an A step, two cores
        ICPU_RUN_KF((l2<true, false, 11, 10, 1>), c.blockDim, c.in[0], c.out[0], c.out[1], c.workspace, c.tiling);
    }
    {
        Case c("l2_ar_long", 1);  // AR, rows over 32 registers
        ICPU_RUN_KF((l2<true, false, 11, 10, 1>), c.blockDim, c.in[0], c.out[0], c.out[1], c.workspace, c.tiling);
    }
    {
        Case c("l2_ara", 1);  // ARA: A0 split over cores, R in tiles
        ICPU_RUN_KF((l2<true, false, 20, 10, 1>), c.blockDim, c.in[0], c.out[0], c.out[1], c.workspace, c.tiling);
    }
    {
        Case c("l2_ara_bi", 1);  // the same, batch-invariant
        ICPU_RUN_KF((l2<true, true, 20, 10, 1>), c.blockDim, c.in[0], c.out[0], c.out[1], c.workspace, c.tiling);
    }
    {
        Case c("l2_group", 1);  // AR group: R over groupR cores, the partials through workspace
        ICPU_RUN_KF((l2<true, false, 11, 12, 0>), c.blockDim, c.in[0], c.out[0], c.out[1], c.workspace, c.tiling);
    }
}

TEST(reduce, absmax) {
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    Case c("absmax", 1);
    ICPU_RUN_KF((absmax<true, false, 20, 10, 1>), c.blockDim, c.in[0], c.out[0], c.workspace, c.tiling);
}

TEST(reduce, empty) {
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    Case c("empty", 1);
    ICPU_RUN_KF(empty_fill, c.blockDim, c.in[0], c.out[0], c.workspace, c.tiling);
}

TEST(reduce_bad, too_big_a_tile) {
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    Case c("too_big", 1);
    ICPU_RUN_KF((l2<true, false, 11, 10, 1>), c.blockDim, c.in[0], c.out[0], c.out[1], c.workspace, c.tiling);
}
