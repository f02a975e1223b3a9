/* opsnn host twin: graph/c_types.h -- CANN's C spellings of the data type codes (C_DT_FLOAT, ...),
 * which tiling-key declarations name. They are macros for ge::DataType's values, token for token
 * as the kernel side's template_argument.h spells them, so either header may come first. */
#ifndef OPSNN_HOST_GRAPH_C_TYPES_H_
#define OPSNN_HOST_GRAPH_C_TYPES_H_

#include "graph/types.h"

#ifndef C_DT_FLOAT
#define C_DT_FLOAT ge::DT_FLOAT
#endif
#ifndef C_DT_FLOAT16
#define C_DT_FLOAT16 ge::DT_FLOAT16
#endif
#ifndef C_DT_INT8
#define C_DT_INT8 ge::DT_INT8
#endif
#ifndef C_DT_INT32
#define C_DT_INT32 ge::DT_INT32
#endif
#ifndef C_DT_UINT8
#define C_DT_UINT8 ge::DT_UINT8
#endif
#ifndef C_DT_INT16
#define C_DT_INT16 ge::DT_INT16
#endif
#ifndef C_DT_UINT16
#define C_DT_UINT16 ge::DT_UINT16
#endif
#ifndef C_DT_UINT32
#define C_DT_UINT32 ge::DT_UINT32
#endif
#ifndef C_DT_INT64
#define C_DT_INT64 ge::DT_INT64
#endif
#ifndef C_DT_UINT64
#define C_DT_UINT64 ge::DT_UINT64
#endif
#ifndef C_DT_DOUBLE
#define C_DT_DOUBLE ge::DT_DOUBLE
#endif
#ifndef C_DT_BOOL
#define C_DT_BOOL ge::DT_BOOL
#endif
#ifndef C_DT_STRING
#define C_DT_STRING ge::DT_STRING
#endif
#ifndef C_DT_DUAL_SUB_INT8
#define C_DT_DUAL_SUB_INT8 ge::DT_DUAL_SUB_INT8
#endif
#ifndef C_DT_DUAL_SUB_UINT8
#define C_DT_DUAL_SUB_UINT8 ge::DT_DUAL_SUB_UINT8
#endif
#ifndef C_DT_COMPLEX64
#define C_DT_COMPLEX64 ge::DT_COMPLEX64
#endif
#ifndef C_DT_COMPLEX128
#define C_DT_COMPLEX128 ge::DT_COMPLEX128
#endif
#ifndef C_DT_QINT8
#define C_DT_QINT8 ge::DT_QINT8
#endif
#ifndef C_DT_QINT16
#define C_DT_QINT16 ge::DT_QINT16
#endif
#ifndef C_DT_QINT32
#define C_DT_QINT32 ge::DT_QINT32
#endif
#ifndef C_DT_QUINT8
#define C_DT_QUINT8 ge::DT_QUINT8
#endif
#ifndef C_DT_QUINT16
#define C_DT_QUINT16 ge::DT_QUINT16
#endif
#ifndef C_DT_RESOURCE
#define C_DT_RESOURCE ge::DT_RESOURCE
#endif
#ifndef C_DT_STRING_REF
#define C_DT_STRING_REF ge::DT_STRING_REF
#endif
#ifndef C_DT_DUAL
#define C_DT_DUAL ge::DT_DUAL
#endif
#ifndef C_DT_VARIANT
#define C_DT_VARIANT ge::DT_VARIANT
#endif
#ifndef C_DT_BF16
#define C_DT_BF16 ge::DT_BF16
#endif
#ifndef C_DT_UNDEFINED
#define C_DT_UNDEFINED ge::DT_UNDEFINED
#endif
#ifndef C_DT_INT4
#define C_DT_INT4 ge::DT_INT4
#endif
#ifndef C_DT_UINT1
#define C_DT_UINT1 ge::DT_UINT1
#endif
#ifndef C_DT_INT2
#define C_DT_INT2 ge::DT_INT2
#endif
#ifndef C_DT_UINT2
#define C_DT_UINT2 ge::DT_UINT2
#endif
#ifndef C_DT_COMPLEX32
#define C_DT_COMPLEX32 ge::DT_COMPLEX32
#endif
#ifndef C_DT_HIFLOAT8
#define C_DT_HIFLOAT8 ge::DT_HIFLOAT8
#endif
#ifndef C_DT_FLOAT8_E5M2
#define C_DT_FLOAT8_E5M2 ge::DT_FLOAT8_E5M2
#endif
#ifndef C_DT_FLOAT8_E4M3FN
#define C_DT_FLOAT8_E4M3FN ge::DT_FLOAT8_E4M3FN
#endif
#ifndef C_DT_FLOAT8_E8M0
#define C_DT_FLOAT8_E8M0 ge::DT_FLOAT8_E8M0
#endif
#ifndef C_DT_FLOAT6_E3M2
#define C_DT_FLOAT6_E3M2 ge::DT_FLOAT6_E3M2
#endif
#ifndef C_DT_FLOAT6_E2M3
#define C_DT_FLOAT6_E2M3 ge::DT_FLOAT6_E2M3
#endif
#ifndef C_DT_FLOAT4_E2M1
#define C_DT_FLOAT4_E2M1 ge::DT_FLOAT4_E2M1
#endif
#ifndef C_DT_FLOAT4_E1M2
#define C_DT_FLOAT4_E1M2 ge::DT_FLOAT4_E1M2
#endif
#ifndef C_DT_HIFLOAT4
#define C_DT_HIFLOAT4 ge::DT_HIFLOAT4
#endif
#ifndef C_DT_MAX
#define C_DT_MAX ge::DT_MAX
#endif

#endif  // OPSNN_HOST_GRAPH_C_TYPES_H_
