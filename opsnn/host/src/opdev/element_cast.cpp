/* Element conversions of the l0 Cast, done on the host at phase 2.
 *
 * The rules, and where they come from (opsnn's emulator, opsnn/ascendc/cast.py and
 * rounding.py, which read them from AscendC's Atlas A2 implementation; restated here because the
 * host twin converts without Python):
 *   float -> narrower float   round to nearest, ties to even; past the range: infinity; NaN keeps
 *                             its sign and top payload bits, quiet bit not forced (float_format.h)
 *   float -> wider float      exact (a NaN's payload shifted, not changed)
 *   integer -> float          one rounding to nearest even (int64 beyond 2^53 included)
 *   float -> integer          toward zero (CAST_TRUNC, the mode the Cast kernel uses for these
 *                             pairs; opsnn's Python l0 Cast, opsnn/aclnn/l0/cast.py, truncates too),
 *                             saturating at the integer's range, +-inf to its ends, NaN to 0
 *   integer -> integer        saturating (the vector unit's default, CTRL[59] = 0: cast.py).
 *                             opsnn's Python l0 Cast wraps instead (numpy astype): a known
 *                             difference, here the hardware rule wins
 *   -> bool                   value != 0 (NaN is true); bool -> number: 0 or 1
 *   real -> complex           imaginary part 0; complex -> complex per part
 *   complex -> real, and every type without a whole-byte size (int4, fp8, ...): no Cast. */
#include "element_cast.h"

#include <cstring>

#include "opsnn_host/float_format.h"

