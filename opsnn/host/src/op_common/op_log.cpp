/* The log line behind log/log.h's macros, and opbase's ToString helpers. */
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "graph/utils/type_utils.h"
#include "log/log.h"
#include "op_common/captured_errors.h"

namespace opsnn_host {
namespace {
/* ASCEND_GLOBAL_LOG_LEVEL (0 debug .. 3 error), read once; CANN's default is error. */
int Threshold() {
    static const int level = [] {
        const char *text = std::getenv("ASCEND_GLOBAL_LOG_LEVEL");
        if (text == nullptr || *text < '0' || *text > '4') {
            return DLOG_ERROR;
        }
        return *text - '0';
    }();
    return level;
}

const char *LevelName(int level) {
    switch (level) {
        case DLOG_DEBUG: return "DEBUG";
        case DLOG_INFO: return "INFO";
        case DLOG_WARN: return "WARNING";
        default: return "ERROR";
    }
}

thread_local std::vector<std::string> t_errors;
}  // namespace

bool OpLogEnabled(int level) { return level >= DLOG_ERROR || level >= Threshold(); }

void OpLogLine(int level, const char *file, int line, const char *function, const char *op, const char *fmt, ...) {
    char message[2048];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(message, sizeof(message), fmt == nullptr ? "" : fmt, args);
    va_end(args);
    const char *base = file == nullptr ? "?" : file;
    std::fprintf(stderr, "[%s] %s:%d %s OpName:[%s] %s\n", LevelName(level), base, line,
                 function == nullptr ? "?" : function, op == nullptr ? "nil" : op, message);
    if (level >= DLOG_ERROR) {
        t_errors.push_back(std::string(base) + ":" + std::to_string(line) + ": " + message);
    }
}

std::vector<std::string> TakeCapturedErrors() {
    std::vector<std::string> out;
    out.swap(t_errors);
    return out;
}
}  // namespace opsnn_host

namespace Ops {
namespace Base {
std::string ToString(ge::DataType type) { return ge::TypeUtils::DataTypeToSerialString(type); }
std::string ToString(ge::Format format) { return ge::TypeUtils::FormatToSerialString(format); }
std::string ToString(const gert::Shape &shape) {
    std::ostringstream out;
    out << "[";
    for (size_t i = 0; i < shape.GetDimNum(); ++i) {
        out << (i == 0 ? "" : ", ") << shape.GetDim(i);
    }
    out << "]";
    return out.str();
}
std::string ToString(const std::vector<const gert::Shape *> &v) {
    std::string out = "[";
    for (size_t i = 0; i < v.size(); ++i) {
        out += (i == 0 ? "" : ", ") + ToString(*v[i]);
    }
    return out + "]";
}
}  // namespace Base
}  // namespace Ops
