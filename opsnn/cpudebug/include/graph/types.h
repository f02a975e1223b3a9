/* opsnn's graph/types.h: the ge::DataType codes host code (tilings, UTs) names element types by.
 * The numbering is CANN's public one (DT_FLOAT 0, DT_FLOAT16 1, ..., DT_BF16 27). */
#ifndef OPSNN_GRAPH_TYPES_H_
#define OPSNN_GRAPH_TYPES_H_

#include <cstdint>

namespace ge {
enum DataType {
    DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6, DT_UINT16 = 7,
    DT_UINT32 = 8, DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12, DT_STRING = 13,
    DT_DUAL_SUB_INT8 = 14, DT_DUAL_SUB_UINT8 = 15, DT_COMPLEX64 = 16, DT_COMPLEX128 = 17, DT_QINT8 = 18,
    DT_QINT16 = 19, DT_QINT32 = 20, DT_QUINT8 = 21, DT_QUINT16 = 22, DT_RESOURCE = 23, DT_STRING_REF = 24,
    DT_DUAL = 25, DT_VARIANT = 26, DT_BF16 = 27, DT_UNDEFINED = 28, DT_INT4 = 29
};
}  // namespace ge

#endif  // OPSNN_GRAPH_TYPES_H_
