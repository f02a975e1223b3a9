/* opsnn host twin: opdev/data_type_utils.h -- data type classes, promotion and castability, as
 * op_api code checks its arguments' dtypes with them. */
#ifndef OPSNN_HOST_OPDEV_DATA_TYPE_UTILS_H_
#define OPSNN_HOST_OPDEV_DATA_TYPE_UTILS_H_

#include <algorithm>
#include <complex>
#include <initializer_list>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "graph/types.h"
#include "opdev/common_types.h"

namespace op {
/* Short names CANN's header gives the promotion table's types; code may use them. */
static constexpr auto u1 = ge::DataType::DT_UINT8;
static constexpr auto i1 = ge::DataType::DT_INT8;
static constexpr auto i2 = ge::DataType::DT_INT16;
static constexpr auto i4 = ge::DataType::DT_INT32;
static constexpr auto i8 = ge::DataType::DT_INT64;
static constexpr auto f2 = ge::DataType::DT_FLOAT16;
static constexpr auto f4 = ge::DataType::DT_FLOAT;
static constexpr auto f8 = ge::DataType::DT_DOUBLE;
static constexpr auto c2 = ge::DataType::DT_COMPLEX32;
static constexpr auto c4 = ge::DataType::DT_COMPLEX64;
static constexpr auto c8 = ge::DataType::DT_COMPLEX128;
static constexpr auto b1 = ge::DataType::DT_BOOL;
static constexpr auto bf = ge::DataType::DT_BF16;
static constexpr auto ud = ge::DataType::DT_UNDEFINED;

constexpr uint32_t kDataTypeSizeBitOffset = 1000;

inline bool CheckType(const DataType dtype, const std::initializer_list<DataType> &validTypes) {
    return std::find(validTypes.begin(), validTypes.end(), dtype) != validTypes.end();
}

inline bool IsComplexType(const DataType type) {
    return type == DataType::DT_COMPLEX32 || type == DataType::DT_COMPLEX64 || type == DataType::DT_COMPLEX128;
}

inline bool IsFloatingType(const DataType type) {
    return CheckType(type, {DataType::DT_DOUBLE, DataType::DT_FLOAT, DataType::DT_BF16, DataType::DT_FLOAT16,
                            DataType::DT_HIFLOAT8, DataType::DT_FLOAT8_E5M2, DataType::DT_FLOAT8_E4M3FN,
                            DataType::DT_FLOAT8_E8M0, DataType::DT_FLOAT6_E3M2, DataType::DT_FLOAT6_E2M3,
                            DataType::DT_FLOAT4_E2M1, DataType::DT_FLOAT4_E1M2});
}

/* The eight plain integer types (bool not among them). */
inline bool IsIntegralType(const DataType type) {
    return CheckType(type, {DataType::DT_INT8, DataType::DT_INT16, DataType::DT_INT32, DataType::DT_INT64,
                            DataType::DT_UINT8, DataType::DT_UINT16, DataType::DT_UINT32, DataType::DT_UINT64});
}

inline bool IsIntegralType(const DataType type, const bool includeBool) {
    return IsIntegralType(type) || (includeBool && type == DataType::DT_BOOL);
}

/* Plain numbers (no bool, no string), the quantised types included; no complex32, no 8-bit floats. */
inline bool IsBasicType(const DataType dtype) {
    return (IsComplexType(dtype) && dtype != DataType::DT_COMPLEX32) || IsIntegralType(dtype) ||
           CheckType(dtype, {DataType::DT_DOUBLE, DataType::DT_FLOAT, DataType::DT_FLOAT16, DataType::DT_BF16,
                             DataType::DT_QINT8, DataType::DT_QINT16, DataType::DT_QINT32, DataType::DT_QUINT8,
                             DataType::DT_QUINT16});
}

/* Every number type: the basic ones except qint16 / quint16, and the 8-, 6- and 4-bit floats. */
inline bool IsNumberType(const DataType dtype) {
    if (dtype == DataType::DT_COMPLEX32 || dtype == DataType::DT_QINT16 || dtype == DataType::DT_QUINT16) {
        return false;
    }
    return IsBasicType(dtype) || IsFloatingType(dtype);
}

/* Real numbers: integers and floats (no complex, no quantised types, no bool). */
inline bool IsRealNumberType(const DataType dtype) {
    return IsIntegralType(dtype) || IsFloatingType(dtype);
}

DataType ToDataType(const std::string &dataTypeStr);

constexpr inline DataType ToOpDataType(aclDataType type) {
    return type == ACL_DT_UNDEFINED ? DataType::DT_UNDEFINED : static_cast<DataType>(type);
}

/* ACL_DT_UNDEFINED for a type with no aclDataType. */
inline aclDataType ToAclDataType(DataType type) {
    return CheckType(type, {DataType::DT_FLOAT,       DataType::DT_FLOAT16,       DataType::DT_INT8,
                            DataType::DT_INT32,       DataType::DT_UINT8,         DataType::DT_INT16,
                            DataType::DT_UINT16,      DataType::DT_UINT32,        DataType::DT_INT64,
                            DataType::DT_DOUBLE,      DataType::DT_BOOL,          DataType::DT_STRING,
                            DataType::DT_COMPLEX64,   DataType::DT_COMPLEX128,    DataType::DT_BF16,
                            DataType::DT_UINT64,      DataType::DT_INT4,          DataType::DT_UINT1,
                            DataType::DT_COMPLEX32,   DataType::DT_HIFLOAT8,      DataType::DT_FLOAT8_E5M2,
                            DataType::DT_FLOAT8_E4M3FN, DataType::DT_FLOAT8_E8M0, DataType::DT_FLOAT6_E3M2,
                            DataType::DT_FLOAT6_E2M3, DataType::DT_FLOAT4_E2M1,   DataType::DT_FLOAT4_E1M2})
               ? static_cast<aclDataType>(type)
               : ACL_DT_UNDEFINED;
}

/* "[DT_FLOAT,DT_FLOAT16,...]" */
ge::AscendString ToString(const std::initializer_list<DataType> &dataTypes);

/* Bytes `size` elements of dataType occupy (sub-byte types: rounded down, or up with ceil). */
int64_t CalcShapeBytes(int64_t size, DataType dataType, bool ceil = false);

/* A float, an integer or bool may be cast to any type of its class or above (bool < integer <
 * float < complex); nothing casts down a class, and only bool casts to bool. */
inline bool CanCast(const DataType from, const DataType to) {
    if (IsComplexType(from) && !IsComplexType(to)) {
        return false;
    }
    if (IsFloatingType(from) && IsIntegralType(to, false)) {
        return false;
    }
    return !(from != DataType::DT_BOOL && to == DataType::DT_BOOL);
}

/* The type two operands promote to (torch's rules as CANN tabulates them), DT_UNDEFINED where
 * there is none. Defined in src/opdev/types.cpp. */
DataType PromoteType(DataType typeA, DataType typeB);
}  // namespace op

#endif  // OPSNN_HOST_OPDEV_DATA_TYPE_UTILS_H_
