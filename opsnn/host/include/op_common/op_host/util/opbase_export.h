/* opsnn host twin: OPBASE_API, the export marker opbase's declarations carry (default visibility). */
#ifndef OPSNN_HOST_OP_COMMON_OP_HOST_UTIL_OPBASE_EXPORT_H_
#define OPSNN_HOST_OP_COMMON_OP_HOST_UTIL_OPBASE_EXPORT_H_
#ifndef OPBASE_API
#define OPBASE_API __attribute__((visibility("default")))
#endif
#endif  // OPSNN_HOST_OP_COMMON_OP_HOST_UTIL_OPBASE_EXPORT_H_
