/* opsnn CPU-debug runtime: AscendC's high-level math APIs, built here from the emulator's
 * instructions (each step one emulated instruction, checked by the sanitizer like any other).
 * The algorithm of each is said with it; it is opsnn's model of the documented math, not CANN's
 * implementation, so the last bit can differ from a device where CANN computes otherwise. */
#ifndef OPSNN_KT_HIGH_LEVEL_H_
#define OPSNN_KT_HIGH_LEVEL_H_

#include <cstdint>

#include "opsnn_kt/instructions.h"

namespace AscendC {

/* Sigmoid(x) = 1 / (1 + exp(-x)), as four instructions in place on dst, each rounded to T:
 * Muls(-1), Exp, Adds(1), Reciprocal. No scratch is needed, so the sharedTmpBuffer of the
 * overload that takes one is left untouched. */
template <typename T, bool isReuseSource = false>
__aicore__ inline void Sigmoid(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t calCount,
                               OPSNN_KT_WHERE) {
    opsnn_kt::Call("Muls", OPSNN_KT_AT, dst, src, static_cast<T>(-1.0f), static_cast<int32_t>(calCount));
    opsnn_kt::Call("Exp", OPSNN_KT_AT, dst, dst, static_cast<int32_t>(calCount));
    opsnn_kt::Call("Adds", OPSNN_KT_AT, dst, dst, static_cast<T>(1.0f), static_cast<int32_t>(calCount));
    opsnn_kt::Call("Reciprocal", OPSNN_KT_AT, dst, dst, static_cast<int32_t>(calCount));
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Sigmoid(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                               const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount,
                               OPSNN_KT_WHERE) {
    (void)sharedTmpBuffer;
    Sigmoid<T, isReuseSource>(dst, src, calCount, OPSNN_KT_AT);
}
#if !defined(__clang__)
/* AscendC's exact type, for a kernel that takes Sigmoid's address (math_api.h says why) */
template <typename T, bool isReuseSource = false, typename... None, typename = std::enable_if_t<sizeof...(None) == 0>>
__aicore__ inline void Sigmoid(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t calCount,
                               None...) {
    Sigmoid<T, isReuseSource>(dst, src, calCount, "(a call through a pointer to AscendC::Sigmoid)", 0);
}
#endif

}  // namespace AscendC

#endif  // OPSNN_KT_HIGH_LEVEL_H_
