/* opsnn host twin: gert::OpInferShapeRangeContextBuilder -- an InferShapeRangeContext from input
 * tensor ranges (the caller's) and output descriptions; the output ranges are the holder's. */
#ifndef OPSNN_HOST_BASE_CONTEXT_BUILDER_OP_INFER_SHAPE_RANGE_CONTEXT_BUILDER_H_
#define OPSNN_HOST_BASE_CONTEXT_BUILDER_OP_INFER_SHAPE_RANGE_CONTEXT_BUILDER_H_

#include "base/context_builder/op_context_builder_base.h"
#include "exe_graph/runtime/infer_shape_range_context.h"
#include "exe_graph/runtime/range.h"
#include "exe_graph/runtime/runtime_tensor.h"

namespace gert {
class OpInferShapeRangeContextBuilder : public OpContextBuilderBase<OpInferShapeRangeContextBuilder> {
public:
    OpInferShapeRangeContextBuilder();
    ~OpInferShapeRangeContextBuilder() override;
    OpInferShapeRangeContextBuilder &OutputTensorDesc(size_t index, ge::DataType dtype, ge::Format origin_format,
                                                      ge::Format storage_format,
                                                      const gert::ExpandDimsType &expand_dims_type = {});
    OpInferShapeRangeContextBuilder &InputTensorsRange(const std::vector<gert::Range<gert::Tensor> *> &inputs);
    ContextHolder<InferShapeRangeContext> Build();
};
}  // namespace gert

#endif  // OPSNN_HOST_BASE_CONTEXT_BUILDER_OP_INFER_SHAPE_RANGE_CONTEXT_BUILDER_H_
