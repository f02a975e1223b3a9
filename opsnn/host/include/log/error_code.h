/* opsnn host twin: log/error_code.h, the short path of op_common/log/error_code.h. */
#ifndef OPSNN_HOST_LOG_ERROR_CODE_H_
#define OPSNN_HOST_LOG_ERROR_CODE_H_
#include "op_common/log/error_code.h"
#endif
