/* opsnn CPU-debug runtime: operands described for the bridge, and the one call every AscendC
 * instruction makes (Call). Kernel code never uses this directly. */
#ifndef OPSNN_KT_CALL_H_
#define OPSNN_KT_CALL_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "opsnn_kt/abi.h"
#include "opsnn_kt/types.h"

/* The caller's source line, taken at the call (GCC and clang evaluate these builtins where a
 * default argument is used): every instruction takes them last, so findings name the line. */
#define OPSNN_KT_WHERE const char *kt_file_ = __builtin_FILE(), int kt_line_ = __builtin_LINE()
#define OPSNN_KT_AT kt_file_, kt_line_

namespace opsnn_kt {

template <typename T> struct DType { static constexpr const char *name = nullptr; };
#define OPSNN_KT_DTYPE(T, N) template <> struct DType<T> { static constexpr const char *name = N; }
OPSNN_KT_DTYPE(float, "float32");
OPSNN_KT_DTYPE(double, "float64");
OPSNN_KT_DTYPE(half, "float16");
OPSNN_KT_DTYPE(bfloat16_t, "bfloat16");
OPSNN_KT_DTYPE(int8_t, "int8");
OPSNN_KT_DTYPE(uint8_t, "uint8");
OPSNN_KT_DTYPE(int16_t, "int16");
OPSNN_KT_DTYPE(uint16_t, "uint16");
OPSNN_KT_DTYPE(int32_t, "int32");
OPSNN_KT_DTYPE(uint32_t, "uint32");
OPSNN_KT_DTYPE(int64_t, "int64");
OPSNN_KT_DTYPE(uint64_t, "uint64");
OPSNN_KT_DTYPE(bool, "bool");
#undef OPSNN_KT_DTYPE

template <typename T> constexpr const char *DTypeOf() {
    static_assert(DType<T>::name != nullptr, "opsnn: this element type is not modelled by the CPU-debug runtime");
    return DType<T>::name;
}

/* A struct of integer fields (repeat params, copy params): its name and its fields in order. */
struct Fields {
    const char *name;
    int n;
    int64_t v[8];
};

/* Packing one operand; `store` holds what a pointer in the operand refers to. */
struct Slot {
    OpsnnKtArg arg;
    int64_t store[8];
};

inline void Pack(Slot &s, const Fields &f) {
    for (int i = 0; i < f.n; ++i) s.store[i] = f.v[i];
    s.arg = {OPSNN_KT_INTS, nullptr, reinterpret_cast<int64_t>(s.store), f.n, f.name};
}

template <typename T>
void Pack(Slot &s, const T &value, std::enable_if_t<std::is_integral_v<T> || std::is_enum_v<T>
                                                    || std::is_floating_point_v<T>, int> = 0) {
    if constexpr (std::is_enum_v<T>) {
        s.arg = {OPSNN_KT_ENUM, nullptr, 0, 0, EnumName(value)};
    } else if constexpr (std::is_same_v<T, bool>) {
        s.arg = {OPSNN_KT_UINT, "bool", value ? 1 : 0, 0, nullptr};
    } else if constexpr (std::is_integral_v<T>) {
        s.arg = {std::is_signed_v<T> ? OPSNN_KT_INT : OPSNN_KT_UINT, DTypeOf<T>(), static_cast<int64_t>(value), 0,
                 nullptr};
    } else if constexpr (std::is_same_v<T, float>) {
        s.arg = {OPSNN_KT_FLOAT, "float32", static_cast<int64_t>(FloatBits(value)), 0, nullptr};
    } else {
        int64_t bits;
        std::memcpy(&bits, &value, 8);
        s.arg = {OPSNN_KT_FLOAT, "float64", bits, 0, nullptr};
    }
}

inline void Pack(Slot &s, const half &v) { s.arg = {OPSNN_KT_FLOAT, "float16", v.bits, 0, nullptr}; }
inline void Pack(Slot &s, const bfloat16_t &v) { s.arg = {OPSNN_KT_FLOAT, "bfloat16", v.bits, 0, nullptr}; }
inline void Pack(Slot &s, const char *name) { s.arg = {OPSNN_KT_NONE, nullptr, 0, 0, name}; }
/* an optional operand left out: None on the Python side */
struct Absent {};
inline void Pack(Slot &s, Absent) { s.arg = {OPSNN_KT_NONE, nullptr, 0, 0, "absent"}; }

/* A uint64_t mask[2] (AscendC: mask[0] the low 64 elements, mask[1] the next 64). */
struct MaskPair {
    uint64_t low, high;
};
inline void Pack(Slot &s, const MaskPair &m) {
    s.store[0] = static_cast<int64_t>(m.high);
    s.store[1] = static_cast<int64_t>(m.low);
    s.arg = {OPSNN_KT_INTS, nullptr, reinterpret_cast<int64_t>(s.store), 2, "MaskPair"};
}

/* A mask/repeat form's isSetMask template argument (false: the mask SetVectorMask set). */
struct SetMaskFlag {
    bool value;
};
inline void Pack(Slot &s, const SetMaskFlag &f) { s.arg = {OPSNN_KT_NONE, nullptr, f.value ? 1 : 0, 0, "isSetMask"}; }

struct Handle {
    int64_t value;
};
inline void Pack(Slot &s, const Handle &h) { s.arg = {OPSNN_KT_HANDLE, nullptr, h.value, 0, nullptr}; }

template <typename... A>
inline int64_t Call(const char *name, const char *file, int line, const A &...a) {
    constexpr int n = static_cast<int>(sizeof...(A));
    Slot slots[n > 0 ? n : 1];
    int i = 0;
    (Pack(slots[i++], a), ...);
    OpsnnKtArg args[n > 0 ? n : 1];
    for (int k = 0; k < n; ++k) args[k] = slots[k].arg;
    int64_t result = 0;
    opsnn_kt_call(name, args, n, file, line, &result);
    return result;
}

template <typename T> inline T FromBits(int64_t bits) {
    T value;
    std::memcpy(&value, &bits, sizeof(T));  // little-endian: the low bytes hold the value
    return value;
}

template <typename T> inline int64_t ToBits(const T &value) {
    int64_t bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    return bits;
}

}  // namespace opsnn_kt

#endif  // OPSNN_KT_CALL_H_
