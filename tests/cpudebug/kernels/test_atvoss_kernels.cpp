// Ascend950 (arch35) kernels of opsnn's own, written on the atvoss C++ framework (DAGs of Vec ops
// run by its schedules), for test_atvoss.py. Each kernel's inputs come from <case>.in<k>.bin and
// its tiling from <case>.tiling.bin in the folder the test runs in; its outputs go to
// <case>.out<k>.bin. test_atvoss.py writes the one and checks the other bit for bit.
//
// scaled_diff<T>  ElementwiseSch:            y = T((float(a) - float(b)) * alpha), alpha a Var the
//                                            kernel sets from its tiling (SetVar)
// cast_two        ElementwiseSch16B:         h = half(x) (RINT), i = int32(x) (ROUND): two outputs
// gated_scale     ElementwiseSchWithScalar:  y = half(float(x) > float(s) ? float(x) * v : 1.5),
//                                            s element 0 of an input, v a Var from scalarData
// tgv2d<T>        BroadcastSch<201>:         ThresholdGradV2D's arch35 DAG, an input of one
//                                            element broadcast (scalarFlag); and on the
//                                            multi-dimension schedules 1, 102, 103
// micro_mix       ElementwiseSch:            an op of the DAG's own written in MicroAPI registers
// power_erf       ElementwiseSch:            p = x ** v (Var), e = erf(x): high-level math as DAG ops
// brc_utils       broadcast_utils.h:         a broadcast block by block with the axes helpers
// overrun         ElementwiseSch, an op of the DAG's own that writes past its tile
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "atvoss/broadcast/broadcast_sch.h"
#include "atvoss/elewise/elewise_sch.h"
#include "atvoss/elewise/elewise_sch_16b.h"
#include "atvoss/elewise/elewise_sch_with_scalar.h"
#include "atvoss/util/broadcast_utils.h"
#include "atvoss/util/dag.h"
#include "atvoss/util/placeholder.h"
#include "atvoss/util/vec.h"
#include "gtest/gtest.h"
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace Ops::Base;

constexpr int CAST_NONE = 0, CAST_RINT = 1, CAST_ROUND = 4;
constexpr int CMP_GT = 1, CMP_LE = 3;
constexpr int SEL_TENSORS = 2;

// ---- the DAGs ----
template <class T>
struct ScaledDiffDag {
    using A = Bind<Vec::CopyIn<T>, Placeholder::In0<T>>;
    using B = Bind<Vec::CopyIn<T>, Placeholder::In1<T>>;
    using Diff = Bind<Vec::Sub<float>, Bind<Vec::Cast<float, T, CAST_NONE>, A>, Bind<Vec::Cast<float, T, CAST_NONE>, B>>;
    using Scaled = Bind<Vec::Muls<float>, Diff, Placeholder::Var<float, 0>>;
    using Out = Bind<Vec::CopyOut<T>, Placeholder::Out0<T>, Bind<Vec::Cast<T, float, CAST_RINT>, Scaled>>;
    using OpDag = DAGSch<Elems<Out>, void, MemOptCfg<MemLevel::LEVEL_2>>;
};

struct CastTwoDag {
    using X = Bind<Vec::CopyIn<float>, Placeholder::In0<float>>;
    using H = Bind<Vec::CopyOut<half>, Placeholder::Out0<half>, Bind<Vec::Cast<half, float, CAST_RINT>, X>>;
    using I = Bind<Vec::CopyOut<int32_t>, Placeholder::Out1<int32_t>, Bind<Vec::Cast<int32_t, float, CAST_ROUND>, X>>;
    using OpDag = DAGSch<Elems<H, I>>;
};

