/* opsnn host twin: util/shape_util.h, the short path operator code includes it by. */
#ifndef OPSNN_HOST_UTIL_SHAPE_UTIL_H_
#define OPSNN_HOST_UTIL_SHAPE_UTIL_H_
#include "op_common/op_host/util/shape_util.h"
#endif
