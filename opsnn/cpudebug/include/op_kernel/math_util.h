/* opsnn CPU-debug runtime: opbase's kernel-side integer helpers (Ops::Base), as arch35 kernels
 * include them ("op_kernel/math_util.h"). 8- and 16-bit operands compute in 32 bits, wider ones in
 * 64, so a + b - 1 does not wrap. */
#ifndef OPSNN_OP_KERNEL_MATH_UTIL_H_
#define OPSNN_OP_KERNEL_MATH_UTIL_H_

#include <cstdint>
#include <type_traits>

#ifndef __aicore__
#define __aicore__
#endif

namespace Ops {
namespace Base {
namespace math_detail {
template <typename T>
using Wide = std::conditional_t<(sizeof(T) <= 2), uint32_t, uint64_t>;
}  // namespace math_detail

/* ceil(a / b) */
template <typename T>
__aicore__ inline T CeilDiv(T a, T b) {
    using W = math_detail::Wide<T>;
    return static_cast<T>((static_cast<W>(a) + static_cast<W>(b) - 1) / static_cast<W>(b));
}

template <typename T>
__aicore__ inline T FloorDiv(T a, T b) {
    return a / b;
}

/* a rounded up to a multiple of b */
template <typename T>
__aicore__ inline T CeilAlign(T a, T b) {
    using W = math_detail::Wide<T>;
    return static_cast<T>((static_cast<W>(a) + static_cast<W>(b) - 1) / static_cast<W>(b) * static_cast<W>(b));
}

/* a rounded down to a multiple of b */
template <typename T>
__aicore__ inline T FloorAlign(T a, T b) {
    return a / b * b;
}
}  // namespace Base
}  // namespace Ops

#endif  // OPSNN_OP_KERNEL_MATH_UTIL_H_
