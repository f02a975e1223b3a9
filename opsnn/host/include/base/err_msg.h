/* opsnn host twin: the error-message report macros CANN's log macros call beside their log line.
 * The log line (log/log.h) already carries the message, so the report itself records nothing. */
#ifndef OPSNN_HOST_BASE_ERR_MSG_H_
#define OPSNN_HOST_BASE_ERR_MSG_H_

#include <vector>

namespace opsnn_host {
inline void IgnoreErrorReport(const char *, ...) {}
inline void IgnorePredefinedReport(const char *, const std::vector<const char *> &, const std::vector<const char *> &) {}
}  // namespace opsnn_host

#define REPORT_INNER_ERR_MSG(error_code, ...) opsnn_host::IgnoreErrorReport(error_code, ##__VA_ARGS__)
#define REPORT_PREDEFINED_ERR_MSG(error_code, keys, values) opsnn_host::IgnorePredefinedReport(error_code, keys, values)

#endif  // OPSNN_HOST_BASE_ERR_MSG_H_
