/* opsnn host twin: graph/types.h -- ge::DataType and ge::Format with CANN's public numbering
 * (DT_FLOAT 0, DT_FLOAT16 1, ..., DT_BF16 27; FORMAT_NCHW 0, FORMAT_ND 2, ...), the element
 * sizes, the packed-format helpers and TensorType. Kernel code includes it too (tikicpulib.h,
 * the tiling-key headers), so everything here is inline and header-only.
 *
 * Each type and format is listed once, in an X-macro table: the enum, its byte size and its
 * printable name (TypeUtils, GetFormatName) all come from that one list. */
#ifndef OPSNN_HOST_GRAPH_TYPES_H_
#define OPSNN_HOST_GRAPH_TYPES_H_

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <vector>

#include "graph/error_codes.h"

/* X(name, code, size): size in bytes, or kDataTypeSizeBitOffset + bits for sub-byte types, or -1
 * where a type has no fixed size (strings, DT_UNDEFINED). */
#define OPSNN_GE_DATA_TYPES(X)                                                                                  \
    X(DT_FLOAT, 0, 4) X(DT_FLOAT16, 1, 2) X(DT_INT8, 2, 1) X(DT_INT32, 3, 4) X(DT_UINT8, 4, 1)                \
    X(DT_INT16, 6, 2) X(DT_UINT16, 7, 2) X(DT_UINT32, 8, 4) X(DT_INT64, 9, 8) X(DT_UINT64, 10, 8)             \
    X(DT_DOUBLE, 11, 8) X(DT_BOOL, 12, 1) X(DT_STRING, 13, -1) X(DT_DUAL_SUB_INT8, 14, 1)                     \
    X(DT_DUAL_SUB_UINT8, 15, 1) X(DT_COMPLEX64, 16, 8) X(DT_COMPLEX128, 17, 16) X(DT_QINT8, 18, 1)            \
    X(DT_QINT16, 19, 2) X(DT_QINT32, 20, 4) X(DT_QUINT8, 21, 1) X(DT_QUINT16, 22, 2) X(DT_RESOURCE, 23, 8)    \
    X(DT_STRING_REF, 24, -1) X(DT_DUAL, 25, 5) X(DT_VARIANT, 26, 8) X(DT_BF16, 27, 2)                         \
    X(DT_UNDEFINED, 28, -1) X(DT_INT4, 29, 1004) X(DT_UINT1, 30, 1001) X(DT_INT2, 31, 1002)                   \
    X(DT_UINT2, 32, 1002) X(DT_COMPLEX32, 33, 4) X(DT_HIFLOAT8, 34, 1) X(DT_FLOAT8_E5M2, 35, 1)               \
    X(DT_FLOAT8_E4M3FN, 36, 1) X(DT_FLOAT8_E8M0, 37, 1) X(DT_FLOAT6_E3M2, 38, 1006)                           \
    X(DT_FLOAT6_E2M3, 39, 1006) X(DT_FLOAT4_E2M1, 40, 1004) X(DT_FLOAT4_E1M2, 41, 1004) X(DT_HIFLOAT4, 42, 1004)

