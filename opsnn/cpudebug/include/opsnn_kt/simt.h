/* opsnn CPU-debug runtime: SIMT on Ascend950 -- a vector function run by many threads
 * (asc_vf_call<F>(dim3 threads, args...) from an AscendC kernel), with simt_api's names.
 *
 * Model: one asc_vf_call runs F once per thread of `threads`, one thread after another (x
 * fastest, then y, then z), on the calling core; threadIdx / blockDim / blockIdx / gridDim are
 * this core's (blockIdx.x = GetBlockIdx(), gridDim.x = GetBlockNum(), as the mixed-programming
 * guide defines them). Threads that never wait for each other -- every grid-stride loop -- give
 * exactly the device's results this way; a thread that waits for the others (asc_syncthreads,
 * the warp functions) cannot, and is refused by name.
 *
 * Memory: a SIMT thread dereferences `__gm__` and `__ubuf__` pointers itself. GM pointers are
 * host addresses already (GmAlloc's); a `__ubuf__` pointer argument (GetPhyAddr's opaque value) is
 * turned into the host address of its UB bytes for the call. These accesses are not judged by
 * the sanitizer: after the call, each UB buffer handed in counts as written from the pointer to
 * its end (so nothing the threads wrote is later flagged as unwritten; nothing they read is
 * checked). Included by simt_api/*.h. */
#ifndef OPSNN_KT_SIMT_H_
#define OPSNN_KT_SIMT_H_

#include <cmath>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"

#define __simt_vf__
#define __simt_callee__
#ifndef __launch_bounds__
#define __launch_bounds__(n)
#endif
#ifndef LAUNCH_BOUND
#define LAUNCH_BOUND(n)
#endif
#ifndef __SIMT_DEVICE_FUNCTIONS_DECL__
#define __SIMT_DEVICE_FUNCTIONS_DECL__
#endif

struct dim3 {
    uint32_t x, y, z;
    constexpr dim3(uint32_t vx = 1, uint32_t vy = 1, uint32_t vz = 1) : x(vx), y(vy), z(vz) {}
};

/* the built-in variables, this host thread's (each emulated core runs on its own host thread) */
inline thread_local dim3 threadIdx{0, 0, 0};
inline thread_local dim3 blockDim{1, 1, 1};
inline thread_local dim3 blockIdx{0, 0, 0};
inline thread_local dim3 gridDim{1, 1, 1};
constexpr int32_t warpSize = 32;

namespace opsnn_kt {

constexpr uint64_t kUbPointerTag = 0x5;  // bits 63-60 of a GetPhyAddr value (cpudebug/bridge.py)

template <typename A> inline A SimtArgument(A value, std::vector<uint64_t> &ub) {
    if constexpr (std::is_pointer_v<A>) {
        const uint64_t bits = reinterpret_cast<uint64_t>(value);
        if (bits >> 60 == kUbPointerTag) {
            ub.push_back(bits);
            const auto host = static_cast<uint64_t>(Call("Simt.UbHost", __FILE__, __LINE__, bits));
            return reinterpret_cast<A>(static_cast<uintptr_t>(host));
        }
    }
    return value;
}

}  // namespace opsnn_kt

/* asc_vf_call<F>(dim3 threads, args...): F on every thread of `threads` (the module's doc) */
template <auto funcPtr, typename... Args>
__aicore__ inline void asc_vf_call(dim3 threads, Args &&...args) {
    opsnn_kt::Call("Simt.Launch", __FILE__, __LINE__, threads.x, threads.y, threads.z);
    std::vector<uint64_t> ub;
    auto bound = std::make_tuple(opsnn_kt::SimtArgument<std::decay_t<Args>>(args, ub)...);
    const dim3 savedThread = threadIdx, savedDim = blockDim, savedBlock = blockIdx, savedGrid = gridDim;
    blockDim = threads;
    blockIdx = dim3(static_cast<uint32_t>(AscendC::GetBlockIdx()), 0, 0);
    gridDim = dim3(static_cast<uint32_t>(AscendC::GetBlockNum()), 1, 1);
    for (uint32_t z = 0; z < threads.z; ++z)
        for (uint32_t y = 0; y < threads.y; ++y)
            for (uint32_t x = 0; x < threads.x; ++x) {
                threadIdx = dim3(x, y, z);
                std::apply([](auto &...a) { funcPtr(a...); }, bound);
            }
    threadIdx = savedThread, blockDim = savedDim, blockIdx = savedBlock, gridDim = savedGrid;
    for (uint64_t pointer : ub) opsnn_kt::Call("Simt.UbWritten", __FILE__, __LINE__, pointer);
}

/* A thread that waits for the others: not possible when threads run one after another. */
inline void asc_syncthreads(const char *file = __builtin_FILE(), int line = __builtin_LINE()) {
    opsnn_kt::Call("Simt.Unmodelled", file, line, 0);
}

/* ---- fp16 / bf16 conversions (asc_fp16.h, asc_bf16.h): round to nearest even ---------------- */
__aicore__ inline float __half2float(half h) { return static_cast<float>(h); }
__aicore__ inline half __float2half(float f) { return half(f); }
__aicore__ inline half __float2half_rn(float f) { return half(f); }
__aicore__ inline float __bfloat162float(bfloat16_t h) { return static_cast<float>(h); }
__aicore__ inline bfloat16_t __float2bfloat16(float f) { return bfloat16_t(f); }
__aicore__ inline bfloat16_t __float2bfloat16_rn(float f) { return bfloat16_t(f); }

