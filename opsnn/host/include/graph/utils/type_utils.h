/* opsnn host twin: ge::TypeUtils -- data types and formats to and from their names ("DT_FLOAT",
 * "ND"; a format with a sub-format prints "FRACTAL_Z:16"), and GetDataTypeLength (the element
 * size; 16 for the string types; CANN's kDataTypeSizeBitOffset + bits for sub-byte types).
 * Header-only, from graph/types.h's tables. */
#ifndef OPSNN_HOST_GRAPH_UTILS_TYPE_UTILS_H_
#define OPSNN_HOST_GRAPH_UTILS_TYPE_UTILS_H_

#include <cstdint>
#include <cstdlib>
#include <string>

#include "graph/ascend_string.h"
#include "graph/types.h"

namespace ge {
class TypeUtils {
public:
    /* "UNDEFINED" for a value outside the table. */
    static std::string DataTypeToSerialString(const DataType data_type) {
        switch (data_type) {
#define OPSNN_GE_DT_NAME(name, code, size) \
    case name:                             \
        return #name;
            OPSNN_GE_DATA_TYPES(OPSNN_GE_DT_NAME)
#undef OPSNN_GE_DT_NAME
            default:
                return "UNDEFINED";
        }
    }
    /* DT_UNDEFINED for an unknown name. */
    static DataType SerialStringToDataType(const std::string &str) {
#define OPSNN_GE_DT_PARSE(name, code, size) \
    if (str == #name) {                     \
        return name;                        \
    }
        OPSNN_GE_DATA_TYPES(OPSNN_GE_DT_PARSE)
#undef OPSNN_GE_DT_PARSE
        return DT_UNDEFINED;
    }
    static std::string FormatToSerialString(const Format format) {
        const int32_t primary = GetPrimaryFormat(static_cast<int32_t>(format));
        std::string name = GetFormatName(static_cast<Format>(primary));
        if (name == "RESERVED" && primary != FORMAT_RESERVED) {
            return "RESERVED";
        }
        if (HasSubFormat(static_cast<int32_t>(format))) {
            name += ":" + std::to_string(GetSubFormat(static_cast<int32_t>(format)));
        }
        return name;
    }
    /* "NAME" or "NAME:sub"; FORMAT_RESERVED for an unknown name. */
    static Format SerialStringToFormat(const std::string &str) {
        const size_t colon = str.find(':');
        const std::string primary = str.substr(0, colon);
        const int32_t sub = colon == std::string::npos ? 0 : std::atoi(str.c_str() + colon + 1);
#define OPSNN_GE_FORMAT_PARSE(name, code) \
    if (primary == #name) {               \
        return static_cast<Format>(GetFormatFromSub(code, sub)); \
    }
        OPSNN_GE_FORMATS(OPSNN_GE_FORMAT_PARSE)
#undef OPSNN_GE_FORMAT_PARSE
        return FORMAT_RESERVED;
    }
    /* A framework's data-format name ("NCHW", "NHWC", "ND", ...) as a format. */
    static Format DataFormatToFormat(const std::string &str) { return SerialStringToFormat(str); }
    /* false for a type without a size (DT_UNDEFINED). */
    static bool GetDataTypeLength(const ge::DataType data_type, uint32_t &length) {
        if (data_type == DT_STRING || data_type == DT_STRING_REF) {
            length = 16U;  // a string element is a (pointer, length) pair
            return true;
        }
        const int size = GetSizeByDataType(data_type);
        if (size <= 0) {
            return false;
        }
        length = static_cast<uint32_t>(size);
        return true;
    }
    static AscendString DataTypeToAscendString(const DataType &data_type) {
        return AscendString(DataTypeToSerialString(data_type).c_str());
    }
    static DataType AscendStringToDataType(const AscendString &str) { return SerialStringToDataType(str.GetString()); }
    static AscendString FormatToAscendString(const Format &format) {
        return AscendString(FormatToSerialString(format).c_str());
    }
    static Format AscendStringToFormat(const AscendString &str) { return SerialStringToFormat(str.GetString()); }
    static Format DataFormatToFormat(const AscendString &str) { return DataFormatToFormat(std::string(str.GetString())); }
};
}  // namespace ge

#endif  // OPSNN_HOST_GRAPH_UTILS_TYPE_UTILS_H_
