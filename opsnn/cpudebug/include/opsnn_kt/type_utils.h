/* opsnn CPU-debug runtime: AscendC's type and utility surface -- IsSameType, the scalar
 * conversions (ToFloat, ToBfloat16, ScalarCast), AscendCUtils, the size helpers, int4b_t -- as
 * kernel code names them. Plain host C++, except ScalarCast, which converts through the
 * emulator's Cast (the same rounding modes, the same NaN and saturation rules as the vector Cast). */
#ifndef OPSNN_KT_TYPE_UTILS_H_
#define OPSNN_KT_TYPE_UTILS_H_

#include <cstdint>
#include <limits>
#include <type_traits>

#include "opsnn_kt/instructions.h"

namespace AscendC {

template <typename T, typename U> struct IsSameType { static constexpr bool value = false; };
template <typename T> struct IsSameType<T, T> { static constexpr bool value = true; };

/* A 4-bit integer (two per byte in GM and UB, the even element in the low nibble). A distinct type,
 * so IsSameType<T, int4b_t> tells it apart. The emulator runs Cast half <-> int4 and the moves on
 * it (opsnn/ascendc/int4.py); any other instruction on an int4b_t tensor that runs is refused by
 * name (the core stops, naming it). */
struct int4b_t {
    uint8_t storage;
};

/* The 8-bit float types of Ascend950 (fp8 E4M3FN and E5M2, the E8M0 power-of-two scale, HiFloat8)
 * and the two-to-a-byte fp4 pairs: one byte of storage each, distinct types for IsSameType and
 * templates. What the emulator computes on them is opsnn/ascendc/float8.py's; the scalar unit has
 * no arithmetic on them (a kernel moves, casts and reinterprets their bits). */
#define OPSNN_KT_BYTE_TYPE(name)                                              \
    struct name {                                                             \
        uint8_t storage;                                                      \
        bool operator==(const name &o) const { return storage == o.storage; } \
        bool operator!=(const name &o) const { return storage != o.storage; } \
    }
OPSNN_KT_BYTE_TYPE(fp8_e4m3fn_t);
OPSNN_KT_BYTE_TYPE(fp8_e5m2_t);
OPSNN_KT_BYTE_TYPE(fp8_e8m0_t);
OPSNN_KT_BYTE_TYPE(hifloat8_t);
OPSNN_KT_BYTE_TYPE(fp4x2_e2m1_t);
OPSNN_KT_BYTE_TYPE(fp4x2_e1m2_t);
OPSNN_KT_BYTE_TYPE(int4x2_t);  // Ascend950's pair of int4 values in a byte (an element is the pair)
#undef OPSNN_KT_BYTE_TYPE
using float8_e4m3_t = fp8_e4m3fn_t;  // the names template_argument.h's type table uses
using float8_e5m2_t = fp8_e5m2_t;
using float4_e2m1x2_t = fp4x2_e2m1_t;
using float4_e1m2x2_t = fp4x2_e1m2_t;

/* bfloat16 <-> float on the scalar unit: exact one way, round to nearest even the other */
__aicore__ inline float ToFloat(const bfloat16_t &value) { return static_cast<float>(value); }
/* the scalar Cast of a bfloat16 to float (exact), beside the vector Casts */
__aicore__ inline float Cast(const bfloat16_t &value) { return ToFloat(value); }
__aicore__ inline float ToFloat(const half &value) { return static_cast<float>(value); }
__aicore__ inline float ToFloat(const float &value) { return value; }
__aicore__ inline bfloat16_t ToBfloat16(const float &value) { return bfloat16_t(value); }

/* One scalar converted with an explicit rounding mode, as the vector Cast converts each element. */
template <typename T, typename U, RoundMode roundMode = RoundMode::CAST_RINT>
__aicore__ inline U ScalarCast(T value, OPSNN_KT_WHERE) {
    return opsnn_kt::FromBits<U>(
        opsnn_kt::Call("ScalarCast", OPSNN_KT_AT, value, roundMode, opsnn_kt::TypeTag<T>{}, opsnn_kt::TypeTag<U>{}));
}

/* Sizes of the Atlas A2 vector unit. */
__aicore__ constexpr inline uint32_t GetDataBlockSizeInBytes() { return ONE_BLK_SIZE; }
__aicore__ constexpr inline uint32_t GetVecLen() { return ONE_REPEAT_BYTE_SIZE; }

/* The helpers kernels reach through the class AscendC keeps them in. */
class AscendCUtils {
public:
    __aicore__ static constexpr inline int32_t GetBitSize(int32_t byteSize) { return byteSize * 8; }
    __aicore__ static constexpr inline int32_t GetC0Size() { return ONE_BLK_SIZE; }
    __aicore__ static constexpr inline int32_t GetC0Count(int32_t typeSize) { return ONE_BLK_SIZE / typeSize; }
    /* the vector mask for the first `len` elements of a repeat (normal mode) / a bit pattern */
    template <typename T> __aicore__ static inline void SetMask(uint64_t len, OPSNN_KT_WHERE) {
        SetVectorMask<T>(static_cast<int32_t>(len), OPSNN_KT_AT);
    }
    template <typename T>
    __aicore__ static inline void SetMask(uint64_t maskHigh, uint64_t maskLow, OPSNN_KT_WHERE) {
        SetVectorMask<T>(maskHigh, maskLow, OPSNN_KT_AT);
    }
    __aicore__ static inline void ResetMask(OPSNN_KT_WHERE) { AscendC::ResetMask(OPSNN_KT_AT); }
};

}  // namespace AscendC