struct GatedScaleDag {
    using One = MAKE_CONST(float, 1.5);
    using X = Bind<Vec::Cast<float, half, CAST_NONE>, Bind<Vec::CopyIn<half>, Placeholder::In0<half>>>;
    using S = Bind<Vec::Cast<float, half, CAST_NONE>, Placeholder::In1<half, Placeholder::ScalarAttr<1>>>;  // a scalar op
    using Gate = Bind<Vec::Compare<uint8_t, float, CMP_GT>, X, S>;
    using Scaled = Bind<Vec::Muls<float>, X, Placeholder::Var<float, 0>>;
    using Y = Bind<Vec::Select<uint8_t, float, SEL_TENSORS>, Gate, Scaled, One>;
    using Out = Bind<Vec::CopyOut<half>, Placeholder::Out0<half>, Bind<Vec::Cast<half, float, CAST_RINT>, Y>>;
    using OpDag = DAGSch<Elems<Out>, void, MemOptCfg<MemLevel::LEVEL_2>>;
};

// out = (float(self) <= threshold) ? 0 : float(grad), back to T; int8 through half
template <class T>
struct TgDag {
    template <class N>
    using Widen = std::conditional_t<std::is_same_v<T, int8_t>,
                                     Bind<Vec::Cast<float, half, CAST_NONE>, Bind<Vec::Cast<half, T, CAST_NONE>, N>>,
                                     Bind<Vec::Cast<float, T, CAST_NONE>, N>>;
    using Grad = Widen<Bind<Vec::CopyInBrc<T>, Placeholder::In0<T>>>;
    using Self = Widen<Bind<Vec::CopyInBrc<T>, Placeholder::In1<T>>>;
    using Mask = Bind<Vec::Compare<uint8_t, float, CMP_LE>, Self, Bind<Vec::Duplicate<float>, Placeholder::Var<float, 0>>>;
    using ZeroValue = MAKE_CONST(float, 0.0);
    using Zero = Bind<Vec::Duplicate<float>, ZeroValue>;
    using Result = Bind<Vec::Select<uint8_t, float, SEL_TENSORS>, Mask, Zero, Grad>;
    using Narrow = std::conditional_t<std::is_same_v<T, int8_t>,
                                      Bind<Vec::Cast<T, half, CAST_RINT>, Bind<Vec::Cast<half, float, CAST_RINT>, Result>>,
                                      Bind<Vec::Cast<T, float, CAST_RINT>, Result>>;
    using Out = Bind<Vec::CopyOut<T>, Placeholder::Out0<T>, Narrow>;
    using OpDag = DAGSch<Elems<Out>, void, MemOptCfg<MemLevel::LEVEL_2>>;
};

// an op of the DAG's own that fills 64 elements more than its tile holds
template <class T>
struct Overrun : Vec::ElemwiseUnaryOP<T, T> {
    __aicore__ inline Overrun(LocalTensor<T> &dst, LocalTensor<T> &src, int count) {
        (void)src;
        AscendC::Duplicate(dst, static_cast<T>(0), count + 64);  // OVERRUN_LINE
    }
};
struct OverrunDag {
    using X = Bind<Vec::CopyIn<float>, Placeholder::In0<float>>;
    using Out = Bind<Vec::CopyOut<float>, Placeholder::Out0<float>, Bind<Overrun<float>, X>>;
    using OpDag = DAGSch<Elems<Out>, void, MemOptCfg<MemLevel::LEVEL_2>>;
};

