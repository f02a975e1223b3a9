// Legal multi-core kernels, written for opsnn's tests: each launch must run clean and its values
// must be right. The broken twins are in test_multicore_bad.cpp.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "gtest/gtest.h"
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr int32_t CORES = 4;
constexpr int32_t SLOT = 8;  // floats a core's partial takes (one 32-byte block)

// Phase 0: core i writes SLOT floats of value i + 1 to its slot of the workspace. SyncAll. Phase 1:
// core 0 reads every slot and writes their sum to y. Right only if core 0 waits for every core.
extern "C" __global__ __aicore__ void partial_sums(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, acc;
    pipe.InitBuffer(buf, CORES * SLOT * sizeof(float));
    pipe.InitBuffer(acc, SLOT * sizeof(float));
    GlobalTensor<float> ws, yg;
    ws.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(GetUserWorkspace(workspace)), CORES * SLOT);
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), SLOT);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, static_cast<float>(GetBlockIdx() + 1), SLOT);
    DataCopy(ws[GetBlockIdx() * SLOT], t, SLOT);
    SyncAll();
    if (GetBlockIdx() != 0) return;
    DataCopy(t, ws, CORES * SLOT);
    LocalTensor<float> a = acc.Get<float>();
    Duplicate(a, 0.0f, SLOT);
    for (int32_t c = 0; c < CORES; ++c) Add(a, a, t[c * SLOT], SLOT);
    DataCopy(yg, a, SLOT);
}

// Each core zeroes its quarter of y, SyncAll, then every core adds (core + 1) into all of y.
extern "C" __global__ __aicore__ void atomic_sum(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, CORES * SLOT * sizeof(float));
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), CORES * SLOT);
    GlobalTensor<float> mine = yg[GetBlockIdx() * SLOT];
    InitGlobalMemory(mine, SLOT, 0.0f);
    SyncAll();
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, static_cast<float>(GetBlockIdx() + 1), CORES * SLOT);
    SetAtomicAdd<float>();
    DataCopy(yg, t, CORES * SLOT);
    SetAtomicNone();
    pipe_barrier(PIPE_ALL);
    DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(yg);
}

// What a mixed launch tells its vector cores, and the workspace calls; written to y by each core.
extern "C" __global__ __aicore__ void who_am_i(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
    if ASCEND_IS_AIC {
        return;
    }
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr || GetUserWorkspace(workspace) != workspace) return;
    GlobalTensor<int32_t> yg;
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(y) + GetBlockIdx() * SLOT, SLOT);
    yg.SetValue(0, static_cast<int32_t>(GetBlockIdx()));
    yg.SetValue(1, static_cast<int32_t>(GetBlockNum()));
    yg.SetValue(2, static_cast<int32_t>(GetTaskRation()));
    yg.SetValue(3, static_cast<int32_t>(GetSubBlockIdx()));
    yg.SetValue(4, static_cast<int32_t>(block_idx));  // CANN CPU debug's globals: the block
    yg.SetValue(5, static_cast<int32_t>(block_num));
}

// The type and utility surface, evaluated on one core and written to y.
extern "C" __global__ __aicore__ void type_surface(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), 16);
    int32_t i = 0;
    yg.SetValue(i++, IsSameType<float, float>::value ? 1.0f : 0.0f);
    yg.SetValue(i++, IsSameType<half, bfloat16_t>::value ? 1.0f : 0.0f);
    yg.SetValue(i++, IsSameType<int4b_t, AscendC::int4b_t>::value ? 1.0f : 0.0f);
    yg.SetValue(i++, ToFloat(ToBfloat16(1.00390625f)));  // 1 + 2^-8: a tie, to even (1.0)
    // float -> half rounding to odd: 1 + 2^-11 is between two halves, the odd one is 1 + 2^-10
    yg.SetValue(i++, static_cast<float>(ScalarCast<float, half, RoundMode::CAST_ODD>(1.00048828125f)));
    yg.SetValue(i++, static_cast<float>(ScalarCast<float, int32_t, RoundMode::CAST_ROUND>(-2.5f)));  // away: -3
    yg.SetValue(i++, static_cast<float>(AscendCUtils::GetC0Count(sizeof(half))));
    yg.SetValue(i++, static_cast<float>(GetDataBlockSizeInBytes()));
    yg.SetValue(i++, likely(GetBlockNum() == 1) ? 1.0f : 0.0f);
    yg.SetValue(i++, unlikely(GetBlockNum() != 1) ? 1.0f : 0.0f);
}

// The two patterns the sanitizer once flagged though they are legal: a dequeued tensor enqueued
// again (computed on in place, then handed to the copy out: CANN's TQueBind::EnQue takes it), and
// each core's slice of GM starting where the split puts it, off 32-byte alignment (GM has no rule).
constexpr int32_t PER_CORE = 24;  // 96 bytes: slices start at bytes 0, 96, 192, 288 (+4 for x)
extern "C" __global__ __aicore__ void requeue_odd_slices(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 32 * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(workspace) + 1 + GetBlockIdx() * PER_CORE, PER_CORE);
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y) + 1 + GetBlockIdx() * PER_CORE, PER_CORE);
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, xg, 16);  // 64 bytes from a GM address 4 bytes off alignment
    q.EnQue(t);
    t = q.DeQue<float>();
    Adds(t, t, 1.0f, 16);
    q.EnQue(t);  // the second hop: legal
    t = q.DeQue<float>();
    DataCopy(yg, t, 16);
    q.FreeTensor(t);
}

