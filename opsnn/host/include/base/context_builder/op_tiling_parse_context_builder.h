/* opsnn host twin: gert::OpTilingParseContextBuilder -- a TilingParseContext from the compiled
 * JSON and platform infos (both required) and the compile-info object TilingParse fills. */
#ifndef OPSNN_HOST_BASE_CONTEXT_BUILDER_OP_TILING_PARSE_CONTEXT_BUILDER_H_
#define OPSNN_HOST_BASE_CONTEXT_BUILDER_OP_TILING_PARSE_CONTEXT_BUILDER_H_

#include "base/context_builder/op_context_builder_base.h"
#include "exe_graph/runtime/tiling_parse_context.h"

namespace gert {
class OpTilingParseContextBuilder : public OpContextBuilderBase<OpTilingParseContextBuilder> {
public:
    OpTilingParseContextBuilder();
    ~OpTilingParseContextBuilder() override;
    OpTilingParseContextBuilder &InputTensorDesc(size_t index, ge::DataType dtype, ge::Format origin_format,
                                                 ge::Format storage_format,
                                                 const gert::ExpandDimsType &expand_dims_type = {});
    OpTilingParseContextBuilder &OutputTensorDesc(size_t index, ge::DataType dtype, ge::Format origin_format,
                                                  ge::Format storage_format,
                                                  const gert::ExpandDimsType &expand_dims_type = {});
    OpTilingParseContextBuilder &CompiledJson(const ge::char_t *compiled_json);
    OpTilingParseContextBuilder &CompiledInfo(const void *compile_info);
    OpTilingParseContextBuilder &PlatformInfo(const void *platform_info);
    ContextHolder<TilingParseContext> Build();
};
}  // namespace gert

#endif  // OPSNN_HOST_BASE_CONTEXT_BUILDER_OP_TILING_PARSE_CONTEXT_BUILDER_H_