// An op of the DAG's own in MicroAPI registers, as upstream's arch35 DAGs write theirs (float):
//   r = b * 0.3 + ((-a) * a + b)          Neg, MulDstAdd (fused), Axpy
//   q = r / (1 + |a|) + log(|a|)          Abs, Adds, Div<&DivSpecificMode>, Log, Add
//   y = a > 0 ? q : r;  y = b != b ? 0 : y   Compares GT / NE (NE is true for NaN), Select
// its loads and stores post-update their addresses (PostLiteral::POST_MODE_UPDATE)
struct MicroMix : Vec::ElemwiseBinaryOP<float, float, float> {
    __aicore__ inline MicroMix(LocalTensor<float> &dst, LocalTensor<float> &srcA, LocalTensor<float> &srcB,
                               uint32_t count) {
        constexpr uint32_t lanes = VECTOR_REG_WIDTH / sizeof(float);
        static constexpr MicroAPI::DivSpecificMode DIV_MODE = {MicroAPI::MaskMergeMode::ZEROING, false};
        __ubuf__ float *a = (__ubuf__ float *)srcA.GetPhyAddr();
        __ubuf__ float *b = (__ubuf__ float *)srcB.GetPhyAddr();
        __ubuf__ float *y = (__ubuf__ float *)dst.GetPhyAddr();
        MicroAPI::RegTensor<float> va, vb, r, absA, d, l, q, zero, out;
        MicroAPI::MaskReg mask, positive, nan;
        uint32_t rest = count;
        __VEC_SCOPE__ {
            MicroAPI::Duplicate(zero, 0.0f);
            for (uint32_t i = 0; i < (count + lanes - 1) / lanes; ++i) {
                mask = MicroAPI::UpdateMask<float>(rest);
                MicroAPI::DataCopy<float, MicroAPI::PostLiteral::POST_MODE_UPDATE>(va, a, lanes);
                MicroAPI::LoadAlign<float, MicroAPI::PostLiteral::POST_MODE_UPDATE>(vb, b, lanes);  // the newer name
                MicroAPI::Neg(r, va, mask);
                MicroAPI::MulDstAdd(r, va, vb, mask);
                MicroAPI::Axpy(r, vb, 0.3f, mask);
                MicroAPI::Abs(absA, va, mask);
                MicroAPI::Adds(d, absA, 1.0f, mask);
                MicroAPI::Div<float, &DIV_MODE>(q, r, d, mask);
                MicroAPI::Log(l, absA, mask);
                MicroAPI::Add(q, q, l, mask);
                MicroAPI::Compares<float, CMPMODE::GT>(positive, va, 0.0f, mask);
                MicroAPI::Select(out, q, r, positive);
                MicroAPI::Compare<float, CMPMODE::NE>(nan, vb, vb, mask);  // a NaN b: true
                MicroAPI::Select(out, zero, out, nan);
                MicroAPI::LocalMemBar<MicroAPI::MemType::VEC_STORE, MicroAPI::MemType::VEC_LOAD>();
                MicroAPI::StoreAlign<float, MicroAPI::PostLiteral::POST_MODE_UPDATE>(y, out, lanes, mask);
            }
        }
    }
};
struct MicroMixDag {
    using A = Bind<Vec::CopyIn<float>, Placeholder::In0<float>>;
    using B = Bind<Vec::CopyIn<float>, Placeholder::In1<float>>;
    using Out = Bind<Vec::CopyOut<float>, Placeholder::Out0<float>, Bind<MicroMix, A, B>>;
    using OpDag = DAGSch<Elems<Out>, void, MemOptCfg<MemLevel::LEVEL_2>>;
};

// AscendC's high-level math as DAG ops: p = x ** v (v a Var), e = erf(x), two outputs
struct PowerErfDag {
    using X = Bind<Vec::CopyIn<float>, Placeholder::In0<float>>;
    using P = Bind<Vec::CopyOut<float>, Placeholder::Out0<float>, Bind<Vec::Power<float>, X, Placeholder::Var<float, 0>>>;
    using E = Bind<Vec::CopyOut<float>, Placeholder::Out1<float>, Bind<Vec::Erf<float>, X>>;
    using OpDag = DAGSch<Elems<P, E>, void, MemOptCfg<MemLevel::LEVEL_2>>;
};

// ---- the kernels ----
struct ScaledDiffTiling {
    EleBaseTilingData base;
    float alpha;
};

template <class T>
__aicore__ inline void ScaledDiff(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(ScaledDiffTiling, td, tiling);
    TPipe pipe;
    ElementwiseSch<1, typename ScaledDiffDag<T>::OpDag> sch(&td.base, &pipe);
    sch.template SetVar<float, 0>(td.alpha);
    sch.Init(a, b, y);
    sch.Process();
}
extern "C" __global__ __aicore__ void scaled_diff_f32(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR t) {
    ScaledDiff<float>(a, b, y, t);
}
extern "C" __global__ __aicore__ void scaled_diff_f16(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR t) {
    ScaledDiff<half>(a, b, y, t);
}
extern "C" __global__ __aicore__ void scaled_diff_bf16(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR t) {
    ScaledDiff<bfloat16_t>(a, b, y, t);
}