// Select's mask/repeat forms through the bridge's Select entry (it also judges the tensor-scalar
// scratch): isSetMask=false reads the mask SetVectorMask set (the low 32 elements here).
extern "C" __global__ __aicore__ void select_forms(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, m;
    pipe.InitBuffer(a, 256);
    pipe.InitBuffer(m, 256);
    LocalTensor<float> x = a.Get<float>();
    LocalTensor<uint8_t> mk = m.Get<uint8_t>();
    Duplicate(x, 1.0f, 64);
    Duplicate(mk.ReinterpretCast<uint16_t>(), static_cast<uint16_t>(0x5555), 128);  // odd elements clear
    BinaryRepeatParams p;
    SetVectorMask<float>(0, 0xFFFFFFFFull);
    Select<float, uint8_t, float, false>(x, mk, x, 2.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, MASK_PLACEHOLDER, 1, p);
    ResetMask();
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), 64);
    DataCopy(yg, x, 64);
}

// partial_sums with cross-core flags: each core sets flag 3 as soon as its slot is written (the
// pattern upstream's norm kernels use: set in Init, wait in a later phase), then does other work,
// and core 0 reads every slot only after its CrossCoreWaitFlag.
extern "C" __global__ __aicore__ void flag_sums(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, acc;
    pipe.InitBuffer(buf, CORES * SLOT * sizeof(float));
    pipe.InitBuffer(acc, SLOT * sizeof(float));
    GlobalTensor<float> ws, yg;
    ws.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(GetUserWorkspace(workspace)), CORES * SLOT);
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), SLOT);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, static_cast<float>(GetBlockIdx() + 1), SLOT);
    DataCopy(ws[GetBlockIdx() * SLOT], t, SLOT);
    CrossCoreSetFlag<0x0, PIPE_MTE3>(3);
    LocalTensor<float> a = acc.Get<float>();
    Duplicate(a, 0.0f, SLOT);
    CrossCoreWaitFlag(3);
    if (GetBlockIdx() != 0) return;
    DataCopy(t, ws, CORES * SLOT);
    for (int32_t c = 0; c < CORES; ++c) Add(a, a, t[c * SLOT], SLOT);
    DataCopy(yg, a, SLOT);
}

// UB the kernel lays out itself (LocalTensor(TPosition, addr, tileSize)), a high-level API taken by
// its address with AscendC's exact type, element arithmetic through tensor(i), GetPhyAddr(0) and
// TransDataTo5HDImpl on typed UB pointers.
template <typename T>
using UnaryOp = void(const LocalTensor<T> &, const LocalTensor<T> &, const uint32_t);
template <typename T, UnaryOp<T> *op>
__aicore__ inline void ApplyOp(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint32_t n) {
    op(dst, src, n);
}
extern "C" __global__ __aicore__ void raw_ub(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    LocalTensor<float> x(TPosition::VECCALC, 0, 64);
    LocalTensor<float> out(TPosition::VECCALC, 256, 64);
    LocalTensor<float> again(TPosition::VECCALC, 0, 64);  // the same span: the same bytes
    Duplicate(x, 0.5f, 64);
    ApplyOp<float, Asin<float, false>>(out, again, 64);
    out(1) = out(0) * 2.0f + x(0);  // asin(0.5) * 2 + 0.5
    float sum = 0.0f;
    sum += out(0);
    out(2) = sum;
    out(3) = (out(0) < x(0)) ? 1.0f : 0.0f;  // asin(0.5) > 0.5
    LocalTensor<half> h(TPosition::VECCALC, 512, 256);
    LocalTensor<half> ht(TPosition::VECCALC, 1024, 256);
    for (int32_t i = 0; i < 256; ++i) h.SetValue(i, static_cast<half>(static_cast<float>(i)));
    __ubuf__ half *src = reinterpret_cast<__ubuf__ half *>(h.GetPhyAddr(0));
    __ubuf__ half *dst = reinterpret_cast<__ubuf__ half *>(ht.GetPhyAddr(0));
    __ubuf__ half *srcList[16];
    __ubuf__ half *dstList[16];
    for (int32_t i = 0; i < 16; ++i) {
        srcList[i] = src + 16 * i;  // row i of a 16 x 16 block
        dstList[i] = dst + 16 * i;
    }
    TransDataTo5HDParams p;
    p.repeatTimes = 1;
    TransDataTo5HDImpl(dstList, srcList, p);  // the transpose: ht[r][c] = h[c][r]
    out(4) = static_cast<float>(ht.GetValue(1 * 16 + 2));  // h[2][1] = 33
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), 8);
    DataCopy(yg, out, 8);
}