/* The data type codes as C++ names, as CANN's kernel headers make them visible to kernel code
 * (`if constexpr (ORIG_DTYPE_Y == DT_INT4)` with `using namespace AscendC`): ge's codes. A UT's
 * tiling header may have made some of these names macros already (`#define DT_BF16 bfloat16_t`,
 * or kernel_type.h's codes): the enum is declared with them set aside, and they stay in force. */
#pragma push_macro("DT_FLOAT")
#undef DT_FLOAT
#pragma push_macro("DT_FLOAT16")
#undef DT_FLOAT16
#pragma push_macro("DT_INT8")
#undef DT_INT8
#pragma push_macro("DT_INT32")
#undef DT_INT32
#pragma push_macro("DT_UINT8")
#undef DT_UINT8
#pragma push_macro("DT_INT16")
#undef DT_INT16
#pragma push_macro("DT_UINT16")
#undef DT_UINT16
#pragma push_macro("DT_UINT32")
#undef DT_UINT32
#pragma push_macro("DT_INT64")
#undef DT_INT64
#pragma push_macro("DT_UINT64")
#undef DT_UINT64
#pragma push_macro("DT_DOUBLE")
#undef DT_DOUBLE
#pragma push_macro("DT_BOOL")
#undef DT_BOOL
#pragma push_macro("DT_STRING")
#undef DT_STRING
#pragma push_macro("DT_COMPLEX64")
#undef DT_COMPLEX64
#pragma push_macro("DT_COMPLEX128")
#undef DT_COMPLEX128
#pragma push_macro("DT_BF16")
#undef DT_BF16
#pragma push_macro("DT_UNDEFINED")
#undef DT_UNDEFINED
#pragma push_macro("DT_INT4")
#undef DT_INT4
#pragma push_macro("DT_HIFLOAT8")
#undef DT_HIFLOAT8
#pragma push_macro("DT_FLOAT8_E5M2")
#undef DT_FLOAT8_E5M2
#pragma push_macro("DT_FLOAT8_E4M3FN")
#undef DT_FLOAT8_E4M3FN
#pragma push_macro("DT_FLOAT8_E8M0")
#undef DT_FLOAT8_E8M0
namespace AscendC {
enum DataType : int32_t {
    DT_FLOAT = 0,
    DT_FLOAT16 = 1,
    DT_INT8 = 2,
    DT_INT32 = 3,
    DT_UINT8 = 4,
    DT_INT16 = 6,
    DT_UINT16 = 7,
    DT_UINT32 = 8,
    DT_INT64 = 9,
    DT_UINT64 = 10,
    DT_DOUBLE = 11,
    DT_BOOL = 12,
    DT_STRING = 13,
    DT_COMPLEX64 = 16,
    DT_COMPLEX128 = 17,
    DT_BF16 = 27,
    DT_UNDEFINED = 28,
    DT_INT4 = 29,
    DT_HIFLOAT8 = 34,
    DT_FLOAT8_E5M2 = 35,
    DT_FLOAT8_E4M3FN = 36,
    DT_FLOAT8_E8M0 = 37
};
}  // namespace AscendC
#pragma pop_macro("DT_FLOAT")
#pragma pop_macro("DT_FLOAT16")
#pragma pop_macro("DT_INT8")
#pragma pop_macro("DT_INT32")
#pragma pop_macro("DT_UINT8")
#pragma pop_macro("DT_INT16")
#pragma pop_macro("DT_UINT16")
#pragma pop_macro("DT_UINT32")
#pragma pop_macro("DT_INT64")
#pragma pop_macro("DT_UINT64")
#pragma pop_macro("DT_DOUBLE")
#pragma pop_macro("DT_BOOL")
#pragma pop_macro("DT_STRING")
#pragma pop_macro("DT_COMPLEX64")
#pragma pop_macro("DT_COMPLEX128")
#pragma pop_macro("DT_BF16")
#pragma pop_macro("DT_UNDEFINED")
#pragma pop_macro("DT_INT4")
#pragma pop_macro("DT_HIFLOAT8")
#pragma pop_macro("DT_FLOAT8_E5M2")
#pragma pop_macro("DT_FLOAT8_E4M3FN")
#pragma pop_macro("DT_FLOAT8_E8M0")

