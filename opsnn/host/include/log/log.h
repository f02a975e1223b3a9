/* opsnn host twin: opbase's operator log and check macros (OP_LOGE/W/I/D, OP_CHECK_IF,
 * OP_CHECK_NULL_WITH_CONTEXT, the OP_LOGE_FOR_INVALID_* family, ...).
 *
 * A line goes to stderr as "[ERROR] <file>:<line> <function> OpName:[<type:name>] <message>".
 * Errors always print; warnings, info and debug print when ASCEND_GLOBAL_LOG_LEVEL is at or
 * below their level (0 debug, 1 info, 2 warning, 3 error: CANN's scale and default). Error lines
 * are also kept per thread, so RunTiling can say what a failing tiling logged. The first argument
 * names the operator: a context (its node type and name), a C string or a std::string. */
#ifndef OPSNN_HOST_LOG_LOG_H_
#define OPSNN_HOST_LOG_LOG_H_

#include <cinttypes>
#include <cstdint>
#include <map>
#include <set>  // operator headers use std::set/map having included only this, as CANN's brings them
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "base/err_msg.h"
#include "exe_graph/runtime/shape.h"
#include "graph/ge_error_codes.h"
#include "graph/types.h"
#include "op_common/op_host/util/opbase_export.h"

#ifndef DLOG_DEBUG
#define DLOG_DEBUG 0
#endif
#ifndef DLOG_INFO
#define DLOG_INFO 1
#endif
#ifndef DLOG_WARN
#define DLOG_WARN 2
#endif
#ifndef DLOG_ERROR
#define DLOG_ERROR 3
#endif
constexpr int32_t OP_MODULE_ID = 63;

