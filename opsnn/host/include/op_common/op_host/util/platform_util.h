/* opsnn host twin: opbase's platform helpers for tiling and tiling-parse contexts (core counts
 * and UB size through PlatformAscendC; 0 with an error logged where the context or its platform
 * info is missing) and the fixed hardware constants opbase returns. */
#ifndef OPSNN_HOST_OP_COMMON_OP_HOST_UTIL_PLATFORM_UTIL_H_
#define OPSNN_HOST_OP_COMMON_OP_HOST_UTIL_PLATFORM_UTIL_H_

#include <cstdint>
#include <type_traits>

#include "exe_graph/runtime/tiling_context.h"
#include "exe_graph/runtime/tiling_parse_context.h"
#include "op_common/log/log.h"
#include "tiling/platform/platform_ascendc.h"

namespace Ops {
namespace Base {
namespace detail {
template <typename T>
constexpr bool IsTilingKindContext() {
    using U = typename std::remove_const<T>::type;
    return std::is_same<U, gert::TilingParseContext>::value || std::is_same<U, gert::TilingContext>::value;
}
/* The context's platform, or nullptr (logged as `who`). */
template <typename T>
fe::PlatFormInfos *PlatformOf(const T *context, const char *who) {
    static_assert(IsTilingKindContext<T>(), "context should be gert::TilingParseContext or gert::TilingContext");
    if (context == nullptr) {
        OP_LOGE(who, "context is nullptr");
        return nullptr;
    }
    fe::PlatFormInfos *infos = context->GetPlatformInfo();
    if (infos == nullptr) {
        OP_LOGE(who, "platformInfoPtr is nullptr");
    }
    return infos;
}
}  // namespace detail

template <typename T>
uint32_t GetAivCoreNum(const T *context) {
    fe::PlatFormInfos *infos = detail::PlatformOf(context, "GetAivCoreNum");
    return infos == nullptr ? 0U : platform_ascendc::PlatformAscendC(infos).GetCoreNumAiv();
}
template <typename T>
uint32_t GetAicCoreNum(const T *context) {
    fe::PlatFormInfos *infos = detail::PlatformOf(context, "GetAicCoreNum");
    return infos == nullptr ? 0U : platform_ascendc::PlatformAscendC(infos).GetCoreNumAic();
}
template <typename T>
uint32_t GetUbSize(const T *context) {
    fe::PlatFormInfos *infos = detail::PlatformOf(context, "GetUbSize");
    if (infos == nullptr) {
        return 0U;
    }
    uint64_t ub = 0;
    platform_ascendc::PlatformAscendC(infos).GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    return static_cast<uint32_t>(ub);
}
template <typename T>
uint32_t GetUbBlockSize([[maybe_unused]] const T *context) {
    return 32U;
}
template <typename T>
uint32_t GetVRegSize([[maybe_unused]] const T *context) {
    return 256U;
}
template <typename T>
uint32_t GetSimtMaxThreadNum([[maybe_unused]] const T *context) {
    return 2048U;
}
template <typename T>
uint32_t GetSimtMaxDCacheSize([[maybe_unused]] const T *context) {
    return 131072U;
}
template <typename T>
uint32_t GetCacheLineSize([[maybe_unused]] const T *context) {
    return 256U;
}
template <typename T>
uint32_t GetSectorCacheLineSize(const T *context) {
    return GetCacheLineSize(context) / 2U;
}
}  // namespace Base
}  // namespace Ops

#endif  // OPSNN_HOST_OP_COMMON_OP_HOST_UTIL_PLATFORM_UTIL_H_
