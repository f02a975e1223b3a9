/* opsnn CPU-debug runtime: the scalar unit's bit counting, with AscendC's names -- GetBitCount /
 * ScalarGetCountOfValue<v> (how many bits of a uint64_t are v), CountLeadingZero /
 * ScalarCountLeadingZero (zeros above the highest 1; 64 for 0), GetSFFValue / ScalarGetSFFValue<v>
 * (the index of the lowest bit that is v, -1 if none) -- and CCE's sbitset0 / sbitset1 (a copy
 * with one bit cleared / set). Plain host C++: the scalar unit's results are the host's (the
 * reduce kernels' binary-cache index, CacheID = GetBitCount<1>(i ^ (i + 1)) - 1, is one use).
 * opsnn/ascendc/scalar_bits.py is the same for Python kernels. Included by kernel_operator.h. */
#ifndef OPSNN_KT_SCALAR_BITS_H_
#define OPSNN_KT_SCALAR_BITS_H_

#include <cstdint>
#include <type_traits>

namespace AscendC {

template <int countValue>
__aicore__ inline int64_t GetBitCount(uint64_t valueIn) {
    static_assert(countValue == 0 || countValue == 1, "GetBitCount<countValue>: countValue is 0 or 1");
    const int64_t ones = __builtin_popcountll(valueIn);
    return countValue == 1 ? ones : 64 - ones;
}
template <int countValue>
__aicore__ inline int64_t ScalarGetCountOfValue(uint64_t valueIn) {
    return GetBitCount<countValue>(valueIn);
}

__aicore__ inline int64_t CountLeadingZero(uint64_t valueIn) {
    return valueIn == 0 ? 64 : __builtin_clzll(valueIn);
}
__aicore__ inline int64_t ScalarCountLeadingZero(uint64_t valueIn) { return CountLeadingZero(valueIn); }

template <int countValue>
__aicore__ inline int64_t GetSFFValue(uint64_t valueIn) {
    static_assert(countValue == 0 || countValue == 1, "GetSFFValue<countValue>: countValue is 0 or 1");
    const uint64_t bits = countValue == 1 ? valueIn : ~valueIn;
    return bits == 0 ? -1 : __builtin_ctzll(bits);
}
template <int countValue>
__aicore__ inline int64_t ScalarGetSFFValue(uint64_t valueIn) {
    return GetSFFValue<countValue>(valueIn);
}

/* The magic number and shift that turn a division by `divisor` into a multiply-high, an add and a
 * shift (Simt::UintDiv(n, magic, shift) == n / divisor): shift = ceil(log2(divisor)), magic =
 * floor(2^W * (2^shift - divisor) / divisor) + 1 for W = 32 or 64, as AscendC documents them.
 * AscendC's CPU debug asserts 0 < divisor <= INT32_MAX (INT64_MAX for uint64_t). */
template <typename T>
__aicore__ inline void GetUintDivMagicAndShift(T &magic, T &shift, T divisor, const char *file = __builtin_FILE(),
                                               int line = __builtin_LINE()) {
    static_assert(std::is_same_v<T, uint32_t> || std::is_same_v<T, uint64_t>,
                  "GetUintDivMagicAndShift: T is uint32_t or uint64_t");
    constexpr uint64_t limit = std::is_same_v<T, uint32_t> ? 0x7FFFFFFFull : 0x7FFFFFFFFFFFFFFFull;
    KtAssert(divisor > 0 && static_cast<uint64_t>(divisor) <= limit,
             "GetUintDivMagicAndShift: the divisor must be in (0, INT_MAX] of its width", file, line);
    const int64_t top = 64 - CountLeadingZero(divisor);  // the highest set bit's position, from 1
    shift = static_cast<T>(GetBitCount<1>(divisor) == 1 ? top - 1 : top);
    constexpr int width = 8 * sizeof(T);
    const unsigned __int128 over = (static_cast<unsigned __int128>(1) << shift) - divisor;  // < divisor
    magic = static_cast<T>((over << width) / divisor + 1);
}

}  // namespace AscendC

/* CCE's scalar intrinsics: valueIn with bit `index` (0..63) cleared / set */
__aicore__ inline uint64_t sbitset0(uint64_t valueIn, int64_t index) { return valueIn & ~(uint64_t{1} << (index & 63)); }
__aicore__ inline uint64_t sbitset1(uint64_t valueIn, int64_t index) { return valueIn | (uint64_t{1} << (index & 63)); }

#endif  // OPSNN_KT_SCALAR_BITS_H_
