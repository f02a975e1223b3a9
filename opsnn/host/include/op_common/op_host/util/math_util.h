/* opsnn host twin: opbase's host arithmetic helpers (Ops::Base::CeilDiv, FloorAlign, ...).
 * A zero divisor or alignment returns what opbase's do: FloorDiv x, CeilDiv x, the aligns 0. */
#ifndef OPSNN_HOST_OP_COMMON_OP_HOST_UTIL_MATH_UTIL_H_
#define OPSNN_HOST_OP_COMMON_OP_HOST_UTIL_MATH_UTIL_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "op_common/op_host/util/opbase_export.h"

namespace Ops {
namespace Base {
template <typename T>
auto FloorDiv(T x, T y) -> typename std::enable_if<std::is_integral<T>::value, T>::type {
    return y == 0 ? x : x / y;
}

template <typename T>
auto FloorAlign(T x, T align) -> typename std::enable_if<std::is_integral<T>::value, T>::type {
    return align == 0 ? 0 : x / align * align;
}

/* Rounds the quotient away from zero when the operands share a sign (toward zero otherwise). */
template <typename T>
auto CeilDiv(T x, T y) -> typename std::enable_if<std::is_signed<T>::value, T>::type {
    if (x == 0 || y == 0) {
        return x;
    }
    const T q = x / y;
    const bool same_sign = (x < 0) == (y < 0);
    return (x % y != 0 && same_sign) ? q + 1 : q;
}
template <typename T>
auto CeilDiv(T x, T y) -> typename std::enable_if<std::is_unsigned<T>::value, T>::type {
    if (x == 0 || y == 0) {
        return x;
    }
    return x / y + (x % y != 0 ? 1 : 0);
}

/* The type's maximum where the aligned value would overflow. */
template <typename T>
auto CeilAlign(T x, T align) -> typename std::enable_if<std::is_integral<T>::value, T>::type {
    if (align == 0) {
        return 0;
    }
    const T blocks = CeilDiv(x, align);
    if (blocks > std::numeric_limits<T>::max() / align) {
        return std::numeric_limits<T>::max();
    }
    return blocks * align;
}

/* Within one epsilon; infinities equal when their signs are; NaN equals nothing. */
template <typename T>
auto IsFloatEqual(T a, T b) -> typename std::enable_if<std::is_floating_point<T>::value, bool>::type {
    if (std::isnan(a) || std::isnan(b)) {
        return false;
    }
    if (std::isinf(a) || std::isinf(b)) {
        return std::signbit(a) == std::signbit(b);
    }
    return std::fabs(a - b) <= std::numeric_limits<T>::epsilon();
}

/* The largest power of two not above n (1 for 0). */
OPBASE_API uint64_t LastPow2(uint64_t n);
/* MurmurHash3 (x86, 32-bit) of srcLen bytes. */
OPBASE_API uint32_t MurmurHash(const void *src, uint32_t srcLen, uint32_t seed = 271828);

struct OPBASE_API SplitResult {
    int32_t splitCount = 0;
    int64_t splitFactor = 0;
    int64_t splitTailFactor = 0;
};
/* splitLen into at most `parts` near-equal blocks; false for a non-positive argument. */
OPBASE_API bool SplitIntoEqualByParts(int64_t splitLen, int32_t parts, SplitResult &splitResult);
/* splitLen into blocks of `factor` (splitFactor 0 when one block holds all); false likewise. */
OPBASE_API bool SplitIntoEqualByFactor(int64_t splitLen, int32_t factor, SplitResult &splitResult);
}  // namespace Base
}  // namespace Ops

#endif  // OPSNN_HOST_OP_COMMON_OP_HOST_UTIL_MATH_UTIL_H_
