/* opsnn host twin: opdev/fp16_t.h -- op::fp16_t, a host-side IEEE half value.
 *
 * As CANN's: `val` holds the bit pattern; constructing from a uint16_t takes bits, constructing
 * from or assigning any other number converts its value (to nearest even, overflow to infinity,
 * NaN payloads by opsnn_host/float_format.h's rule); reading it as float is exact. */
#ifndef OPSNN_HOST_OPDEV_FP16_T_H_
#define OPSNN_HOST_OPDEV_FP16_T_H_

#include <cstdint>
#include <ostream>
#include <type_traits>

#include "opdev/bfloat16.h"
#include "opsnn_host/float_format.h"

namespace op {
struct fp16_t {
    uint16_t val;

    constexpr fp16_t() : val(0) {}
    constexpr fp16_t(const uint16_t &bits) : val(bits) {}  // NOLINT: the bit pattern, as CANN's
    fp16_t(const fp16_t &) = default;
    template <typename T, typename std::enable_if<std::is_arithmetic<T>::value &&
                                                      !std::is_same<T, uint16_t>::value, int>::type = 0>
    fp16_t(const T &v) : val(Convert(v)) {}  // NOLINT: implicit, as CANN's
    fp16_t(const bfloat16 &v) : val(opsnn_host::FloatToHalfBits(static_cast<float>(v))) {}  // NOLINT

    fp16_t &operator=(const fp16_t &) = default;
    template <typename T, typename std::enable_if<std::is_arithmetic<T>::value, int>::type = 0>
    fp16_t &operator=(const T &v) {  // a value, uint16_t included (CANN's assignment converts)
        val = Convert(v);
        return *this;
    }

    operator float() const { return opsnn_host::HalfBitsToFloat(val); }  // NOLINT
    float ToFloat() const { return static_cast<float>(*this); }
    double ToDouble() const { return static_cast<double>(static_cast<float>(*this)); }

    bool operator==(const fp16_t &o) const { return ToFloat() == o.ToFloat(); }
    bool operator!=(const fp16_t &o) const { return !(*this == o); }
    bool operator<(const fp16_t &o) const { return ToFloat() < o.ToFloat(); }
    bool operator>(const fp16_t &o) const { return ToFloat() > o.ToFloat(); }
    bool operator<=(const fp16_t &o) const { return ToFloat() <= o.ToFloat(); }
    bool operator>=(const fp16_t &o) const { return ToFloat() >= o.ToFloat(); }
    fp16_t operator+(const fp16_t &o) const { return fp16_t(ToFloat() + o.ToFloat()); }
    fp16_t operator-(const fp16_t &o) const { return fp16_t(ToFloat() - o.ToFloat()); }
    fp16_t operator*(const fp16_t &o) const { return fp16_t(ToFloat() * o.ToFloat()); }
    fp16_t operator/(const fp16_t &o) const { return fp16_t(ToFloat() / o.ToFloat()); }

private:
    template <typename T>
    static uint16_t Convert(const T &v) {
        if (std::is_floating_point<T>::value && sizeof(T) <= sizeof(float)) {
            return opsnn_host::FloatToHalfBits(static_cast<float>(v));
        }
        if (std::is_floating_point<T>::value) {
            return opsnn_host::DoubleToHalfBits(static_cast<double>(v));
        }
        const bool neg = std::is_signed<T>::value && v < T(0);
        const uint64_t mag = neg ? uint64_t(0) - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
        return static_cast<uint16_t>(opsnn_host::EncodeFloat(opsnn_host::IntegerParts(neg, mag),
                                                             opsnn_host::kHalfFormat));
    }
};

inline std::ostream &operator<<(std::ostream &os, const fp16_t &v) { return os << static_cast<float>(v); }
}  // namespace op

#endif  // OPSNN_HOST_OPDEV_FP16_T_H_
