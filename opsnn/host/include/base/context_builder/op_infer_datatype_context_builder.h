/* opsnn host twin: gert::OpInferDataTypeContextBuilder -- an InferDataTypeContext from input
 * descriptions (their data types become the input values) and output formats; the output data
 * types start as DT_MAX ("not set"). */
#ifndef OPSNN_HOST_BASE_CONTEXT_BUILDER_OP_INFER_DATATYPE_CONTEXT_BUILDER_H_
#define OPSNN_HOST_BASE_CONTEXT_BUILDER_OP_INFER_DATATYPE_CONTEXT_BUILDER_H_

#include "base/context_builder/op_context_builder_base.h"
#include "exe_graph/runtime/infer_datatype_context.h"

namespace gert {
class OpInferDataTypeContextBuilder : public OpContextBuilderBase<OpInferDataTypeContextBuilder> {
public:
    OpInferDataTypeContextBuilder();
    ~OpInferDataTypeContextBuilder() override;
    OpInferDataTypeContextBuilder &InputTensorDesc(size_t index, ge::DataType dtype, ge::Format origin_format,
                                                   ge::Format storage_format,
                                                   const gert::ExpandDimsType &expand_dims_type = {});
    OpInferDataTypeContextBuilder &OutputTensorDesc(size_t index, ge::Format origin_format, ge::Format storage_format,
                                                    const gert::ExpandDimsType &expand_dims_type = {});
    ContextHolder<InferDataTypeContext> Build();
};
}  // namespace gert

#endif  // OPSNN_HOST_BASE_CONTEXT_BUILDER_OP_INFER_DATATYPE_CONTEXT_BUILDER_H_
