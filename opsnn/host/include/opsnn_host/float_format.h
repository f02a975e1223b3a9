/* opsnn host twin: binary floating-point formats by their bit layout, and the one conversion
 * between them that every host-side float type (op::fp16_t, op::bfloat16) and the l0 Cast use.
 * Not a CANN interface.
 *
 * A value is decoded exactly into FloatParts (sign, kind, and value = mant * 2^exp), and encoded
 * into a narrower or wider format with one rounding: to nearest, ties to even; a finite value past
 * the format's range becomes infinity. These are the AscendC Cast rules for CAST_NONE/CAST_RINT as
 * opsnn's emulator states them (opsnn/ascendc/cast.py: float32_to_half, the narrowing NaN rule,
 * widening is exact) -- restated here because the C++ host twin converts without Python.
 *
 * NaN: the payload is carried left-aligned; encoding keeps the sign and the payload's top bits and
 * does not set the quiet bit; a NaN whose kept bits are all zero gets the lowest one, so it stays a
 * NaN (cast.py's _narrow_nan_payloads). Widening a NaN therefore keeps its bits, shifted. */
#ifndef OPSNN_HOST_FLOAT_FORMAT_H_
#define OPSNN_HOST_FLOAT_FORMAT_H_

#include <cstdint>
#include <cstring>