/* X(name, code): ge::Format's primary formats. */
#define OPSNN_GE_FORMATS(X)                                                                                      \
    X(NCHW, 0) X(NHWC, 1) X(ND, 2) X(NC1HWC0, 3) X(FRACTAL_Z, 4) X(NC1C0HWPAD, 5) X(NHWC1C0, 6)               \
    X(FSR_NCHW, 7) X(FRACTAL_DECONV, 8) X(C1HWNC0, 9) X(FRACTAL_DECONV_TRANSPOSE, 10)                          \
    X(FRACTAL_DECONV_SP_STRIDE_TRANS, 11) X(NC1HWC0_C04, 12) X(FRACTAL_Z_C04, 13) X(CHWN, 14)                  \
    X(FRACTAL_DECONV_SP_STRIDE8_TRANS, 15) X(HWCN, 16) X(NC1KHKWHWC0, 17) X(BN_WEIGHT, 18) X(FILTER_HWCK, 19) \
    X(HASHTABLE_LOOKUP_LOOKUPS, 20) X(HASHTABLE_LOOKUP_KEYS, 21) X(HASHTABLE_LOOKUP_VALUE, 22)                 \
    X(HASHTABLE_LOOKUP_OUTPUT, 23) X(HASHTABLE_LOOKUP_HITS, 24) X(C1HWNCoC0, 25) X(MD, 26) X(NDHWC, 27)        \
    X(FRACTAL_ZZ, 28) X(FRACTAL_NZ, 29) X(NCDHW, 30) X(DHWCN, 31) X(NDC1HWC0, 32) X(FRACTAL_Z_3D, 33)          \
    X(CN, 34) X(NC, 35) X(DHWNC, 36) X(FRACTAL_Z_3D_TRANSPOSE, 37) X(FRACTAL_ZN_LSTM, 38) X(FRACTAL_Z_G, 39)   \
    X(RESERVED, 40) X(ALL, 41) X(NULL, 42) X(ND_RNN_BIAS, 43) X(FRACTAL_ZN_RNN, 44) X(NYUV, 45)                \
    X(NYUV_A, 46) X(NCL, 47) X(FRACTAL_Z_WINO, 48) X(C1HWC0, 49) X(FRACTAL_NZ_C0_16, 50)                       \
    X(FRACTAL_NZ_C0_32, 51) X(FRACTAL_NZ_C0_2, 52) X(FRACTAL_NZ_C0_4, 53) X(FRACTAL_NZ_C0_8, 54) X(END, 55)

