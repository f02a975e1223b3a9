/* opsnn host twin: util/const_util.h, the short path operator code includes it by. */
#ifndef OPSNN_HOST_UTIL_CONST_UTIL_H_
#define OPSNN_HOST_UTIL_CONST_UTIL_H_
#include "op_common/op_host/util/const_util.h"
#endif
