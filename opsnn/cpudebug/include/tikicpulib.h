/* opsnn's tikicpulib.h: CANN's CPU-debug entry points (GmAlloc, ICPU_RUN_KF, ...) for kernels and
 * their unit tests built for the host; each launch runs on opsnn's emulator and sanitizer
 * (docs/cpp-kernels.md). */
#ifndef OPSNN_TIKICPULIB_H_
#define OPSNN_TIKICPULIB_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernel_operator.h"
#include "graph/types.h"
#include "securec.h"  // UT programs call memset_s / memcpy_s with only this header and data_utils.h  // ge::DataType, which UTs name dtypes by

#include <ios>
// CANN's CPU-debug headers leave std::dec global: a UT writes `::dec` after including only this
// header (experimental lp_loss).
using std::dec;

enum class KernelMode : int32_t { MIX_MODE = 0, AIC_MODE, AIV_MODE, MIX_AIC_1_1, MIX_AIC_1_2 };

namespace AscendC {
using ::KernelMode;

/* Device memory every core of a launch shares; the host reads and writes it through the pointer. */
inline void *GmAlloc(size_t size, OPSNN_KT_WHERE) { return opsnn_kt_gm_alloc(size, OPSNN_KT_AT); }
inline void GmFree(void *ptr, OPSNN_KT_WHERE) { opsnn_kt_gm_free(ptr, OPSNN_KT_AT); }
inline void SetKernelMode(KernelMode mode) { opsnn_kt_set_kernel_mode(static_cast<int>(mode)); }
}  // namespace AscendC

namespace opsnn_kt {
template <typename A> inline void *AsGmAddr(const A &a) {
    if constexpr (std::is_pointer_v<A>) return const_cast<void *>(reinterpret_cast<const volatile void *>(a));
    else return nullptr;
}

template <typename F, typename... A>
inline void RunKf(const char *name, const char *arg_names, const char *file, int line, F &&kernel, uint32_t block_dim,
                  A... args) {
    void *ptrs[sizeof...(A) + 1] = {AsGmAddr(args)...};
    auto body = [&]() {
        ResetCoreState();
        kernel(args...);
    };
    opsnn_kt_run(name, block_dim, [](void *closure) { (*static_cast<decltype(body) *>(closure))(); }, &body,
                 arg_names, ptrs, static_cast<int>(sizeof...(A)), file, line);
}
}  // namespace opsnn_kt

#define ICPU_SET_TILING_KEY(key) opsnn_kt_set_tiling_key(static_cast<uint64_t>(key))
#define ICPU_RUN_KF(func, blockdim, ...) \
    ::opsnn_kt::RunKf(#func, #__VA_ARGS__, __FILE__, __LINE__, func, blockdim, __VA_ARGS__)

/* A failed launch (sanitizer errors, a fault) fails the gtest case that ran it. */
#if defined(GOOGLETEST_INCLUDE_GTEST_GTEST_H_) || defined(GTEST_INCLUDE_GTEST_GTEST_H_)
namespace opsnn_kt {
inline void GtestFailure(const char *text, const char *file, int line) { ADD_FAILURE_AT(file, line) << text; }
inline const bool kGtestHookSet = (opsnn_kt_set_failure_hook(&GtestFailure), true);
}  // namespace opsnn_kt
#endif

#endif  // OPSNN_TIKICPULIB_H_