namespace opsnn_host {
namespace {

using op::DataType;

struct Number {
    enum Kind { kInt, kUInt, kFloat };
    Kind kind = kInt;
    int64_t i = 0;
    uint64_t u = 0;
    FloatParts f;
};

bool IsInteger(DataType t) {
    return t == DataType::DT_INT8 || t == DataType::DT_INT16 || t == DataType::DT_INT32 || t == DataType::DT_INT64 ||
           t == DataType::DT_UINT8 || t == DataType::DT_UINT16 || t == DataType::DT_UINT32 ||
           t == DataType::DT_UINT64;
}
bool IsRealFloat(DataType t) {
    return t == DataType::DT_FLOAT16 || t == DataType::DT_BF16 || t == DataType::DT_FLOAT ||
           t == DataType::DT_DOUBLE;
}
bool IsComplex(DataType t) { return t == DataType::DT_COMPLEX64 || t == DataType::DT_COMPLEX128; }
bool IsReal(DataType t) { return t == DataType::DT_BOOL || IsInteger(t) || IsRealFloat(t); }

FloatFormat FormatOf(DataType t) {
    switch (t) {
        case DataType::DT_FLOAT16:
            return kHalfFormat;
        case DataType::DT_BF16:
            return kBf16Format;
        case DataType::DT_FLOAT:
        case DataType::DT_COMPLEX64:
            return kFloatFormat;
        default:
            return kDoubleFormat;
    }
}

template <typename T>
T Load(const void *p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}
template <typename T>
void Save(void *p, T v) {
    std::memcpy(p, &v, sizeof(T));
}

uint64_t LoadBits(const void *p, int bytes) {
    switch (bytes) {
        case 2:
            return Load<uint16_t>(p);
        case 4:
            return Load<uint32_t>(p);
        default:
            return Load<uint64_t>(p);
    }
}
void SaveBits(void *p, uint64_t bits, int bytes) {
    switch (bytes) {
        case 2:
            Save<uint16_t>(p, static_cast<uint16_t>(bits));
            break;
        case 4:
            Save<uint32_t>(p, static_cast<uint32_t>(bits));
            break;
        default:
            Save<uint64_t>(p, bits);
    }
}
int FloatBytes(DataType t) {
    return t == DataType::DT_FLOAT16 || t == DataType::DT_BF16 ? 2 : (t == DataType::DT_FLOAT || t == DataType::DT_COMPLEX64 ? 4 : 8);
}

Number Decode(const void *p, DataType t) {
    Number n;
    switch (t) {
        case DataType::DT_BOOL:
            n.i = Load<uint8_t>(p) != 0 ? 1 : 0;
            return n;
        case DataType::DT_INT8:
            n.i = Load<int8_t>(p);
            return n;
        case DataType::DT_INT16:
            n.i = Load<int16_t>(p);
            return n;
        case DataType::DT_INT32:
            n.i = Load<int32_t>(p);
            return n;
        case DataType::DT_INT64:
            n.i = Load<int64_t>(p);
            return n;
        case DataType::DT_UINT8:
            n.kind = Number::kUInt;
            n.u = Load<uint8_t>(p);
            return n;
        case DataType::DT_UINT16:
            n.kind = Number::kUInt;
            n.u = Load<uint16_t>(p);
            return n;
        case DataType::DT_UINT32:
            n.kind = Number::kUInt;
            n.u = Load<uint32_t>(p);
            return n;
        case DataType::DT_UINT64:
            n.kind = Number::kUInt;
            n.u = Load<uint64_t>(p);
            return n;
        default:  // a real float, or one part of a complex
            n.kind = Number::kFloat;
            n.f = DecodeFloat(LoadBits(p, FloatBytes(t)), FormatOf(t));
            return n;
    }
}

FloatParts AsParts(const Number &n) {
    if (n.kind == Number::kFloat) {
        return n.f;
    }
    if (n.kind == Number::kUInt) {
        return IntegerParts(false, n.u);
    }
    const bool neg = n.i < 0;
    return IntegerParts(neg, neg ? uint64_t(0) - static_cast<uint64_t>(n.i) : static_cast<uint64_t>(n.i));
}

/* The value as an exact 128-bit integer after truncation toward zero (floats), and whether it is
 * a NaN (which becomes 0). Magnitudes past 2^100 are capped: every target saturates long before. */
__int128 Truncated(const Number &n, bool *nan) {
    *nan = false;
    if (n.kind == Number::kInt) {
        return n.i;
    }
    if (n.kind == Number::kUInt) {
        return static_cast<__int128>(n.u);
    }
    const __int128 cap = static_cast<__int128>(1) << 100;
    if (n.f.kind == FloatParts::kNaN) {
        *nan = true;
        return 0;
    }
    __int128 mag;
    if (n.f.kind == FloatParts::kInf) {
        mag = cap;
    } else if (n.f.exp >= 0) {
        mag = (BitLength(n.f.mant) + n.f.exp > 100) ? cap : (static_cast<__int128>(n.f.mant) << n.f.exp);
    } else {
        mag = (-n.f.exp >= 64) ? 0 : static_cast<__int128>(n.f.mant >> (-n.f.exp));
    }
    return n.f.neg ? -mag : mag;
}

bool IsNonZero(const Number &n) {
    if (n.kind == Number::kInt) {
        return n.i != 0;
    }
    if (n.kind == Number::kUInt) {
        return n.u != 0;
    }
    return n.f.kind != FloatParts::kFinite || n.f.mant != 0;  // NaN and infinities are true
}

template <typename T>
void SaveSaturated(void *p, __int128 v) {
    const __int128 lo = static_cast<__int128>(std::numeric_limits<T>::min());
    const __int128 hi = static_cast<__int128>(std::numeric_limits<T>::max());
    Save<T>(p, static_cast<T>(v < lo ? lo : (v > hi ? hi : v)));
}

void Encode(const Number &n, void *p, DataType t) {
    if (t == DataType::DT_BOOL) {
        Save<uint8_t>(p, IsNonZero(n) ? 1 : 0);
        return;
    }
    if (IsInteger(t)) {
        bool nan = false;
        const __int128 v = Truncated(n, &nan);
        switch (t) {
            case DataType::DT_INT8:
                return SaveSaturated<int8_t>(p, v);
            case DataType::DT_INT16:
                return SaveSaturated<int16_t>(p, v);
            case DataType::DT_INT32:
                return SaveSaturated<int32_t>(p, v);
            case DataType::DT_INT64:
                return SaveSaturated<int64_t>(p, v);
            case DataType::DT_UINT8:
                return SaveSaturated<uint8_t>(p, v);
            case DataType::DT_UINT16:
                return SaveSaturated<uint16_t>(p, v);
            case DataType::DT_UINT32:
                return SaveSaturated<uint32_t>(p, v);
            default:
                return SaveSaturated<uint64_t>(p, v);
        }
    }
    SaveBits(p, EncodeFloat(AsParts(n), FormatOf(t)), FloatBytes(t));
}

int PartBytes(DataType complexType) { return complexType == DataType::DT_COMPLEX64 ? 4 : 8; }

}  // namespace

bool CastSupported(DataType src, DataType dst, std::string *why) {
    if ((IsReal(src) || IsComplex(src)) && IsComplex(dst)) {
        return true;
    }
    if (IsReal(src) && IsReal(dst)) {
        return true;
    }
    if (why != nullptr) {
        *why = IsComplex(src) && IsReal(dst) ? "a complex value has no conversion to a real type"
                                               : "this twin converts bool, integer, float16, bfloat16, float, double "
                                                 "and complex64/128 elements only";
    }
    return false;
}

void ConvertOne(const void *src, DataType s, void *dst, DataType d) {
    if (IsComplex(d)) {
        const int part = PartBytes(d);
        auto *out = static_cast<uint8_t *>(dst);
        const DataType partType = d == DataType::DT_COMPLEX64 ? DataType::DT_FLOAT : DataType::DT_DOUBLE;
        if (IsComplex(s)) {
            const DataType inPart = s == DataType::DT_COMPLEX64 ? DataType::DT_FLOAT : DataType::DT_DOUBLE;
            const auto *in = static_cast<const uint8_t *>(src);
            Encode(Decode(in, inPart), out, partType);
            Encode(Decode(in + PartBytes(s), inPart), out + part, partType);
        } else {
            Encode(Decode(src, s), out, partType);
            Number zero;
            Encode(zero, out + part, partType);
        }
        return;
    }
    Encode(Decode(src, s), dst, d);
}

void ConvertElements(const void *src, DataType s, void *dst, DataType d, int64_t count) {
    const size_t in = op::TypeSize(s);
    const size_t out = op::TypeSize(d);
    const auto *a = static_cast<const uint8_t *>(src);
    auto *b = static_cast<uint8_t *>(dst);
    for (int64_t k = 0; k < count; ++k) {
        ConvertOne(a + k * in, s, b + k * out, d);
    }
}

void StoreDouble(double value, void *dst, DataType d) { ConvertOne(&value, DataType::DT_DOUBLE, dst, d); }
void StoreInt64(int64_t value, void *dst, DataType d) { ConvertOne(&value, DataType::DT_INT64, dst, d); }

}  // namespace opsnn_host
