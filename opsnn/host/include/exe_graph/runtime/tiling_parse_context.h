/* opsnn host twin: gert::TilingParseContext -- what an operator's TilingParse reads (the compiled
 * JSON, the platform infos) and the compile-info object it fills. Input slots: JSON, platform
 * infos, node type; output slot 0: the compile info pointer. */
#ifndef OPSNN_HOST_EXE_GRAPH_RUNTIME_TILING_PARSE_CONTEXT_H_
#define OPSNN_HOST_EXE_GRAPH_RUNTIME_TILING_PARSE_CONTEXT_H_

#include <type_traits>

#include "exe_graph/runtime/extended_kernel_context.h"
#include "graph/types.h"

namespace fe {
class PlatFormInfos;
}  // namespace fe

namespace gert {
class TilingParseContext : public ExtendedKernelContext {
public:
    const ge::char_t *GetCompiledJson() const { return GetInputValue<const char *>(0); }
    template <typename T>
    T *GetCompiledInfo() {
        Chain *slot = GetOutput(0);
        return slot == nullptr ? nullptr : slot->GetValue<T *>();
    }
    fe::PlatFormInfos *GetPlatformInfo() const { return GetInputValue<fe::PlatFormInfos *>(1); }
};
static_assert(std::is_standard_layout<TilingParseContext>::value, "contexts are views of one KernelRunContext");
}  // namespace gert

#endif  // OPSNN_HOST_EXE_GRAPH_RUNTIME_TILING_PARSE_CONTEXT_H_
