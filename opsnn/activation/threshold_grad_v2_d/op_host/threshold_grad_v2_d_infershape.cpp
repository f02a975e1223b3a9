/* ThresholdGradV2D's shape and dtype inference in C++ (docs/threshold-grad-v2d.md §3): the output
 * takes input_gradient's shape and dtype (the Atlas A2 kernel never broadcasts: the op_api hands
 * it same-shape inputs). */
#include "log/log.h"
#include "register/op_impl_registry.h"

namespace ops {

static ge::graphStatus InferShapeThresholdGradV2D(gert::InferShapeContext *context) {
    OP_CHECK_IF(context == nullptr, OP_LOGE("ThresholdGradV2D", "the infershape context is null"),
                return ge::GRAPH_FAILED);
    const gert::Shape *gradShape = context->GetInputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, gradShape);
    gert::Shape *outShape = context->GetOutputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, outShape);
    *outShape = *gradShape;
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus InferDataTypeThresholdGradV2D(gert::InferDataTypeContext *context) {
    OP_CHECK_IF(context == nullptr, OP_LOGE("ThresholdGradV2D", "the infer-dtype context is null"),
                return ge::GRAPH_FAILED);
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}

IMPL_OP_INFERSHAPE(ThresholdGradV2D)
    .InferShape(InferShapeThresholdGradV2D)
    .InferDataType(InferDataTypeThresholdGradV2D);

}  // namespace ops
