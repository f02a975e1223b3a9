/* l0 ThresholdGradV2D (C++; op_api/threshold_grad_v2_d.py is the Python twin): a new output of the
 * inferred shape, and one AI Core launch whose tiling runs in phase 1. */
#include "threshold_grad_v2_d.h"

#include "opdev/make_op_executor.h"
#include "opdev/op_def.h"
#include "opdev/op_dfx.h"
#include "opdev/op_log.h"

namespace l0op {

OP_TYPE_REGISTER(ThresholdGradV2D);

const aclTensor *ThresholdGradV2D(const aclTensor *gradOutput, const aclTensor *self, float threshold,
                                  aclOpExecutor *executor) {
    L0_DFX(ThresholdGradV2D, gradOutput, self, threshold);
    aclTensor *out = executor->AllocTensor(gradOutput->GetViewShape(), gradOutput->GetDataType());
    auto inferred = INFER_SHAPE(ThresholdGradV2D, OP_INPUT(gradOutput, self), OP_OUTPUT(out), OP_ATTR(threshold));
    if (inferred != ACLNN_SUCCESS) {
        OP_LOGE(ACLNN_ERR_INNER_INFERSHAPE_ERROR, "ThresholdGradV2D: shape inference failed");
        return nullptr;
    }
    auto launched =
        ADD_TO_LAUNCHER_LIST_AICORE(ThresholdGradV2D, OP_INPUT(gradOutput, self), OP_OUTPUT(out), OP_ATTR(threshold));
    if (launched != ACLNN_SUCCESS) {
        OP_LOGE(launched, "ThresholdGradV2D: ADD_TO_LAUNCHER_LIST_AICORE failed");
        return nullptr;
    }
    return out;
}

}  // namespace l0op
