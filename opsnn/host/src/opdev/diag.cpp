/* Host-side messages (opsnn_host/diag.h): printing by CANN's log switches, and the per-thread
 * list aclGetRecentErrMsg reads. */
#include "opsnn_host/diag.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>

namespace opsnn_host {
namespace diag {
namespace {

/* Reported messages kept per thread (newest last); a bound keeps a failing loop from growing it. */
constexpr size_t kKeptMessages = 64;
thread_local std::deque<std::string> t_recent;
thread_local uint64_t t_reported = 0;

int ThresholdFromEnv() {
    const char *v = std::getenv("ASCEND_GLOBAL_LOG_LEVEL");
    if (v == nullptr || *v < '0' || *v > '4' || v[1] != '\0') {
        return kError;
    }
    return *v - '0';
}

const char *LevelName(Level level) {
    switch (level) {
        case kDebug:
            return "DEBUG";
        case kInfo:
            return "INFO";
        case kWarning:
            return "WARNING";
        default:
            return "ERROR";
    }
}

const char *BaseName(const char *file) {
    if (file == nullptr) {
        return "?";
    }
    const char *slash = std::strrchr(file, '/');
    return slash != nullptr ? slash + 1 : file;
}

}  // namespace

bool Enabled(Level level) { return static_cast<int>(level) >= ThresholdFromEnv(); }

void Emit(Level level, const char *layer, const char *file, int line, int32_t status, bool report,
          const std::string &text) {
    /* "op_api aclnn_x.cpp:42: ..." where the place is known; "acl: ..." for a runtime call */
    std::string message = std::string(layer) + (file != nullptr && line > 0
                                                    ? " " + std::string(BaseName(file)) + ":" + std::to_string(line)
                                                    : std::string()) + ": " + text;
    if (status != kNoStatus) {
        message += " (status " + std::to_string(status) + ")";
    }
    if (report && level == kError) {
        ++t_reported;
        Keep(message);
    }
    if (!Enabled(level)) {
        return;
    }
    const char *to_stdout = std::getenv("ASCEND_SLOG_PRINT_TO_STDOUT");
    FILE *out = (to_stdout != nullptr && std::strcmp(to_stdout, "1") == 0) ? stdout : stderr;
    std::fprintf(out, "[%s] %s\n", LevelName(level), message.c_str());
    std::fflush(out);
}

void Log(Level level, const char *layer, const char *file, int line, const char *func, int32_t status, bool report,
         const char *fmt, ...) {
    if (!report && !Enabled(level)) {
        return;  // nothing to keep and nothing to print: skip the formatting
    }
    char buffer[2048];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(buffer, sizeof(buffer), fmt, args);
    va_end(args);
    std::string text = func != nullptr ? std::string(func) + ": " + buffer : std::string(buffer);
    Emit(level, layer, file, line, status, report, text);
}

void Keep(const std::string &text) {
    t_recent.push_back(text);
    if (t_recent.size() > kKeptMessages) {
        t_recent.pop_front();
    }
}

std::string TakeRecentErrors() {
    std::string text;
    for (auto it = t_recent.rbegin(); it != t_recent.rend(); ++it) {
        text += (text.empty() ? "" : "\n") + *it;
    }
    t_recent.clear();
    return text;
}

void ClearRecentErrors() { t_recent.clear(); }

uint64_t ReportedCount() { return t_reported; }

}  // namespace diag
}  // namespace opsnn_host