/* ---- atomics (device_atomic_functions.h): the old value; threads run one at a time, so a plain
 * read-modify-write is atomic here ---------------------------------------------------------- */
namespace opsnn_kt {
template <typename T, typename F> inline T AtomicUpdate(T *address, F update) {
    const T old = *address;
    *address = update(old);
    return old;
}
}  // namespace opsnn_kt
template <typename T> __aicore__ inline T asc_atomic_add(T *address, T value) {
    return opsnn_kt::AtomicUpdate(address, [=](T old) { return static_cast<T>(old + value); });
}
template <typename T> __aicore__ inline T asc_atomic_sub(T *address, T value) {
    return opsnn_kt::AtomicUpdate(address, [=](T old) { return static_cast<T>(old - value); });
}
template <typename T> __aicore__ inline T asc_atomic_max(T *address, T value) {
    return opsnn_kt::AtomicUpdate(address, [=](T old) { return value > old ? value : old; });
}
template <typename T> __aicore__ inline T asc_atomic_min(T *address, T value) {
    return opsnn_kt::AtomicUpdate(address, [=](T old) { return value < old ? value : old; });
}
template <typename T> __aicore__ inline T asc_atomic_cas(T *address, T compare, T value) {
    const T old = *address;
    if (old == compare) *address = value;
    return old;
}

/* ---- math (math_functions.h) ------------------------------------------------------------ */
/* erfinv(x) as AscendC's SIMT library computes it: with w = -log2(1 - x*x) (an fma), a degree-9
 * polynomial in w times x for w <= 8.2, else a degree-5 polynomial in 1/sqrt(w) times sqrt(w)
 * carrying x's sign; the coefficients are the library's, evaluated by fma in the same order. */
__aicore__ inline float erfinvf(float x) {
    const float w = -log2f(fmaf(x, -x, 1.0f));
    if (w > 8.2f) {
        static constexpr float tail[] = {-0.5899144f, -0.6630042f, 1.5970111f, -0.67521554f, -0.09522479f,
                                         0.83535343f};
        const float r = 1.0f / sqrtf(w);
        float p = tail[0];
        for (int i = 1; i < 6; ++i) p = fmaf(p, r, tail[i]);
        return copysignf((1.0f / r) * p, x);
    }
    static constexpr float centre[] = {-2.5172708e-10f, 9.427429e-9f, -1.2054752e-7f, 2.1697005e-7f,
                                       8.0621484e-6f, -3.1675492e-5f, -7.743631e-4f, 5.546588e-3f,
                                       0.16082023f, 0.8862269f};
    float p = centre[0];
    for (int i = 1; i < 10; ++i) p = fmaf(p, w, centre[i]);
    return p * x;
}

namespace AscendC {
namespace Simt {

__aicore__ inline int32_t GetWarpSize() { return warpSize; }
template <int32_t dim = 0> __aicore__ inline uint32_t GetThreadNum() {
    static_assert(dim >= 0 && dim <= 2, "GetThreadNum<dim>: dim is 0, 1 or 2");
    return dim == 0 ? blockDim.x : dim == 1 ? blockDim.y : blockDim.z;
}
template <int32_t dim = 0> __aicore__ inline uint32_t GetThreadIdx() {
    static_assert(dim >= 0 && dim <= 2, "GetThreadIdx<dim>: dim is 0, 1 or 2");
    return dim == 0 ? threadIdx.x : dim == 1 ? threadIdx.y : threadIdx.z;
}
__aicore__ inline uint32_t GetBlockIdx() { return blockIdx.x; }
__aicore__ inline uint32_t GetBlockNum() { return gridDim.x; }

/* dividend / divisor through GetUintDivMagicAndShift's magic and shift: the high half of
 * dividend * magic, plus dividend, shifted right (the sum wraps in T, as AscendC computes it). */
template <typename T> __aicore__ inline T UintDiv(T dividend, T magic, T shift) {
    static_assert(std::is_same_v<T, uint32_t> || std::is_same_v<T, uint64_t>, "UintDiv: T is uint32_t or uint64_t");
    constexpr int width = 8 * sizeof(T);
    const T high = static_cast<T>((static_cast<unsigned __int128>(dividend) * magic) >> width);
    return static_cast<T>(static_cast<T>(dividend + high) >> shift);
}

template <typename T> __aicore__ inline bool IsNan(T x) { return std::isnan(static_cast<float>(x)); }
template <typename T> __aicore__ inline T Max(T x, T y) { return y > x ? y : x; }
template <typename T> __aicore__ inline T Min(T x, T y) { return y < x ? y : x; }
template <typename T> __aicore__ inline T AtomicAdd(T *address, T value) { return asc_atomic_add(address, value); }
template <typename T> __aicore__ inline T AtomicMax(T *address, T value) { return asc_atomic_max(address, value); }
template <typename T> __aicore__ inline T AtomicMin(T *address, T value) { return asc_atomic_min(address, value); }

}  // namespace Simt
}  // namespace AscendC

#endif  // OPSNN_KT_SIMT_H_