extern "C" __global__ __aicore__ void cast_two(GM_ADDR x, GM_ADDR h, GM_ADDR i, GM_ADDR tiling) {
    GET_TILING_DATA_PTR_WITH_STRUCT(EleBaseTilingData16B, td, tiling);
    ElementwiseSch16B<0, CastTwoDag::OpDag> sch(td);
    sch.Init(x, h, i);
    sch.Process();
}

extern "C" __global__ __aicore__ void gated_scale(GM_ADDR x, GM_ADDR s, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_PTR_WITH_STRUCT(EleBaseTilingData32B, td, tiling);
    ElementwiseSchWithScalar<EleBaseTilingData32B, 0, GatedScaleDag::OpDag> sch(td);
    sch.Init(x, s, y);
    sch.Process();
}

template <class T>
__aicore__ inline void Tgv2d(GM_ADDR grad, GM_ADDR self, GM_ADDR out, GM_ADDR tiling) {
    BroadcastSch<201, typename TgDag<T>::OpDag> sch(tiling);
    sch.Process(grad, self, out);
}
extern "C" __global__ __aicore__ void tgv2d_f32(GM_ADDR g, GM_ADDR s, GM_ADDR o, GM_ADDR w, GM_ADDR t) {
    Tgv2d<float>(g, s, o, t);
}
extern "C" __global__ __aicore__ void tgv2d_f16(GM_ADDR g, GM_ADDR s, GM_ADDR o, GM_ADDR w, GM_ADDR t) {
    Tgv2d<half>(g, s, o, t);
}
extern "C" __global__ __aicore__ void tgv2d_i8(GM_ADDR g, GM_ADDR s, GM_ADDR o, GM_ADDR w, GM_ADDR t) {
    Tgv2d<int8_t>(g, s, o, t);
}

extern "C" __global__ __aicore__ void micro_mix(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(EleBaseTilingData, td, tiling);
    TPipe pipe;
    ElementwiseSch<1, MicroMixDag::OpDag> sch(&td, &pipe);
    sch.Init(a, b, y);
    sch.Process();
}

extern "C" __global__ __aicore__ void power_erf(GM_ADDR x, GM_ADDR p, GM_ADDR e, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(ScaledDiffTiling, td, tiling);  // the base struct and one float
    TPipe pipe;
    ElementwiseSch<1, PowerErfDag::OpDag> sch(&td.base, &pipe);
    sch.template SetVar<float, 0>(td.alpha);
    sch.Init(x, p, e);
    sch.Process();
}

// the multi-dimension broadcast schedules: an NDDMA gather (1), UB broadcasts (102, 103)
template <uint64_t mode, class T>
__aicore__ inline void Tgv2dMulti(GM_ADDR g, GM_ADDR s, GM_ADDR o, GM_ADDR t) {
    BroadcastSch<mode, typename TgDag<T>::OpDag> sch(t);
    sch.Process(g, s, o);
}
extern "C" __global__ __aicore__ void tgv2d_nd_f32(GM_ADDR g, GM_ADDR s, GM_ADDR o, GM_ADDR w, GM_ADDR t) {
    Tgv2dMulti<1, float>(g, s, o, t);
}
extern "C" __global__ __aicore__ void tgv2d_ub102_f16(GM_ADDR g, GM_ADDR s, GM_ADDR o, GM_ADDR w, GM_ADDR t) {
    Tgv2dMulti<102, half>(g, s, o, t);
}
extern "C" __global__ __aicore__ void tgv2d_ub103_f16(GM_ADDR g, GM_ADDR s, GM_ADDR o, GM_ADDR w, GM_ADDR t) {
    Tgv2dMulti<103, half>(g, s, o, t);
}

// a broadcast schedule opsnn does not model (301: non-contiguous inputs)
extern "C" __global__ __aicore__ void tgv2d_nddma(GM_ADDR g, GM_ADDR s, GM_ADDR o, GM_ADDR w, GM_ADDR t) {
    BroadcastSch<301, TgDag<float>::OpDag> sch(t);
    sch.Process(g, s, o);
}

