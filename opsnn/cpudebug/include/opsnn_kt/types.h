/* opsnn CPU-debug runtime: the scalar types and keywords of AscendC kernel code on the host.
 *
 * half and bfloat16_t are 16-bit storage types with conversions written here (not the host's
 * _Float16, which not every compiler has): float -> 16 bits rounds to nearest-even with overflow
 * to inf, keeps a NaN's sign and top payload bits and sets its quiet bit, as numpy's float16 and
 * opsnn's emulator do. Scalar arithmetic goes through float and rounds back once. */
#ifndef OPSNN_KT_TYPES_H_
#define OPSNN_KT_TYPES_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

#define __aicore__
#define __global__
#define __gm__
#define __ubuf__
#define __inline__ inline
#ifndef __CCE_KT_TEST__
#define __CCE_KT_TEST__ 1
#endif

using GM_ADDR = uint8_t *;

namespace opsnn_kt {

inline uint32_t FloatBits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline float BitsFloat(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }

/* float32 -> IEEE binary16 bits, round to nearest-even. */
inline uint16_t FloatToHalfBits(float value) {
    uint32_t x = FloatBits(value);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t exp = (x >> 23) & 0xFFu;
    uint32_t man = x & 0x7FFFFFu;
    if (exp == 0xFFu) {
        if (man == 0) return static_cast<uint16_t>(sign | 0x7C00u);
        return static_cast<uint16_t>(sign | 0x7E00u | (man >> 13));
    }
    int32_t e = static_cast<int32_t>(exp) - 127 + 15;
    if (e >= 31) return static_cast<uint16_t>(sign | 0x7C00u);
    if (e <= 0) {
        if (e < -10) return static_cast<uint16_t>(sign);
        man |= 0x800000u;
        uint32_t shift = static_cast<uint32_t>(14 - e);
        uint32_t half = man >> shift;
        uint32_t rest = man & ((1u << shift) - 1u);
        uint32_t mid = 1u << (shift - 1u);
        if (rest > mid || (rest == mid && (half & 1u))) ++half;
        return static_cast<uint16_t>(sign | half);
    }
    uint32_t half = (static_cast<uint32_t>(e) << 10) | (man >> 13);
    uint32_t rest = man & 0x1FFFu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;  /* may carry into inf: right */
    return static_cast<uint16_t>(sign | half);
}

inline float HalfBitsToFloat(uint16_t h) {
    uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1Fu;
    uint32_t man = h & 0x3FFu;
    if (exp == 0x1Fu) return BitsFloat(sign | 0x7F800000u | (man << 13));
    if (exp == 0) {
        if (man == 0) return BitsFloat(sign);
        int e = -1;
        do { ++e; man <<= 1; } while ((man & 0x400u) == 0);
        return BitsFloat(sign | (static_cast<uint32_t>(127 - 15 - e) << 23) | ((man & 0x3FFu) << 13));
    }
    return BitsFloat(sign | ((exp + 127u - 15u) << 23) | (man << 13));
}

inline uint16_t FloatToBf16Bits(float value) {
    uint32_t x = FloatBits(value);
    if ((x & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);
    uint32_t rounding = 0x7FFFu + ((x >> 16) & 1u);
    return static_cast<uint16_t>((x + rounding) >> 16);
}

inline float Bf16BitsToFloat(uint16_t b) { return BitsFloat(static_cast<uint32_t>(b) << 16); }

/* The 16-bit float types: storage, conversions, arithmetic through float. */
template <uint16_t (*ToBits)(float), float (*FromBits)(uint16_t)>
struct Float16Storage {
    uint16_t bits;
    Float16Storage() = default;
    template <typename U, typename = std::enable_if_t<std::is_arithmetic_v<U>>>
    Float16Storage(U v) : bits(ToBits(static_cast<float>(v))) {}  // NOLINT: implicit, as AscendC's
    static Float16Storage FromRaw(uint16_t b) { Float16Storage s; s.bits = b; return s; }
    operator float() const { return FromBits(bits); }  // NOLINT
    Float16Storage &operator+=(Float16Storage o) { return *this = Float16Storage(float(*this) + float(o)); }
    Float16Storage &operator-=(Float16Storage o) { return *this = Float16Storage(float(*this) - float(o)); }
    Float16Storage &operator*=(Float16Storage o) { return *this = Float16Storage(float(*this) * float(o)); }
    Float16Storage &operator/=(Float16Storage o) { return *this = Float16Storage(float(*this) / float(o)); }
    Float16Storage operator-() const { return FromRaw(static_cast<uint16_t>(bits ^ 0x8000u)); }
};

}  // namespace opsnn_kt

using half = opsnn_kt::Float16Storage<opsnn_kt::FloatToHalfBits, opsnn_kt::HalfBitsToFloat>;
using bfloat16_t = opsnn_kt::Float16Storage<opsnn_kt::FloatToBf16Bits, opsnn_kt::Bf16BitsToFloat>;
static_assert(sizeof(half) == 2 && sizeof(bfloat16_t) == 2, "16-bit float storage");
/* the sized names newer AscendC code spells the float types with (unless a build defines them) */
#ifndef float16_t
using float16_t = half;
#endif
#ifndef float32_t
using float32_t = float;
#endif
/* __bf16: the device compiler's built-in name of bfloat16_t, which kernels compare types with
 * (upstream mish: std::is_same_v<TYPE_X, __bf16>). g++ has no such type before 13 and, from 13
 * on x86, one of its own that is not opsnn's bfloat16_t (left alone there: its libstdc++ names it). */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#define __bf16 bfloat16_t
#endif

#endif  // OPSNN_KT_TYPES_H_
