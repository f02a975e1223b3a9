/* opsnn host twin: opdev/bfloat16.h -- op::bfloat16, a host-side bfloat16 value (the top half of
 * a float32). Built from a number it rounds to nearest even; built with from_bits() it takes the
 * bit pattern. NaN keeps its sign and top payload bits (opsnn_host/float_format.h states the rule
 * and where it comes from); CANN's host type turns every NaN into 0x7FC0. */
#ifndef OPSNN_HOST_OPDEV_BFLOAT16_H_
#define OPSNN_HOST_OPDEV_BFLOAT16_H_

#include <cstdint>
#include <limits>
#include <ostream>
#include <type_traits>

#include "opsnn_host/float_format.h"

namespace op {
struct bfloat16 {
    struct from_bits_t {};
    static constexpr from_bits_t from_bits() { return from_bits_t(); }

    constexpr bfloat16() : value(0) {}
    constexpr bfloat16(uint16_t bits, from_bits_t) : value(bits) {}
    bfloat16(float v) : value(opsnn_host::FloatToBf16Bits(v)) {}  // NOLINT: implicit, as CANN's
    bfloat16(double v) : value(opsnn_host::DoubleToBf16Bits(v)) {}  // NOLINT
    template <typename T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
    bfloat16(T v) : bfloat16(static_cast<double>(v)) {}  // NOLINT

    operator float() const { return opsnn_host::Bf16BitsToFloat(value); }  // NOLINT
    bool IsZero() const { return (value & 0x7FFFU) == 0; }

    static constexpr bfloat16 highest() { return bfloat16(0x7F7F, from_bits()); }
    static constexpr bfloat16 lowest() { return bfloat16(0xFF7F, from_bits()); }
    static constexpr bfloat16 epsilon() { return bfloat16(0x3C00, from_bits()); }
    static constexpr bfloat16 min_positive_normal() { return bfloat16(0x0080, from_bits()); }

    uint16_t value;
};

inline std::ostream &operator<<(std::ostream &os, const bfloat16 &v) { return os << static_cast<float>(v); }
}  // namespace op

#endif  // OPSNN_HOST_OPDEV_BFLOAT16_H_
