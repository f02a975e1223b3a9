/* opsnn host twin: opbase's shape helpers -- unknown rank is the shape [-2], an unknown dim -1. */
#ifndef OPSNN_HOST_OP_COMMON_OP_HOST_UTIL_SHAPE_UTIL_H_
#define OPSNN_HOST_OP_COMMON_OP_HOST_UTIL_SHAPE_UTIL_H_

#include <cstdint>

#include "exe_graph/runtime/shape.h"
#include "op_common/op_host/util/opbase_export.h"

namespace Ops {
namespace Base {
/* axis in [-dimNum, dimNum - 1]; only 0 for a scalar. */
template <typename T1, typename T2>
bool CheckAxisBounds(const T1 dimNum, const T2 axis) {
    const int64_t n = static_cast<int64_t>(dimNum);
    const int64_t a = static_cast<int64_t>(axis);
    return n == 0 ? a == 0 : (a >= -n && a <= n - 1);
}
OPBASE_API void SetUnknownRank(gert::Shape &shape);
OPBASE_API bool IsUnknownRank(const gert::Shape &shape);
/* rank dims of -1; a negative rank is refused (logged, shape unchanged). */
OPBASE_API void SetUnknownShape(int64_t rank, gert::Shape &shape);
OPBASE_API bool IsUnknownShape(const gert::Shape &shape);
}  // namespace Base
}  // namespace Ops

#endif  // OPSNN_HOST_OP_COMMON_OP_HOST_UTIL_SHAPE_UTIL_H_