namespace ge {
using char_t = char;
#ifndef float32_t  // a build may define it as a macro (upstream gelu_grad_v2's UT: -Dfloat32_t=float)
using float32_t = float;
#endif
using float64_t = double;
using vector_bit_t = std::vector<bool>;

static const int64_t SHAPE_RANGE_LOWER_LIMIT = 0;
static const int64_t UNKNOWN_DIM = -1;
static const int64_t UNKNOWN_DIM_NUM = -2;
static const std::vector<int64_t> UNKNOWN_SHAPE = {-1};
static const std::vector<int64_t> UNKNOWN_RANK = {-2};
static const std::vector<int64_t> DUMMY_SHAPE = {-3};
static constexpr int32_t kDataTypeSizeBitOffset = 1000;
static constexpr uint32_t kBitNumOfOneByte = 8U;
static constexpr uint32_t kBitThreeBytes = 24U;

#define OPSNN_GE_DT_ENUM(name, code, size) name = code,
enum DataType { OPSNN_GE_DATA_TYPES(OPSNN_GE_DT_ENUM) DT_MAX };
#undef OPSNN_GE_DT_ENUM

#define OPSNN_GE_FORMAT_ENUM(name, code) FORMAT_##name = code,
enum Format { OPSNN_GE_FORMATS(OPSNN_GE_FORMAT_ENUM) FORMAT_MAX = 0xff };
#undef OPSNN_GE_FORMAT_ENUM

/* The element size in bytes; kDataTypeSizeBitOffset + bits for sub-byte types; -1 unknown. */
inline int GetSizeByDataType(DataType data_type) {
    switch (data_type) {
#define OPSNN_GE_DT_SIZE(name, code, size) \
    case name:                             \
        return size;
        OPSNN_GE_DATA_TYPES(OPSNN_GE_DT_SIZE)
#undef OPSNN_GE_DT_SIZE
        default:
            return -1;
    }
}

/* Bytes for element_count elements (sub-byte types round up); -1 for a type without a size or
 * a negative count or an overflow. */
inline int64_t GetSizeInBytes(int64_t element_count, DataType data_type) {
    const int size = GetSizeByDataType(data_type);
    if (element_count < 0 || size < 0) {
        return -1;
    }
    if (size > kDataTypeSizeBitOffset) {
        const int64_t bits = size - kDataTypeSizeBitOffset;
        int64_t total_bits = 0;
        if (__builtin_mul_overflow(element_count, bits, &total_bits)) {
            return -1;
        }
        return (total_bits + 7) / 8;
    }
    int64_t total = 0;
    if (__builtin_mul_overflow(element_count, static_cast<int64_t>(size), &total)) {
        return -1;
    }
    return total;
}

/* A format value packs: bits 0-7 the primary format, 8-23 a sub-format, 24-27 a C0 code. */
inline int32_t GetFormatFromSub(int32_t primary_format, int32_t sub_format) {
    return static_cast<int32_t>((static_cast<uint32_t>(primary_format) & 0xffU) |
                                ((static_cast<uint32_t>(sub_format) & 0xffffU) << 8U));
}
inline int32_t GetFormatFromC0(int32_t format, int32_t c0_format) {
    return static_cast<int32_t>((static_cast<uint32_t>(format) & 0xffffffU) |
                                ((static_cast<uint32_t>(c0_format) & 0xfU) << 24U));
}
inline int32_t GetFormatFromSubAndC0(int32_t primary_format, int32_t sub_format, int32_t c0_format) {
    return GetFormatFromC0(GetFormatFromSub(primary_format, sub_format), c0_format);
}
inline int32_t GetPrimaryFormat(int32_t format) { return static_cast<int32_t>(static_cast<uint32_t>(format) & 0xffU); }
inline int32_t GetSubFormat(int32_t format) {
    return static_cast<int32_t>((static_cast<uint32_t>(format) >> 8U) & 0xffffU);
}
inline bool HasSubFormat(int32_t format) { return GetSubFormat(format) > 0; }
inline int32_t GetC0Format(int32_t format) { return static_cast<int32_t>((static_cast<uint32_t>(format) >> 24U) & 0xfU); }
inline bool HasC0Format(int32_t format) { return GetC0Format(format) > 0; }
/* The C0 a format carries (2^(code-1)), or -1 where it carries none. */
inline int64_t GetC0Value(int32_t format) {
    return HasC0Format(format) ? (int64_t{1} << (GetC0Format(format) - 1)) : -1;
}

/* "NCHW", "ND", ...; "RESERVED" for a value with no name. */
inline const char_t *GetFormatName(Format format) {
    switch (static_cast<int32_t>(format)) {
#define OPSNN_GE_FORMAT_NAME(name, code) \
    case code:                           \
        return #name;
        OPSNN_GE_FORMATS(OPSNN_GE_FORMAT_NAME)
#undef OPSNN_GE_FORMAT_NAME
        default:
            return "RESERVED";
    }
}

enum UnknowShapeOpType { DEPEND_IN_SHAPE = 1, DEPEND_CONST_VALUE = 2, DEPEND_SHAPE_RANGE = 3, DEPEND_COMPUTE = 4 };
enum DeviceType { NPU = 0, CPU = 1 };
enum Placement { kPlacementHost = 0, kPlacementDevice = 1, kPlacementEnd };

struct TensorDescInfo {
    Format format_ = FORMAT_RESERVED;
    DataType dataType_ = DT_UNDEFINED;
};

/* A set of data types an IR declaration (REG_OP) accepts. */
struct TensorType {
    explicit TensorType(DataType dt) : types(std::make_shared<std::vector<DataType>>(1, dt)) {}
    TensorType(const std::initializer_list<DataType> &initial_types)
        : types(std::make_shared<std::vector<DataType>>(initial_types)) {}
    static TensorType ALL() {
        return TensorType{DT_BOOL,   DT_COMPLEX128, DT_COMPLEX64, DT_DOUBLE, DT_FLOAT,  DT_FLOAT16,
                          DT_INT16,  DT_INT32,      DT_INT64,     DT_INT8,   DT_QINT16, DT_QINT32,
                          DT_QINT8,  DT_QUINT16,    DT_QUINT8,    DT_RESOURCE, DT_STRING, DT_UINT16,
                          DT_UINT32, DT_UINT64,     DT_UINT8,     DT_BF16,   DT_COMPLEX32};
    }
    static TensorType QuantifiedType() { return TensorType{DT_QINT16, DT_QINT32, DT_QINT8, DT_QUINT16, DT_QUINT8}; }
    static TensorType OrdinaryType() {
        return TensorType{DT_BOOL,  DT_COMPLEX128, DT_COMPLEX64, DT_DOUBLE, DT_FLOAT,  DT_FLOAT16, DT_INT16, DT_INT32,
                          DT_INT64, DT_INT8,       DT_UINT16,    DT_UINT32, DT_UINT64, DT_UINT8,   DT_BF16,  DT_COMPLEX32};
    }
    static TensorType BasicType() {
        return TensorType{DT_COMPLEX128, DT_COMPLEX64, DT_DOUBLE, DT_FLOAT,  DT_FLOAT16, DT_INT16,   DT_INT32,
                          DT_INT64,      DT_INT8,      DT_QINT16, DT_QINT32, DT_QINT8,   DT_QUINT16, DT_QUINT8,
                          DT_UINT16,     DT_UINT32,    DT_UINT64, DT_UINT8,  DT_BF16,    DT_COMPLEX32};
    }
    static TensorType NumberType() {
        return TensorType{DT_COMPLEX128, DT_COMPLEX64, DT_DOUBLE, DT_FLOAT,  DT_FLOAT16, DT_INT16,
                          DT_INT32,      DT_INT64,     DT_INT8,   DT_QINT32, DT_QINT8,   DT_QUINT8,
                          DT_UINT16,     DT_UINT32,    DT_UINT64, DT_UINT8,  DT_BF16,    DT_COMPLEX32};
    }
    static TensorType RealNumberType() {
        return TensorType{DT_DOUBLE, DT_FLOAT,  DT_FLOAT16, DT_INT16,  DT_INT32, DT_INT64,
                          DT_INT8,   DT_UINT16, DT_UINT32,  DT_UINT64, DT_UINT8, DT_BF16};
    }
    static TensorType ComplexDataType() { return TensorType{DT_COMPLEX128, DT_COMPLEX64, DT_COMPLEX32}; }
    static TensorType IntegerDataType() {
        return TensorType{DT_INT16, DT_INT32, DT_INT64, DT_INT8, DT_UINT16, DT_UINT32, DT_UINT64, DT_UINT8};
    }
    static TensorType SignedDataType() { return TensorType{DT_INT16, DT_INT32, DT_INT64, DT_INT8}; }
    static TensorType UnsignedDataType() { return TensorType{DT_UINT16, DT_UINT32, DT_UINT64, DT_UINT8}; }
    static TensorType FloatingDataType() { return TensorType{DT_DOUBLE, DT_FLOAT, DT_FLOAT16}; }
    static TensorType IndexNumberType() { return TensorType{DT_INT32, DT_INT64}; }
    static TensorType UnaryDataType() {
        return TensorType{DT_COMPLEX128, DT_COMPLEX64, DT_DOUBLE, DT_FLOAT, DT_FLOAT16, DT_BF16, DT_COMPLEX32};
    }
    static TensorType FLOAT() { return TensorType{DT_FLOAT, DT_FLOAT16, DT_BF16}; }

    std::shared_ptr<std::vector<DataType>> types;  // shared: a TensorType is copied into each declaration
};

struct ListTensorType {
    explicit ListTensorType(const TensorType &type) : tensor_type(type) {}
    TensorType tensor_type;
};
}  // namespace ge

namespace domi {
enum class ImplyType : unsigned int { BUILTIN = 0, BUILDIN = BUILTIN, TVM, CUSTOM, AI_CPU, CCE, GELOCAL, HCCL,
                                      INVALID = 0xFFFFFFFF };
using char_t = ge::char_t;
#ifndef float32_t
using float32_t = ge::float32_t;
#endif
using float64_t = ge::float64_t;
}  // namespace domi

#endif  // OPSNN_HOST_GRAPH_TYPES_H_
