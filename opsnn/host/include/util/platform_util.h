/* opsnn host twin: util/platform_util.h, the short path operator code includes it by. */
#ifndef OPSNN_HOST_UTIL_PLATFORM_UTIL_H_
#define OPSNN_HOST_UTIL_PLATFORM_UTIL_H_
#include "op_common/op_host/util/platform_util.h"
#endif