// broadcast_utils.h as hand-written arch35 broadcast kernels use it: y (4, 6, 8) = x (4, 1, 8)
// broadcast, tiles of 4 rows of axis 1 (the last 2), walked with the axes-index helpers
extern "C" __global__ __aicore__ void brc_utils(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4 * 8 * sizeof(float));
    LocalTensor<float> tile = buf.Get<float>();
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), 32);
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), 192);
    const int64_t outDims[3] = {4, 6, 8}, outStrides[3] = {48, 8, 1}, inStrides[3] = {8, 0, 1};
    const int64_t tileDims[3] = {4, 2, 8};  // axis 1 counted in tiles of 4 rows
    const int64_t ubFormer = 4, split = 1;
    int64_t axes[3] = {};
    Ops::Base::BroadcastGetAxesIndices(axes, 0, tileDims, split, 4 * 2);
    for (int t = 0; t < 8; ++t) {
        const int64_t rows = axes[split] == 1 ? 2 : ubFormer;
        if (t % 2 == 0) {
            Ops::Base::BroadcastNddmaWithoutLoop(xg, tile, outDims, outStrides, inStrides, axes, split, 3, rows, ubFormer);
        } else {
            Ops::Base::BroadcastNddmaWithLoop(xg, tile, outDims, outStrides, inStrides, axes, split, 3, rows, ubFormer);
        }
        const int64_t at = Ops::Base::BroadcastGetGmOffset(axes, outStrides, split, ubFormer);
        DataCopyPad(yg[at], tile, DataCopyExtParams(1, static_cast<uint32_t>(rows * 8 * sizeof(float)), 0, 0, 0));
        Ops::Base::BroadcastUpdateAxesIndices(axes, tileDims, split, 2);
    }
}

extern "C" __global__ __aicore__ void overrun(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(EleBaseTilingData, td, tiling);
    TPipe pipe;
    ElementwiseSch<1, OverrunDag::OpDag> sch(&td, &pipe);
    sch.Init(x, y);
    sch.Process();
}

// ---- the host side: <case>.in<k>.bin / .tiling.bin in, <case>.out<k>.bin out ----
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

/* A case: its inputs, its outputs' sizes (<case>.outsizes.bin: uint64 each), its tiling, and the
 * block dim (<case>.blockdim.bin: uint32). */
struct Case {
    std::vector<uint8_t *> in, out;
    std::vector<uint64_t> outBytes;
    uint8_t *tiling = nullptr;
    uint32_t blockDim = 0;
    std::string name;

    explicit Case(const std::string &n, int inputs) : name(n) {
        for (int k = 0; k < inputs; ++k) {
            std::vector<uint8_t> b = ReadBin(n + ".in" + std::to_string(k) + ".bin");
            EXPECT_FALSE(b.empty()) << n << ".in" << k << ".bin: test_atvoss.py writes it";
            in.push_back(ToGm(b));
        }
        std::vector<uint8_t> sizes = ReadBin(n + ".outsizes.bin");
        outBytes.resize(sizes.size() / 8);
        std::memcpy(outBytes.data(), sizes.data(), sizes.size());
        for (uint64_t size : outBytes) out.push_back(static_cast<uint8_t *>(AscendC::GmAlloc(size)));
        tiling = ToGm(ReadBin(n + ".tiling.bin"));
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
    }
};

TEST(atvoss, scaled_diff) {
    for (const char *dt : {"f32", "f16", "bf16"}) {
        Case c(std::string("scaled_diff_") + dt, 2);
        AscendC::SetKernelMode(KernelMode::AIV_MODE);
        if (std::string(dt) == "f32") ICPU_RUN_KF(scaled_diff_f32, c.blockDim, c.in[0], c.in[1], c.out[0], c.tiling);
        if (std::string(dt) == "f16") ICPU_RUN_KF(scaled_diff_f16, c.blockDim, c.in[0], c.in[1], c.out[0], c.tiling);
        if (std::string(dt) == "bf16") ICPU_RUN_KF(scaled_diff_bf16, c.blockDim, c.in[0], c.in[1], c.out[0], c.tiling);
    }
}

