/* opsnn host twin: InferShape4Elewise -- output 0 takes input 0's shape (unknown rank stays so). */
#ifndef OPSNN_HOST_OP_COMMON_OP_HOST_INFERSHAPE_ELEWISE_UTIL_H_
#define OPSNN_HOST_OP_COMMON_OP_HOST_INFERSHAPE_ELEWISE_UTIL_H_

#include "exe_graph/runtime/infer_shape_context.h"
#include "op_common/op_host/util/opbase_export.h"

namespace Ops {
namespace Base {
OPBASE_API ge::graphStatus InferShape4Elewise(gert::InferShapeContext *context);
}  // namespace Base
}  // namespace Ops

#endif  // OPSNN_HOST_OP_COMMON_OP_HOST_INFERSHAPE_ELEWISE_UTIL_H_