namespace AscendC {
/* NumericLimits<T>: the extremes and special values of T, bit for bit as AscendC gives them (Min
 * is the smallest normal for floats, as std::numeric_limits::min; the integer types' special float
 * values are 0). The tensor forms fill `count` elements of dst with the value. */
template <typename T> struct NumericLimits {
private:
    static constexpr bool kFloat = std::is_floating_point_v<T>;
    static constexpr bool kHalf = std::is_same_v<T, half>;
    static T Bits(uint16_t halfBits, uint16_t bf16Bits) {
        return opsnn_kt::FromBits<T>(kHalf ? halfBits : bf16Bits);
    }

public:
    constexpr __aicore__ static inline T Max() {
        if constexpr (kFloat || std::is_integral_v<T>) return std::numeric_limits<T>::max();
        else return Bits(0x7BFF, 0x7F7F);
    }
    constexpr __aicore__ static inline T Lowest() {
        if constexpr (kFloat || std::is_integral_v<T>) return std::numeric_limits<T>::lowest();
        else return Bits(0xFBFF, 0xFF7F);
    }
    constexpr __aicore__ static inline T Min() {
        if constexpr (kFloat || std::is_integral_v<T>) return std::numeric_limits<T>::min();
        else return Bits(0x0400, 0x0080);
    }
    constexpr __aicore__ static inline T Infinity() {
        if constexpr (kFloat) return std::numeric_limits<T>::infinity();
        else if constexpr (std::is_integral_v<T>) return T();
        else return Bits(0x7C00, 0x7F80);
    }
    constexpr __aicore__ static inline T NegativeInfinity() {
        if constexpr (kFloat) return -std::numeric_limits<T>::infinity();
        else if constexpr (std::is_integral_v<T>) return T();
        else return Bits(0xFC00, 0xFF80);
    }
    constexpr __aicore__ static inline T QuietNaN() {
        if constexpr (kFloat) return std::numeric_limits<T>::quiet_NaN();
        else if constexpr (std::is_integral_v<T>) return T();
        else return Bits(0x7E00, 0x7FC0);
    }
    constexpr __aicore__ static inline T SignalingNaN() {
        if constexpr (std::is_same_v<T, float>) return opsnn_kt::FromBits<float>(0x7FA00000);
        else if constexpr (kFloat) return std::numeric_limits<T>::signaling_NaN();
        else if constexpr (std::is_integral_v<T>) return T();
        else return Bits(0x7D00, 0x7FA0);
    }
    constexpr __aicore__ static inline T DeNormMin() {
        if constexpr (kFloat) return std::numeric_limits<T>::denorm_min();
        else if constexpr (std::is_integral_v<T>) return T();
        else return Bits(0x0001, 0x0001);
    }
#define OPSNN_KT_LIMIT_FILL(Name)                                                                                  \
    __aicore__ static inline void Name(const LocalTensor<T> &dst, uint32_t count) {                              \
        Duplicate(dst, Name(), static_cast<int32_t>(count));                                                      \
    }
    OPSNN_KT_LIMIT_FILL(Max) OPSNN_KT_LIMIT_FILL(Lowest) OPSNN_KT_LIMIT_FILL(Min) OPSNN_KT_LIMIT_FILL(Infinity)
    OPSNN_KT_LIMIT_FILL(NegativeInfinity) OPSNN_KT_LIMIT_FILL(QuietNaN) OPSNN_KT_LIMIT_FILL(SignalingNaN)
    OPSNN_KT_LIMIT_FILL(DeNormMin)
#undef OPSNN_KT_LIMIT_FILL
};
}  // namespace AscendC

/* CANN's kernel headers declare these at global scope too. */
using AscendC::int4b_t;
using AscendC::fp8_e4m3fn_t;
using AscendC::fp8_e5m2_t;
using AscendC::fp8_e8m0_t;
using AscendC::hifloat8_t;
using AscendC::fp4x2_e2m1_t;
using AscendC::fp4x2_e1m2_t;
using AscendC::int4x2_t;

namespace opsnn_kt {
template <> struct DType<AscendC::fp8_e4m3fn_t> { static constexpr const char *name = "float8_e4m3fn"; };
template <> struct DType<AscendC::fp8_e5m2_t> { static constexpr const char *name = "float8_e5m2"; };
template <> struct DType<AscendC::fp8_e8m0_t> { static constexpr const char *name = "float8_e8m0"; };
template <> struct DType<AscendC::hifloat8_t> { static constexpr const char *name = "hifloat8"; };
template <> struct DType<AscendC::fp4x2_e2m1_t> { static constexpr const char *name = "float4_e2m1x2"; };
template <> struct DType<AscendC::fp4x2_e1m2_t> { static constexpr const char *name = "float4_e1m2x2"; };
template <> struct DType<AscendC::int4x2_t> { static constexpr const char *name = "int4x2"; };
template <> struct DType<AscendC::int4b_t> { static constexpr const char *name = "int4"; };
}  // namespace opsnn_kt

#endif  // OPSNN_KT_TYPE_UTILS_H_
