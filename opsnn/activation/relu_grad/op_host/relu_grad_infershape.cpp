/* ReluGrad's shape and dtype inference in C++: backprops takes gradients' shape and dtype. */
#include "log/log.h"
#include "register/op_impl_registry.h"

namespace ops {

static ge::graphStatus InferShapeReluGrad(gert::InferShapeContext *context) {
    const gert::Shape *gradShape = context->GetInputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, gradShape);
    gert::Shape *outShape = context->GetOutputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, outShape);
    *outShape = *gradShape;
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus InferDataTypeReluGrad(gert::InferDataTypeContext *context) {
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}

IMPL_OP_INFERSHAPE(ReluGrad).InferShape(InferShapeReluGrad).InferDataType(InferDataTypeReluGrad);

}  // namespace ops
