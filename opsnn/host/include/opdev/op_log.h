/* opsnn host twin: opdev/op_log.h -- the log and check macros op_api code is written with.
 *
 * OP_LOGE(status, fmt, ...) reports an error: printed (opsnn_host/diag.h says where) as
 * "[ERROR] op_api <file>:<line> <function>: <message> (status N)" and kept for
 * aclGetRecentErrMsg. OP_LOGE_WITHOUT_REPORT prints without keeping it, as CANN's logs without
 * reporting. CHECK_RET(cond, ret) returns ret when cond is false and logs which check failed. */
#ifndef OPSNN_HOST_OPDEV_OP_LOG_H_
#define OPSNN_HOST_OPDEV_OP_LOG_H_

#include <cstdint>
#include <cstdio>

#include "opdev/op_errno.h"
#include "opsnn_host/diag.h"

#define OPSNN_OP_API_LOG(level, status, report, ...)                                                        \
    ::opsnn_host::diag::Log(::opsnn_host::diag::level, "op_api", __FILE__, __LINE__, __func__, (status), report, \
                            __VA_ARGS__)

#define OP_LOGE(status, ...) OPSNN_OP_API_LOG(kError, static_cast<int32_t>(status), true, __VA_ARGS__)
#define OP_LOGE_WITHOUT_REPORT(status, ...) OPSNN_OP_API_LOG(kError, static_cast<int32_t>(status), false, __VA_ARGS__)
#define OP_LOGW(...) OPSNN_OP_API_LOG(kWarning, ::opsnn_host::diag::kNoStatus, false, __VA_ARGS__)
#define OP_LOGI(...) OPSNN_OP_API_LOG(kInfo, ::opsnn_host::diag::kNoStatus, false, __VA_ARGS__)
#define OP_LOGD(...) OPSNN_OP_API_LOG(kDebug, ::opsnn_host::diag::kNoStatus, false, __VA_ARGS__)
#define OP_EVENT(...) OPSNN_OP_API_LOG(kInfo, ::opsnn_host::diag::kNoStatus, false, __VA_ARGS__)

#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif

#define OP_CHECK_NOTNULL(val)                                                          \
    do {                                                                               \
        if (unlikely((val) == nullptr)) {                                              \
            OP_LOGE(ACLNN_ERR_INNER_NULLPTR, "%s is nullptr.", #val);                  \
            return ACLNN_ERR_INNER_NULLPTR;                                            \
        }                                                                              \
    } while (false)

#define RET_IF_NOT_SUCCESS(x)

#define CHECK_RET(condition, ret_value)                                                \
    do {                                                                               \
        if (unlikely(!(condition))) {                                                  \
            OP_LOGE_WITHOUT_REPORT(ACLNN_ERR_INNER, "check %s failed.", #condition);   \
            return ret_value;                                                          \
        }                                                                              \
    } while (false)

#define CHECK_RET_CODE(func, fmt, ...)                                                 \
    do {                                                                               \
        aclnnStatus opsnnRetCode_ = (func);                                            \
        if (unlikely(opsnnRetCode_ != ACLNN_SUCCESS)) {                                \
            OP_LOGE(opsnnRetCode_, fmt, ##__VA_ARGS__);                                \
            return opsnnRetCode_;                                                      \
        }                                                                              \
    } while (false)

#define OP_CHECK(cond, log_func, return_expr)                                          \
    do {                                                                               \
        if (unlikely(!(cond))) {                                                       \
            log_func;                                                                  \
            return_expr;                                                               \
        }                                                                              \
    } while (false)

#define OP_CHECK_NO_RETURN(cond, log_func)                                             \
    do {                                                                               \
        if (unlikely(!(cond))) {                                                       \
            log_func;                                                                  \
        }                                                                              \
    } while (false)

#define CHECK_COND(cond, ret, fmt, ...)                                                \
    do {                                                                               \
        if (unlikely(!(cond))) {                                                       \
            OP_LOGE(ret, fmt, ##__VA_ARGS__);                                          \
            return ret;                                                                \
        }                                                                              \
    } while (false)

#endif  // OPSNN_HOST_OPDEV_OP_LOG_H_
