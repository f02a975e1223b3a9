/* opsnn CPU-debug runtime: the ccec builtins that make a predicate from a count, which upstream's
 * arch35 softmax / group_norm kernels call directly -- plt_b8 / plt_b16 / plt_b32(count, POST_UPDATE):
 * the first min(count, lanes) lanes of 8/16/32-bit elements, and count less those lanes
 * (POST_UPDATE), i.e. MicroAPI::UpdateMask<T>(count) -- in the global namespace, as the compiler
 * declares them. Other ccec vector builtins are not declared (they fail to compile by name).
 * Included by opsnn_kt/micro_api.h. */
#ifndef OPSNN_KT_CCE_PREDICATES_H_
#define OPSNN_KT_CCE_PREDICATES_H_

#include <cstdint>

/* a builtin's post mode: POST_UPDATE moves the count (or address) on */
enum Post : int32_t { POST_UPDATE = 1 };

namespace opsnn_kt {
template <typename T>
inline AscendC::MicroAPI::MaskReg CountPredicate(uint32_t &count, Post mode, const char *file, int line) {
    uint32_t n = count;
    AscendC::MicroAPI::MaskReg m = AscendC::MicroAPI::UpdateMask<T>(n, file, line);
    if (mode == POST_UPDATE) count = n;
    return m;
}
}  // namespace opsnn_kt

__aicore__ inline AscendC::MicroAPI::MaskReg plt_b8(uint32_t &count, Post mode, OPSNN_KT_WHERE) {
    return opsnn_kt::CountPredicate<uint8_t>(count, mode, OPSNN_KT_AT);
}
__aicore__ inline AscendC::MicroAPI::MaskReg plt_b16(uint32_t &count, Post mode, OPSNN_KT_WHERE) {
    return opsnn_kt::CountPredicate<uint16_t>(count, mode, OPSNN_KT_AT);
}
__aicore__ inline AscendC::MicroAPI::MaskReg plt_b32(uint32_t &count, Post mode, OPSNN_KT_WHERE) {
    return opsnn_kt::CountPredicate<uint32_t>(count, mode, OPSNN_KT_AT);
}

#endif  // OPSNN_KT_CCE_PREDICATES_H_
