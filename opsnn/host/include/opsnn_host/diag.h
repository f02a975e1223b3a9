/* opsnn host twin: the one place host-side messages go (not a CANN interface).
 *
 * Every message names its layer ("op_api", "acl", "op_host tiling", ...), the source file and
 * line, and where one applies the aclnn / acl status. Errors that are reported (OP_LOGE, the acl
 * runtime's refusals) are also kept for aclGetRecentErrMsg, per thread, newest first.
 *
 * What is printed follows CANN's log switches: ASCEND_GLOBAL_LOG_LEVEL (0 debug, 1 info,
 * 2 warning, 3 error, 4 nothing; default 3) picks the least severe level shown, and
 * ASCEND_SLOG_PRINT_TO_STDOUT=1 prints to stdout instead of stderr. CANN writes these to its log
 * files by default; opsnn has none, so errors reach the terminal. */
#ifndef OPSNN_HOST_DIAG_H_
#define OPSNN_HOST_DIAG_H_

#include <cstdint>
#include <string>

namespace opsnn_host {
namespace diag {

enum Level : int { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3 };
constexpr int32_t kNoStatus = -1;

/* Formats and emits one message; `report` keeps it for aclGetRecentErrMsg too. */
void Log(Level level, const char *layer, const char *file, int line, const char *func, int32_t status, bool report,
         const char *fmt, ...) __attribute__((format(printf, 8, 9)));

/* A message already formatted (a refusal the runtime composes, a tiling's or a kernel's text). */
void Emit(Level level, const char *layer, const char *file, int line, int32_t status, bool report,
          const std::string &text);

/* Keeps a message for aclGetRecentErrMsg without printing it (the caller printed it its own way). */
void Keep(const std::string &text);

/* This thread's reported messages not yet read, newest first, then cleared; empty when none. */
std::string TakeRecentErrors();
void ClearRecentErrors();

bool Enabled(Level level);

/* How many errors this thread has reported so far (a phase compares it before and after). */
uint64_t ReportedCount();

}  // namespace diag
}  // namespace opsnn_host

#endif  // OPSNN_HOST_DIAG_H_
