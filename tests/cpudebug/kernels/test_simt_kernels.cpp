// SIMT from C++ (test_simt.py): asc_vf_call<F>(dim3, ...) running F on every thread, the built-in
// variables, a __ubuf__ argument read and written by the threads, then copied out (clean: what
// the threads wrote counts as written), LocalMemAllocator's placement, Simt::UintDiv against
// integer division, erfinvf against erf, asc_atomic_add/max. -DOPSNN_SIMT_MISUSE=1: asc_syncthreads, =2: 4096 threads.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "gtest/gtest.h"
#include "kernel_operator.h"
#include "simt_api/asc_simt.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t X = 8, Y = 4, THREADS = X * Y;  // per core

// out[core * 32 + t] = table[t] * 10 + gridDim.x, and the UB table's entry t doubled in place
__simt_vf__ __aicore__ LAUNCH_BOUND(THREADS) inline void Fill(__gm__ float *out, __ubuf__ float *table) {
    const uint32_t t = threadIdx.y * blockDim.x + threadIdx.x;
    if (t != Simt::GetThreadIdx<1>() * Simt::GetThreadNum<0>() + Simt::GetThreadIdx<0>()) return;
    out[blockIdx.x * THREADS + t] = table[t] * 10.0f + static_cast<float>(gridDim.x);
    table[t] = table[t] * 2.0f;
    asc_atomic_add(out + 4 * THREADS + blockIdx.x, 1.0f);  // this core's slot: counts its threads
    asc_atomic_max(out + 4 * THREADS + 2 + blockIdx.x, static_cast<float>(t));
#if OPSNN_SIMT_MISUSE == 1
    asc_syncthreads();
#endif
}

extern "C" __global__ __aicore__ void simt_fill(GM_ADDR y) {
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> table = ub.Alloc<float, THREADS>();
    LocalTensor<float> spare = ub.Alloc<TPosition::VECCALC, float>(8);
    KtAssert(ub.GetCurAddr() == (THREADS + 8) * sizeof(float), "GetCurAddr", __FILE__, __LINE__);
    for (uint32_t i = 0; i < THREADS; ++i) table.SetValue(i, static_cast<float>(i + GetBlockIdx()));
    Duplicate(spare, 0.0f, 8);
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), 4 * THREADS);
    DataSyncBarrier<MemDsbT::UB>();
#if OPSNN_SIMT_MISUSE == 2
    asc_vf_call<Fill>(dim3(4096), reinterpret_cast<__gm__ float *>(y), (__ubuf__ float *)table.GetPhyAddr());
#else
    asc_vf_call<Fill>(dim3(X, Y), reinterpret_cast<__gm__ float *>(y), (__ubuf__ float *)table.GetPhyAddr());
#endif
    DataCopy(yg[2 * THREADS + GetBlockIdx() * THREADS], table, THREADS);  // the doubled table
}

TEST(simt, threads_builtins_and_ub) {
    auto *y = static_cast<float *>(GmAlloc((4 * THREADS + 4) * sizeof(float)));
    std::memset(y, 0, (4 * THREADS + 4) * sizeof(float));
    ICPU_RUN_KF(simt_fill, 2, (uint8_t *)y);
    for (uint32_t core = 0; core < 2; ++core)
        for (uint32_t t = 0; t < THREADS; ++t) {
            EXPECT_EQ(y[core * THREADS + t], static_cast<float>(t + core) * 10.0f + 2.0f) << core << "," << t;
            EXPECT_EQ(y[(2 + core) * THREADS + t], static_cast<float>(t + core) * 2.0f) << core << "," << t;
        }
    EXPECT_EQ(y[4 * THREADS], static_cast<float>(THREADS));  // asc_atomic_add: every thread once
    EXPECT_EQ(y[4 * THREADS + 1], static_cast<float>(THREADS));
    EXPECT_EQ(y[4 * THREADS + 3], static_cast<float>(THREADS - 1));  // asc_atomic_max
    GmFree(y);
}

TEST(simt, uint_div_is_integer_division) {
    const uint32_t divisors32[] = {1, 2, 3, 5, 7, 10, 64, 100, 641, 1000003, 0x7FFFFFFFu};
    const uint32_t dividends32[] = {0, 1, 2, 9, 99, 12345, 65535, 1u << 20, 0x7FFFFFFFu};
    for (uint32_t d : divisors32) {
        uint32_t magic = 0, shift = 0;
        GetUintDivMagicAndShift<uint32_t>(magic, shift, d);
        for (uint32_t n : dividends32) EXPECT_EQ(Simt::UintDiv<uint32_t>(n, magic, shift), n / d) << n << "/" << d;
    }
    const uint64_t divisors64[] = {1, 3, 10, 1ull << 33, 12345678901ull, 0x7FFFFFFFFFFFFFFFull};
    const uint64_t dividends64[] = {0, 7, 1ull << 40, 98765432109876ull, 0x7FFFFFFFFFFFFFFFull};
    for (uint64_t d : divisors64) {
        uint64_t magic = 0, shift = 0;
        GetUintDivMagicAndShift<uint64_t>(magic, shift, d);
        for (uint64_t n : dividends64) EXPECT_EQ(Simt::UintDiv<uint64_t>(n, magic, shift), n / d) << n << "/" << d;
    }
}

TEST(simt, erfinvf_inverts_erf) {
    EXPECT_EQ(erfinvf(0.0f), 0.0f);
    EXPECT_NEAR(erfinvf(0.5f), 0.4769362762f, 2e-7f);
    for (float x = -0.999f; x < 1.0f; x += 0.0137f) EXPECT_NEAR(std::erf(erfinvf(x)), x, 3e-6f) << x;
    for (float x : {0.99999f, -0.99999f, 0.9999999f}) {  // the tail polynomial (w > 8.2)
        const double y = erfinvf(x);
        EXPECT_NEAR(std::erf(y), static_cast<double>(x), 1e-7) << x;
        EXPECT_GT(std::fabs(y), 3.0);
    }
    EXPECT_TRUE(std::isinf(erfinvf(1.0f)) && erfinvf(1.0f) > 0);
}