namespace opsnn_host {

struct FloatFormat {
    int exp_bits;
    int man_bits;  // stored fraction bits (the implicit leading one excluded)
};
constexpr FloatFormat kHalfFormat{5, 10};
constexpr FloatFormat kBf16Format{8, 7};
constexpr FloatFormat kFloatFormat{8, 23};
constexpr FloatFormat kDoubleFormat{11, 52};

struct FloatParts {
    enum Kind { kFinite, kInf, kNaN };
    bool neg = false;
    Kind kind = kFinite;
    uint64_t mant = 0;     // finite: value = mant * 2^exp (mant 0: a signed zero)
    int exp = 0;
    uint64_t payload = 0;  // NaN: the fraction bits, left-aligned in 64 bits
};

inline FloatParts DecodeFloat(uint64_t bits, FloatFormat f) {
    FloatParts p;
    const uint64_t field = bits & ((uint64_t{1} << f.man_bits) - 1U);
    const uint64_t exp_all = (uint64_t{1} << f.exp_bits) - 1U;
    const uint64_t biased = (bits >> f.man_bits) & exp_all;
    const int bias = (1 << (f.exp_bits - 1)) - 1;
    p.neg = ((bits >> (f.man_bits + f.exp_bits)) & 1U) != 0;
    if (biased == exp_all) {
        p.kind = field == 0 ? FloatParts::kInf : FloatParts::kNaN;
        p.payload = field << (64 - f.man_bits);
        return p;
    }
    if (biased == 0) {  // zero or subnormal
        p.mant = field;
        p.exp = 1 - bias - f.man_bits;
    } else {
        p.mant = field | (uint64_t{1} << f.man_bits);
        p.exp = static_cast<int>(biased) - bias - f.man_bits;
    }
    return p;
}

/* The integer magnitude `mag` (exact), with its sign: what an integer source decodes to. */
inline FloatParts IntegerParts(bool neg, uint64_t mag) {
    FloatParts p;
    p.neg = neg;
    p.mant = mag;
    return p;
}

inline int BitLength(uint64_t v) { return v == 0 ? 0 : 64 - __builtin_clzll(v); }

/* Round to nearest even into format f; overflow to infinity. */
inline uint64_t EncodeFloat(const FloatParts &p, FloatFormat f) {
    const uint64_t sign = static_cast<uint64_t>(p.neg) << (f.man_bits + f.exp_bits);
    const uint64_t exp_all = (uint64_t{1} << f.exp_bits) - 1U;
    const uint64_t inf = sign | (exp_all << f.man_bits);
    if (p.kind == FloatParts::kInf) {
        return inf;
    }
    if (p.kind == FloatParts::kNaN) {
        uint64_t kept = p.payload >> (64 - f.man_bits);
        if (kept == 0) {
            kept = 1;  // an all-zero kept payload would read as infinity
        }
        return inf | kept;
    }
    if (p.mant == 0) {
        return sign;
    }
    const int bias = (1 << (f.exp_bits - 1)) - 1;
    const int emin = 1 - bias;
    const int top = p.exp + BitLength(p.mant) - 1;              // value in [2^top, 2^(top+1))
    int quantum = (top > emin ? top : emin) - f.man_bits;        // exponent of the result's last bit
    const int drop = quantum - p.exp;                            // bits of mant below that last bit
    uint64_t q;
    if (drop <= 0) {
        q = p.mant << (-drop);  // exact; fewer than man_bits + 1 bits, so no overflow
    } else {
        const unsigned __int128 m = p.mant;
        if (drop > 65) {
            q = 0;  // the value is below half the smallest step: it rounds to zero
        } else {
            const unsigned __int128 one = 1;
            q = static_cast<uint64_t>(m >> drop);
            const unsigned __int128 rem = m & ((one << drop) - 1U);
            const unsigned __int128 half = one << (drop - 1);
            if (rem > half || (rem == half && (q & 1U) != 0)) {
                ++q;
            }
        }
    }
    if (q == 0) {
        return sign;
    }
    if (q >> (f.man_bits + 1)) {  // the rounding carried into a new leading bit
        q >>= 1;
        ++quantum;
    }
    if (q >> f.man_bits) {  // normal
        const int64_t biased = static_cast<int64_t>(quantum) + f.man_bits + bias;
        if (biased >= static_cast<int64_t>(exp_all)) {
            return inf;
        }
        return sign | (static_cast<uint64_t>(biased) << f.man_bits) | (q & ((uint64_t{1} << f.man_bits) - 1U));
    }
    return sign | q;  // subnormal
}

inline uint64_t FloatBits(float v) {
    uint32_t u;
    std::memcpy(&u, &v, sizeof(u));
    return u;
}
inline uint64_t DoubleBits(double v) {
    uint64_t u;
    std::memcpy(&u, &v, sizeof(u));
    return u;
}
inline float FloatFromBits(uint64_t bits) {
    const uint32_t u = static_cast<uint32_t>(bits);
    float v;
    std::memcpy(&v, &u, sizeof(v));
    return v;
}
inline double DoubleFromBits(uint64_t bits) {
    double v;
    std::memcpy(&v, &bits, sizeof(v));
    return v;
}

/* float <-> half / bfloat16 bits by the rules above. */
inline uint16_t FloatToHalfBits(float v) {
    return static_cast<uint16_t>(EncodeFloat(DecodeFloat(FloatBits(v), kFloatFormat), kHalfFormat));
}
inline uint16_t FloatToBf16Bits(float v) {
    return static_cast<uint16_t>(EncodeFloat(DecodeFloat(FloatBits(v), kFloatFormat), kBf16Format));
}
inline uint16_t DoubleToHalfBits(double v) {
    return static_cast<uint16_t>(EncodeFloat(DecodeFloat(DoubleBits(v), kDoubleFormat), kHalfFormat));
}
inline uint16_t DoubleToBf16Bits(double v) {
    return static_cast<uint16_t>(EncodeFloat(DecodeFloat(DoubleBits(v), kDoubleFormat), kBf16Format));
}
inline float HalfBitsToFloat(uint16_t bits) {
    return FloatFromBits(EncodeFloat(DecodeFloat(bits, kHalfFormat), kFloatFormat));
}
inline float Bf16BitsToFloat(uint16_t bits) { return FloatFromBits(static_cast<uint64_t>(bits) << 16); }

}  // namespace opsnn_host

#endif  // OPSNN_HOST_FLOAT_FORMAT_H_