TEST(atvoss, cast_two) {
    Case c("cast_two", 1);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(cast_two, c.blockDim, c.in[0], c.out[0], c.out[1], c.tiling);
}

TEST(atvoss, gated_scale) {
    Case c("gated_scale", 2);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(gated_scale, c.blockDim, c.in[0], c.in[1], c.out[0], c.tiling);
}

TEST(atvoss, tgv2d) {
    for (const char *dt : {"f32", "f16", "i8"}) {
        for (const char *shape : {"same", "brc"}) {
            Case c(std::string("tgv2d_") + dt + "_" + shape, 2);
            uint8_t *workspace = static_cast<uint8_t *>(AscendC::GmAlloc(32));
            AscendC::SetKernelMode(KernelMode::AIV_MODE);
            if (std::string(dt) == "f32") ICPU_RUN_KF(tgv2d_f32, c.blockDim, c.in[0], c.in[1], c.out[0], workspace, c.tiling);
            if (std::string(dt) == "f16") ICPU_RUN_KF(tgv2d_f16, c.blockDim, c.in[0], c.in[1], c.out[0], workspace, c.tiling);
            if (std::string(dt) == "i8") ICPU_RUN_KF(tgv2d_i8, c.blockDim, c.in[0], c.in[1], c.out[0], workspace, c.tiling);
            AscendC::GmFree(workspace);
        }
    }
}

TEST(atvoss, micro_mix) {
    for (const char *name : {"micro_mix", "micro_mix_odd_tile"}) {
        Case c(name, 2);
        AscendC::SetKernelMode(KernelMode::AIV_MODE);
        ICPU_RUN_KF(micro_mix, c.blockDim, c.in[0], c.in[1], c.out[0], c.tiling);
    }
}

TEST(atvoss, power_erf) {
    Case c("power_erf", 1);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(power_erf, c.blockDim, c.in[0], c.out[0], c.out[1], c.tiling);
}

TEST(atvoss, tgv2d_multi_dim) {
    for (const char *name : {"tgv2d_nd_f32", "tgv2d_nd_f32_split", "tgv2d_ub102_f16", "tgv2d_ub102_f16_grad",
                             "tgv2d_ub103_f16"}) {
        Case c(name, 2);
        uint8_t *workspace = static_cast<uint8_t *>(AscendC::GmAlloc(32));
        AscendC::SetKernelMode(KernelMode::AIV_MODE);
        const std::string n(name);
        if (n.rfind("tgv2d_nd_f32", 0) == 0) {
            ICPU_RUN_KF(tgv2d_nd_f32, c.blockDim, c.in[0], c.in[1], c.out[0], workspace, c.tiling);
        } else if (n.rfind("tgv2d_ub102", 0) == 0) {
            ICPU_RUN_KF(tgv2d_ub102_f16, c.blockDim, c.in[0], c.in[1], c.out[0], workspace, c.tiling);
        } else {
            ICPU_RUN_KF(tgv2d_ub103_f16, c.blockDim, c.in[0], c.in[1], c.out[0], workspace, c.tiling);
        }
        AscendC::GmFree(workspace);
    }
}

TEST(atvoss, brc_utils) {
    Case c("brc_utils", 1);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(brc_utils, 1, c.in[0], c.out[0], c.tiling);
}

TEST(atvoss, tgv2d_tiles) {
    Case c("tgv2d_f16_tiles", 2);
    uint8_t *workspace = static_cast<uint8_t *>(AscendC::GmAlloc(32));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(tgv2d_f16, c.blockDim, c.in[0], c.in[1], c.out[0], workspace, c.tiling);
    AscendC::GmFree(workspace);
}

TEST(atvoss_bad, nddma_mode) {
    Case c("tgv2d_nddma", 2);
    uint8_t *workspace = static_cast<uint8_t *>(AscendC::GmAlloc(32));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(tgv2d_nddma, 1, c.in[0], c.in[1], c.out[0], workspace, c.tiling);
    AscendC::GmFree(workspace);
}

TEST(atvoss_bad, overrun) {
    Case c("overrun", 1);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(overrun, c.blockDim, c.in[0], c.out[0], c.tiling);
}
