/* opsnn host twin: opbase's op_common/op_host/tiling_base_util.h -- the tiling helpers an operator's
 * op_host tiling (and so its kernel UT, which includes that tiling's header) names: whether the
 * SoC has the register-based vector unit (Ascend950: DAV_3510, DAV_5102), and a 0-d shape tiled
 * as [1]. Header-only here. */
#ifndef OPSNN_HOST_OP_COMMON_TILING_BASE_UTIL_H_
#define OPSNN_HOST_OP_COMMON_TILING_BASE_UTIL_H_

#include "exe_graph/runtime/shape.h"
#include "exe_graph/runtime/tiling_context.h"
#include "exe_graph/runtime/tiling_parse_context.h"
#include "platform/soc_spec.h"
#include "tiling/platform/platform_ascendc.h"

namespace Ops {
namespace Base {
inline bool IsRegbaseSocVersion(NpuArch arch) { return arch == NpuArch::DAV_3510 || arch == NpuArch::DAV_5102; }
inline bool IsRegbaseSocVersion(const gert::TilingParseContext *context) {
    return IsRegbaseSocVersion(platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCurNpuArch());
}
inline bool IsRegbaseSocVersion(const gert::TilingContext *context) {
    return IsRegbaseSocVersion(platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCurNpuArch());
}

const gert::Shape g_vec_1_shape = {1};
/* a 0-d shape is tiled as [1] */
inline const gert::Shape &EnsureNotScalar(const gert::Shape &inShape) {
    return inShape.IsScalar() ? g_vec_1_shape : inShape;
}
}  // namespace Base
}  // namespace Ops

#endif  // OPSNN_HOST_OP_COMMON_TILING_BASE_UTIL_H_
