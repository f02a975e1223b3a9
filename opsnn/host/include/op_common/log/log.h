/* opsnn host twin: op_common/log/log.h, the path newer operator code includes log/log.h by. */
#ifndef OPSNN_HOST_OP_COMMON_LOG_LOG_H_
#define OPSNN_HOST_OP_COMMON_LOG_LOG_H_
#include "log/log.h"
#endif  // OPSNN_HOST_OP_COMMON_LOG_LOG_H_
