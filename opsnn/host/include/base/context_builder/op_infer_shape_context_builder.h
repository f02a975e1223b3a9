/* opsnn host twin: gert::OpInferShapeContextBuilder -- an InferShapeContext from input tensors
 * (the caller keeps them alive) and output descriptions; the output shapes are the holder's. */
#ifndef OPSNN_HOST_BASE_CONTEXT_BUILDER_OP_INFER_SHAPE_CONTEXT_BUILDER_H_
#define OPSNN_HOST_BASE_CONTEXT_BUILDER_OP_INFER_SHAPE_CONTEXT_BUILDER_H_

#include "base/context_builder/op_context_builder_base.h"
#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/runtime_tensor.h"

namespace gert {
class OpInferShapeContextBuilder : public OpContextBuilderBase<OpInferShapeContextBuilder> {
public:
    OpInferShapeContextBuilder();
    ~OpInferShapeContextBuilder() override;
    OpInferShapeContextBuilder &OutputTensorDesc(size_t index, ge::DataType dtype, ge::Format origin_format,
                                                 ge::Format storage_format,
                                                 const gert::ExpandDimsType &expand_dims_type = {});
    OpInferShapeContextBuilder &InputTensors(const std::vector<gert::Tensor *> &inputs);
    ContextHolder<InferShapeContext> Build();
};
}  // namespace gert

#endif  // OPSNN_HOST_BASE_CONTEXT_BUILDER_OP_INFER_SHAPE_CONTEXT_BUILDER_H_
