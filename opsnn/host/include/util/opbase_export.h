/* opsnn host twin: util/opbase_export.h, the short path operator code includes it by. */
#ifndef OPSNN_HOST_UTIL_OPBASE_EXPORT_H_
#define OPSNN_HOST_UTIL_OPBASE_EXPORT_H_
#include "op_common/op_host/util/opbase_export.h"
#endif