namespace opsnn_host {
/* Whether a line of this level prints (errors always do). */
bool OpLogEnabled(int level);
/* Prints one log line (and keeps it, for an error). */
void OpLogLine(int level, const char *file, int line, const char *function, const char *op, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
}  // namespace opsnn_host

namespace Ops {
namespace Base {
#ifndef OP_SUBMOD_NAME
#define OP_SUBMOD_NAME "OPS_BASE"
#endif

template <class T>
typename std::enable_if<std::is_same<const char *, typename std::decay<T>::type>::value, const char *>::type GetSafeStr(
    T name) {
    return name;
}
template <class T>
typename std::enable_if<std::is_same<char *, typename std::decay<T>::type>::value, const char *>::type GetSafeStr(T name) {
    return name;
}
template <class T>
typename std::enable_if<std::is_same<std::string, typename std::decay<T>::type>::value, const char *>::type GetSafeStr(
    const T &name) {
    return name.c_str();
}

inline const std::string &GetOpInfo(const std::string &str) { return str; }
inline const char *GetOpInfo(const char *str) { return str == nullptr ? "nil" : str; }
template <class T>
constexpr bool IsContextType() {
    return !std::is_same<const char *, typename std::decay<T>::type>::value &&
           !std::is_same<char *, typename std::decay<T>::type>::value &&
           !std::is_same<std::string, typename std::decay<T>::type>::value;
}
/* A context names its operator "<node type>:<node name>". */
template <class T>
typename std::enable_if<IsContextType<T>(), std::string>::type GetOpInfo(T context) {
    if (context == nullptr) {
        return "nil:nil";
    }
    std::string info = context->GetNodeType() != nullptr ? context->GetNodeType() : "nil";
    info += ":";
    info += context->GetNodeName() != nullptr ? context->GetNodeName() : "nil";
    return info;
}

OPBASE_API std::string ToString(ge::DataType type);
OPBASE_API std::string ToString(ge::Format format);
OPBASE_API std::string ToString(const gert::Shape &shape);
OPBASE_API std::string ToString(const std::vector<const gert::Shape *> &v);
}  // namespace Base
}  // namespace Ops

#ifndef unlikely
#define unlikely(x) __builtin_expect((x), 0)
#endif
#ifndef likely
#define likely(x) __builtin_expect((x), 1)
#endif

/* One line at `level` for the operator `opInfo` names (already a string). */
#define OPSNN_OP_LOG_AT(level, opInfo, fmt, ...)                                                            \
    do {                                                                                                    \
        if (opsnn_host::OpLogEnabled(level)) {                                                              \
            opsnn_host::OpLogLine(level, __FILE__, __LINE__, __FUNCTION__, Ops::Base::GetSafeStr(opInfo), fmt, \
                                  ##__VA_ARGS__);                                                           \
        }                                                                                                   \
    } while (0)

#define OpLogSub(moduleId, level, opInfo, fmt, ...) OPSNN_OP_LOG_AT(level, opInfo, fmt, ##__VA_ARGS__)
#define OpLogErrSub(moduleId, level, opInfo, fmt, ...) OPSNN_OP_LOG_AT(level, opInfo, fmt, ##__VA_ARGS__)
#define D_OP_LOGI(opName, fmt, ...) OPSNN_OP_LOG_AT(DLOG_INFO, opName, fmt, ##__VA_ARGS__)
#define D_OP_LOGW(opName, fmt, ...) OPSNN_OP_LOG_AT(DLOG_WARN, opName, fmt, ##__VA_ARGS__)
#define D_OP_LOGE(opName, fmt, ...) OPSNN_OP_LOG_AT(DLOG_ERROR, opName, fmt, ##__VA_ARGS__)
#define D_OP_LOGD(opName, fmt, ...) OPSNN_OP_LOG_AT(DLOG_DEBUG, opName, fmt, ##__VA_ARGS__)

#define OP_LOGE_LIBOPAPI_REPORT(opName, fmt, ...) \
    OPSNN_OP_LOG_AT(DLOG_ERROR, Ops::Base::GetOpInfo(opName), fmt, ##__VA_ARGS__)
#define OP_LOGI(opName, ...) D_OP_LOGI(Ops::Base::GetOpInfo(opName), __VA_ARGS__)
#define OP_LOGW(opName, ...) D_OP_LOGW(Ops::Base::GetOpInfo(opName), __VA_ARGS__)
#define OP_LOGD(opName, ...) D_OP_LOGD(Ops::Base::GetOpInfo(opName), __VA_ARGS__)
#define OP_LOGE_WITHOUT_REPORT(opName, ...) OP_LOGE_LIBOPAPI_REPORT(opName, __VA_ARGS__)
#define OP_LOGE(opName, ...) OP_LOGE_LIBOPAPI_REPORT(opName, ##__VA_ARGS__)

#define OP_CHECK_IF(condition, log, return_expr) \
    do {                                         \
        if (unlikely(condition)) {               \
            log;                                 \
            return_expr;                         \
        }                                        \
    } while (0)

/* Logs "<ptr> is nullptr!" for the context's node and returns GRAPH_FAILED. */
#define OP_CHECK_NULL_WITH_CONTEXT(context, ptr)                                                                   \
    do {                                                                                                           \
        if (unlikely((ptr) == nullptr)) {                                                                          \
            const char *opsnn_node_name_ =                                                                         \
                ((context) == nullptr || (context)->GetNodeName() == nullptr) ? "nil" : (context)->GetNodeName(); \
            OP_LOGE(opsnn_node_name_, "%s is nullptr!", #ptr);                                                     \
            return ge::GRAPH_FAILED;                                                                               \
        }                                                                                                          \
    } while (0)

/* The OP_LOGE_FOR_* / OP_LOGE_WITH_* family: one error line, worded from their arguments (any of
 * std::string, const char*, a string literal). */
#define OPSNN_OP_LOGE_TEXT(entity, text)                                              \
    do {                                                                              \
        const std::string opsnn_entity_(entity);                                      \
        const std::string opsnn_text_(text);                                          \
        OP_LOGE_LIBOPAPI_REPORT(opsnn_entity_.c_str(), "%s", opsnn_text_.c_str());   \
    } while (0)
#define OPSNN_S(x) std::string(x)
/* "<what> of <param> of <entity> is <got>; expected <want>" */
#define OPSNN_OP_LOGE_EXPECT(entity, what, param, got, want)                                                   \
    OPSNN_OP_LOGE_TEXT(entity, OPSNN_S(what) + " of " + OPSNN_S(param) + " of " + OPSNN_S(entity) + " is " + \
                                   OPSNN_S(got) + "; expected " + OPSNN_S(want) + ".")
/* "<what> of <param> of <entity> is <got>, which is invalid: <reason>" */
#define OPSNN_OP_LOGE_REASON(entity, what, param, got, reason)                                                 \
    OPSNN_OP_LOGE_TEXT(entity, OPSNN_S(what) + " of " + OPSNN_S(param) + " of " + OPSNN_S(entity) + " is " + \
                                   OPSNN_S(got) + ", which is invalid: " + OPSNN_S(reason) + ".")

#define OP_LOGE_WITH_INVALID_INPUT_SHAPE(e, index, got, want) \
    OPSNN_OP_LOGE_EXPECT(e, "the shape", "input " + std::to_string(index), got, want)
#define OP_LOGE_WITH_INVALID_ATTR(e, attr, got, want) OPSNN_OP_LOGE_EXPECT(e, "the value", "attribute " + OPSNN_S(attr), got, want)
#define OP_LOGE_WITH_INVALID_ATTR_SIZE(e, attr, got, want) \
    OPSNN_OP_LOGE_EXPECT(e, "the size", "attribute " + OPSNN_S(attr), got, want)
#define OP_LOGE_WITH_INVALID_INPUT(e, param) \
    OPSNN_OP_LOGE_TEXT(e, OPSNN_S(param) + " of " + OPSNN_S(e) + " is required but was not given.")
#define OP_LOGE_WITH_INVALID_INPUT_SHAPESIZE(e, index, got, want) \
    OPSNN_OP_LOGE_EXPECT(e, "the shape size", "input " + std::to_string(index), got, want)
#define OP_LOGE_WITH_INVALID_INPUT_FORMAT(e, param, got, want) OPSNN_OP_LOGE_EXPECT(e, "the format", param, got, want)
#define OP_LOGE_WITH_INVALID_INPUT_DTYPE(e, param, got, want) OPSNN_OP_LOGE_EXPECT(e, "the dtype", param, got, want)
#define OP_LOGE_FOR_INVALID_SHAPE(e, param, got, want) OPSNN_OP_LOGE_EXPECT(e, "the shape", param, got, want)
#define OP_LOGE_FOR_INVALID_SHAPE_WITH_REASON(e, param, got, why) OPSNN_OP_LOGE_REASON(e, "the shape", param, got, why)
#define OP_LOGE_FOR_INVALID_SHAPES_WITH_REASON(e, params, got, why) OPSNN_OP_LOGE_REASON(e, "the shapes", params, got, why)
#define OP_LOGE_FOR_INVALID_SHAPEDIM(e, param, got, want) OPSNN_OP_LOGE_EXPECT(e, "the dim count", param, got, want)
#define OP_LOGE_FOR_INVALID_SHAPEDIM_WITH_REASON(e, param, got, why) \
    OPSNN_OP_LOGE_REASON(e, "the dim count", param, got, why)
#define OP_LOGE_FOR_INVALID_SHAPEDIMS_WITH_REASON(e, params, got, why) \
    OPSNN_OP_LOGE_REASON(e, "the dim counts", params, got, why)
#define OP_LOGE_FOR_INVALID_SHAPESIZE(e, param, got, want) OPSNN_OP_LOGE_EXPECT(e, "the shape size", param, got, want)
#define OP_LOGE_FOR_INVALID_SHAPESIZE_WITH_REASON(e, param, got, why) \
    OPSNN_OP_LOGE_REASON(e, "the shape size", param, got, why)
#define OP_LOGE_FOR_INVALID_SHAPESIZES_WITH_REASON(e, params, got, why) \
    OPSNN_OP_LOGE_REASON(e, "the shape sizes", params, got, why)
#define OP_LOGE_FOR_INVALID_FORMAT(e, param, got, want) OPSNN_OP_LOGE_EXPECT(e, "the format", param, got, want)
#define OP_LOGE_FOR_INVALID_FORMAT_WITH_REASON(e, param, got, why) OPSNN_OP_LOGE_REASON(e, "the format", param, got, why)
#define OP_LOGE_FOR_INVALID_FORMATS_WITH_REASON(e, params, got, why) \
    OPSNN_OP_LOGE_REASON(e, "the formats", params, got, why)
#define OP_LOGE_FOR_INVALID_DTYPE(e, param, got, want) OPSNN_OP_LOGE_EXPECT(e, "the dtype", param, got, want)
#define OP_LOGE_FOR_INVALID_DTYPE_WITH_REASON(e, param, got, why) OPSNN_OP_LOGE_REASON(e, "the dtype", param, got, why)
#define OP_LOGE_FOR_INVALID_DTYPES_WITH_REASON(e, params, got, why) OPSNN_OP_LOGE_REASON(e, "the dtypes", params, got, why)
#define OP_LOGE_FOR_INVALID_TENSORNUM(e, param, got, want) OPSNN_OP_LOGE_EXPECT(e, "the tensor count", param, got, want)
#define OP_LOGE_FOR_INVALID_TENSORNUMS_WITH_REASON(e, params, got, why) \
    OPSNN_OP_LOGE_REASON(e, "the tensor counts", params, got, why)
#define OP_LOGE_FOR_INVALID_VALUE(e, param, got, want) OPSNN_OP_LOGE_EXPECT(e, "the value", param, got, want)
#define OP_LOGE_FOR_INVALID_LISTSIZE(e, param, got, want) OPSNN_OP_LOGE_EXPECT(e, "the list size", param, got, want)
#define OP_LOGE_FOR_INVALID_LISTSIZE_WITH_REASON(e, param, got, why) \
    OPSNN_OP_LOGE_REASON(e, "the list size", param, got, why)
#define OP_LOGE_FOR_INVALID_VALUE_WITH_REASON(e, param, got, why) OPSNN_OP_LOGE_REASON(e, "the value", param, got, why)
#define OP_LOGE_FOR_INVALID_VALUES_WITH_REASON(e, params, got, why) OPSNN_OP_LOGE_REASON(e, "the values", params, got, why)
#define OP_LOGE_FOR_INVALID_STRIDE(e, param, got, want) OPSNN_OP_LOGE_EXPECT(e, "the stride", param, got, want)
#define OP_LOGE_FOR_INVALID_ARGUMENT_WITH_REASON(e, param, why) \
    OPSNN_OP_LOGE_TEXT(e, OPSNN_S(param) + " of " + OPSNN_S(e) + " is invalid: " + OPSNN_S(why) + ".")
#define OP_LOGE_FOR_FILE_PATH(op, path, why) OPSNN_OP_LOGE_TEXT(op, "file path " + OPSNN_S(path) + ": " + OPSNN_S(why))
#define OP_LOGE_FOR_FILE_OPEN(op, path, why) OPSNN_OP_LOGE_TEXT(op, "cannot open " + OPSNN_S(path) + ": " + OPSNN_S(why))
#define OP_LOGE_FOR_FILE_PARSE(op, name, why) OPSNN_OP_LOGE_TEXT(op, "cannot parse " + OPSNN_S(name) + ": " + OPSNN_S(why))
#define OP_LOGE_FOR_INVALID_CONFIG(op, file, item, value, want) \
    OPSNN_OP_LOGE_EXPECT(op, "config item " + OPSNN_S(item), file, value, want)
#define OP_LOGE_FOR_INVALID_CONFIG_WITH_REASON(op, file, item, value, why) \
    OPSNN_OP_LOGE_REASON(op, "config item " + OPSNN_S(item), file, value, why)
#define OP_LOGE_FOR_INVALID_CONFIGS_WITH_REASON(op, file, items, values, why) \
    OPSNN_OP_LOGE_REASON(op, "config items " + OPSNN_S(items), file, values, why)
#define OP_LOGE_FOR_INVALID_GRAPH_NODE(node, why) OPSNN_OP_LOGE_TEXT(node, "graph node " + OPSNN_S(node) + ": " + OPSNN_S(why))

#endif  // OPSNN_HOST_LOG_LOG_H_
