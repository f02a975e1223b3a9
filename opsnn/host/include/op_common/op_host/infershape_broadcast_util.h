/* opsnn host twin: broadcasting shape inference (numpy's rule, with -1 an unknown dim that
 * takes the other side's and [-2] an unknown rank that stays unknown). */
#ifndef OPSNN_HOST_OP_COMMON_OP_HOST_INFERSHAPE_BROADCAST_UTIL_H_
#define OPSNN_HOST_OP_COMMON_OP_HOST_INFERSHAPE_BROADCAST_UTIL_H_

#include <cstddef>
#include <vector>

#include "exe_graph/runtime/infer_shape_context.h"
#include "op_common/op_host/util/opbase_export.h"

namespace Ops {
namespace Base {
/* Output 0 is inputs 0 and 1 broadcast; GRAPH_FAILED (logged) where they do not. */
OPBASE_API ge::graphStatus InferShape4Broadcast(gert::InferShapeContext *context);
/* The same over the first inputNum inputs. */
OPBASE_API ge::graphStatus InferShape4Broadcast(gert::InferShapeContext *context, size_t inputNum);
OPBASE_API bool BroadcastShape(const gert::Shape *in1Shape, const gert::Shape *in2Shape, gert::Shape *outShape);
OPBASE_API bool BroadcastShape(const std::vector<const gert::Shape *> &inShapes, gert::Shape *outShape);
}  // namespace Base
}  // namespace Ops

#endif  // OPSNN_HOST_OP_COMMON_OP_HOST_INFERSHAPE_BROADCAST_UTIL_H_
