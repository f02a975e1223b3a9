// opsnn's own test operator: z takes x's shape; x and y must agree.
#include "log/log.h"
#include "register/op_impl_registry.h"

namespace ops {
static ge::graphStatus InferShapeScaleAdd(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, x);
    const gert::Shape *y = context->GetInputShape(1);
    OP_CHECK_NULL_WITH_CONTEXT(context, y);
    gert::Shape *z = context->GetOutputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, z);
    OP_CHECK_IF(*x != *y, OP_LOGE(context, "x and y shapes differ (%zu vs %zu dims)", x->GetDimNum(), y->GetDimNum()),
                return ge::GRAPH_FAILED);
    *z = *x;
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus InferDataTypeScaleAdd(gert::InferDataTypeContext *context)
{
    return context->SetOutputDataType(0, context->GetInputDataType(0));
}

IMPL_OP_INFERSHAPE(OpsnnScaleAdd).InferShape(InferShapeScaleAdd).InferDataType(InferDataTypeScaleAdd);
}  // namespace ops
