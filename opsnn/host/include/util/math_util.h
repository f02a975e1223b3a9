/* opsnn host twin: util/math_util.h, the short path operator code includes it by. */
#ifndef OPSNN_HOST_UTIL_MATH_UTIL_H_
#define OPSNN_HOST_UTIL_MATH_UTIL_H_
#include "op_common/op_host/util/math_util.h"
#endif
