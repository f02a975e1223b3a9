/* l0 op of opsnn's test operator: an output of self's shape and dtype, and one AI Core launch. */
#include "demo_scale.h"

#include "opdev/make_op_executor.h"
#include "opdev/op_def.h"
#include "opdev/op_dfx.h"
#include "opdev/op_log.h"

using namespace op;

namespace l0op {
OP_TYPE_REGISTER(DemoScale);

const aclTensor *DemoScale(const aclTensor *self, float alpha, aclOpExecutor *executor) {
    L0_DFX(DemoScale, self, alpha);
    auto out = executor->AllocTensor(self->GetViewShape(), self->GetDataType());
    auto ret = ADD_TO_LAUNCHER_LIST_AICORE(DemoScale, OP_INPUT(self), OP_OUTPUT(out), OP_ATTR(alpha));
    OP_CHECK(ret == ACLNN_SUCCESS, OP_LOGE(ACLNN_ERR_INNER_NULLPTR, "DemoScale launch failed."), return nullptr);
    return out;
}

const aclTensor *DemoScaleInferred(const aclTensor *self, float alpha, aclOpExecutor *executor) {
    L0_DFX(DemoScaleInferred, self, alpha);
    auto out = executor->AllocTensor(self->GetDataType(), Format::FORMAT_ND, Format::FORMAT_ND);
    auto ret = INFER_SHAPE(DemoScale, OP_INPUT(self), OP_OUTPUT(out), OP_ATTR(alpha));
    return ret == ACLNN_SUCCESS ? out : nullptr;
}
}  // namespace l0op
