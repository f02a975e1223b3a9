/* l0 ReluGrad (C++; op_api/relu_grad.py is the Python twin): a new output of the inferred shape
 * and one AI Core launch whose tiling runs in phase 1. */
#include "relu_grad.h"

#include "opdev/make_op_executor.h"
#include "opdev/op_def.h"
#include "opdev/op_dfx.h"
#include "opdev/op_log.h"

namespace l0op {

OP_TYPE_REGISTER(ReluGrad);

const aclTensor *ReluGrad(const aclTensor *gradOutput, const aclTensor *self, aclOpExecutor *executor) {
    L0_DFX(ReluGrad, gradOutput, self);
    aclTensor *out = executor->AllocTensor(gradOutput->GetViewShape(), gradOutput->GetDataType());
    auto inferred = INFER_SHAPE(ReluGrad, OP_INPUT(gradOutput, self), OP_OUTPUT(out));
    if (inferred != ACLNN_SUCCESS) {
        OP_LOGE(ACLNN_ERR_INNER_INFERSHAPE_ERROR, "ReluGrad: shape inference failed");
        return nullptr;
    }
    auto launched = ADD_TO_LAUNCHER_LIST_AICORE(ReluGrad, OP_INPUT(gradOutput, self), OP_OUTPUT(out));
    if (launched != ACLNN_SUCCESS) {
        OP_LOGE(launched, "ReluGrad: ADD_TO_LAUNCHER_LIST_AICORE failed");
        return nullptr;
    }
    return out;
}

}  // namespace l0op
