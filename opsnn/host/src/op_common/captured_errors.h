/* Error lines the log macros printed on this thread (RunTiling quotes a failing tiling's). */
#ifndef OPSNN_HOST_SRC_OP_COMMON_CAPTURED_ERRORS_H_
#define OPSNN_HOST_SRC_OP_COMMON_CAPTURED_ERRORS_H_

#include <string>
#include <vector>

namespace opsnn_host {
/* "file:line: message" for each error logged since the last call; clears them. */
std::vector<std::string> TakeCapturedErrors();
}  // namespace opsnn_host

#endif  // OPSNN_HOST_SRC_OP_COMMON_CAPTURED_ERRORS_H_