struct Gm {
    uint8_t *y, *workspace, *tiling;
    explicit Gm(size_t y_bytes) {
        y = static_cast<uint8_t *>(GmAlloc(y_bytes));
        workspace = static_cast<uint8_t *>(GmAlloc(16 * 1024 * 1024));  // the system part, as upstream's UTs
        tiling = static_cast<uint8_t *>(GmAlloc(32));
        std::memset(y, 0x7f, y_bytes);
    }
    ~Gm() {
        GmFree(y);
        GmFree(workspace);
        GmFree(tiling);
    }
};

TEST(multicore, sync_all_orders_the_phases) {
    Gm gm(SLOT * sizeof(float));
    ICPU_RUN_KF(partial_sums, CORES, gm.y, gm.workspace, gm.tiling);
    for (int32_t k = 0; k < SLOT; ++k) EXPECT_EQ(reinterpret_cast<float *>(gm.y)[k], 10.0f);  // 1 + 2 + 3 + 4
}

TEST(multicore, cross_core_flags_order_the_phases) {
    Gm gm(SLOT * sizeof(float));
    ICPU_RUN_KF(flag_sums, CORES, gm.y, gm.workspace, gm.tiling);
    for (int32_t k = 0; k < SLOT; ++k) EXPECT_EQ(reinterpret_cast<float *>(gm.y)[k], 10.0f);  // 1 + 2 + 3 + 4
}

TEST(multicore, ub_laid_out_by_the_kernel) {
    Gm gm(8 * sizeof(float));
    ICPU_RUN_KF(raw_ub, 1, gm.y, gm.workspace, gm.tiling);
    const float *y = reinterpret_cast<float *>(gm.y);
    const float a = static_cast<float>(std::asin(0.5));
    EXPECT_EQ(y[0], a);
    EXPECT_EQ(y[1], a * 2.0f + 0.5f);
    EXPECT_EQ(y[2], a);
    EXPECT_EQ(y[3], 0.0f);
    EXPECT_EQ(y[4], 33.0f);
}

TEST(multicore, atomic_add_after_init_global_memory) {
    Gm gm(CORES * SLOT * sizeof(float));
    ICPU_RUN_KF(atomic_sum, CORES, gm.y, gm.workspace, gm.tiling);
    for (int32_t k = 0; k < CORES * SLOT; ++k) EXPECT_EQ(reinterpret_cast<float *>(gm.y)[k], 10.0f);
}

TEST(multicore, mix_mode_runs_two_vector_cores_per_block) {
    Gm gm(4 * SLOT * sizeof(int32_t));
    AscendC::SetKernelMode(KernelMode::MIX_MODE);
    ICPU_RUN_KF(who_am_i, 2, gm.y, gm.workspace, gm.tiling);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    const int32_t *y = reinterpret_cast<int32_t *>(gm.y);
    for (int32_t c = 0; c < 4; ++c) {
        EXPECT_EQ(y[c * SLOT + 0], c);      // GetBlockIdx: block * 2 + sub-block
        EXPECT_EQ(y[c * SLOT + 1], 2);      // GetBlockNum: the blocks
        EXPECT_EQ(y[c * SLOT + 2], 2);      // GetTaskRation
        EXPECT_EQ(y[c * SLOT + 3], c % 2);  // GetSubBlockIdx
        EXPECT_EQ(y[c * SLOT + 4], c / 2);  // block_idx
        EXPECT_EQ(y[c * SLOT + 5], 2);      // block_num
    }
}

TEST(multicore, type_surface) {
    Gm gm(16 * sizeof(float));
    ICPU_RUN_KF(type_surface, 1, gm.y, gm.workspace, gm.tiling);
    const float *y = reinterpret_cast<float *>(gm.y);
    const float want[] = {1.0f, 0.0f, 1.0f, 1.0f, 1.0009765625f, -3.0f, 16.0f, 32.0f, 1.0f, 0.0f};
    for (int32_t k = 0; k < 10; ++k) EXPECT_EQ(y[k], want[k]) << "value " << k;
}

TEST(multicore, requeue_and_unaligned_gm_are_clean) {
    Gm gm((1 + CORES * PER_CORE) * sizeof(float));
    float *x = reinterpret_cast<float *>(gm.workspace);
    for (int32_t k = 0; k < 1 + CORES * PER_CORE; ++k) x[k] = static_cast<float>(k);
    ICPU_RUN_KF(requeue_odd_slices, CORES, gm.y, gm.workspace, gm.tiling);
    const float *y = reinterpret_cast<float *>(gm.y);
    for (int32_t c = 0; c < CORES; ++c)
        for (int32_t k = 0; k < 16; ++k) EXPECT_EQ(y[1 + c * PER_CORE + k], x[1 + c * PER_CORE + k] + 1.0f);
}

TEST(multicore, select_mask_forms) {
    Gm gm(64 * sizeof(float));
    ICPU_RUN_KF(select_forms, 1, gm.y, gm.workspace, gm.tiling);
    const float *y = reinterpret_cast<float *>(gm.y);
    for (int32_t k = 0; k < 64; ++k) EXPECT_EQ(y[k], (k < 32 && k % 2 == 1) ? 2.0f : 1.0f) << k;
}
