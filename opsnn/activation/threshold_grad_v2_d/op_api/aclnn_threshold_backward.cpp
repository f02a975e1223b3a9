/* aclnnThresholdBackward in C++ (op_api/aclnn_threshold_backward.py is the Python twin, with the
 * same checks in the same order and the same status codes):
 *   threshold, out, gradOutput, self present (161001); their dtypes supported on this SoC,
 *   gradOutput and out of self's dtype (161002); rank <= 8 (161002); broadcastable, out of the
 *   broadcast shape (161002); empty inputs: workspace 0, nothing launched.
 * Then gradOutput and self are made contiguous and expanded to the broadcast shape (the Atlas A2
 * kernels do not broadcast), |threshold| <= FLT_EPSILON runs ReluGrad, else ThresholdGradV2D,
 * and the result is view-copied into out.
 * The threshold is read once, as float, and travels in this call's executor (no global). */
#include "aclnn_threshold_backward.h"

#include <cfloat>
#include <cmath>

#include "../../relu_grad/op_api/relu_grad.h"
#include "aclnn_kernels/common/op_error_check.h"
#include "aclnn_kernels/contiguous.h"
#include "level0/broadcast_to.h"
#include "opdev/common_types.h"
#include "opdev/data_type_utils.h"
#include "opdev/make_op_executor.h"
#include "opdev/op_dfx.h"
#include "opdev/op_executor.h"
#include "opdev/op_log.h"
#include "opdev/platform.h"
#include "opdev/shape_utils.h"
#include "threshold_grad_v2_d.h"

using namespace op;

namespace {

const std::initializer_list<DataType> kAtlasA2Dtypes = {DataType::DT_FLOAT, DataType::DT_FLOAT16, DataType::DT_BF16,
                                                        DataType::DT_INT32, DataType::DT_INT8,    DataType::DT_UINT8};

constexpr int64_t kMaxDims = 8;  // aclnn tensors have at most 8 dimensions

bool IsReluThreshold(float threshold) { return std::fabs(threshold) <= FLT_EPSILON; }

aclnnStatus CheckParams(const aclTensor *gradOutput, const aclTensor *self, const aclTensor *out, Shape *broadcast) {
    OP_CHECK_NULL(gradOutput, return ACLNN_ERR_PARAM_NULLPTR);
    OP_CHECK_NULL(self, return ACLNN_ERR_PARAM_NULLPTR);
    OP_CHECK_DTYPE_NOT_SUPPORT(gradOutput, kAtlasA2Dtypes, return ACLNN_ERR_PARAM_INVALID);
    OP_CHECK_DTYPE_NOT_SUPPORT(self, kAtlasA2Dtypes, return ACLNN_ERR_PARAM_INVALID);
    OP_CHECK_DTYPE_NOT_MATCH(gradOutput, self->GetDataType(), return ACLNN_ERR_PARAM_INVALID);
    OP_CHECK_DTYPE_NOT_MATCH(out, self->GetDataType(), return ACLNN_ERR_PARAM_INVALID);
    OP_CHECK_MAX_DIM(gradOutput, kMaxDims, return ACLNN_ERR_PARAM_INVALID);
    OP_CHECK_MAX_DIM(self, kMaxDims, return ACLNN_ERR_PARAM_INVALID);
    OP_CHECK_BROADCAST_AND_INFER_SHAPE(gradOutput, self, *broadcast, return ACLNN_ERR_PARAM_INVALID);
    if (*broadcast != out->GetViewShape()) {
        OP_LOGE(ACLNN_ERR_PARAM_INVALID, "out's shape %s is not the broadcast shape %s of gradOutput and self.",
                ToString(out->GetViewShape()).GetString(), ToString(*broadcast).GetString());
        return ACLNN_ERR_PARAM_INVALID;
    }
    return ACLNN_SUCCESS;
}

/* x made dense and, where it is smaller, expanded to `shape`. */
const aclTensor *DenseAt(const aclTensor *x, const Shape &shape, aclOpExecutor *executor) {
    const aclTensor *dense = l0op::Contiguous(x, executor);
    if (dense == nullptr || dense->GetViewShape() == shape) return dense;
    FVector<int64_t> dims;
    for (size_t i = 0; i < shape.GetDimNum(); ++i) dims.push_back(shape.GetDim(i));
    const aclIntArray *target = executor->AllocIntArray(dims.data(), dims.size());
    return target == nullptr ? nullptr : l0op::BroadcastTo(dense, target, executor);
}

}  // namespace

extern "C" {

aclnnStatus aclnnThresholdBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
                                                   const aclScalar *threshold, aclTensor *out,
                                                   uint64_t *workspaceSize, aclOpExecutor **executor) {
    L2_DFX_PHASE_1(aclnnThresholdBackward, DFX_IN(gradOutput, self, threshold), DFX_OUT(out));
    auto uniqueExecutor = CREATE_EXECUTOR();
    CHECK_RET(uniqueExecutor.get() != nullptr, ACLNN_ERR_INNER_CREATE_EXECUTOR);
    OP_CHECK_NULL(threshold, return ACLNN_ERR_PARAM_NULLPTR);
    OP_CHECK_NULL(out, return ACLNN_ERR_PARAM_NULLPTR);
    CHECK_RET(workspaceSize != nullptr, ACLNN_ERR_PARAM_NULLPTR);
    const float thresholdValue = threshold->ToFloat();

    Shape broadcast;
    aclnnStatus checked = CheckParams(gradOutput, self, out, &broadcast);
    CHECK_RET(checked == ACLNN_SUCCESS, checked);

    if (gradOutput->IsEmpty() || self->IsEmpty()) {
        *workspaceSize = 0;
        uniqueExecutor.ReleaseTo(executor);
        return ACLNN_SUCCESS;
    }

    const aclTensor *grad = DenseAt(gradOutput, broadcast, uniqueExecutor.get());
    CHECK_RET(grad != nullptr, ACLNN_ERR_INNER_NULLPTR);
    const aclTensor *feature = DenseAt(self, broadcast, uniqueExecutor.get());
    CHECK_RET(feature != nullptr, ACLNN_ERR_INNER_NULLPTR);
    const aclTensor *result = IsReluThreshold(thresholdValue)
                                  ? l0op::ReluGrad(grad, feature, uniqueExecutor.get())
                                  : l0op::ThresholdGradV2D(grad, feature, thresholdValue, uniqueExecutor.get());
    CHECK_RET(result != nullptr, ACLNN_ERR_INNER_NULLPTR);
    CHECK_RET(l0op::ViewCopy(result, out, uniqueExecutor.get()) != nullptr, ACLNN_ERR_INNER_NULLPTR);

    *workspaceSize = uniqueExecutor->GetWorkspaceSize();
    uniqueExecutor.ReleaseTo(executor);
    return ACLNN_SUCCESS;
}

aclnnStatus aclnnThresholdBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                   aclrtStream stream) {
    L2_DFX_PHASE_2(aclnnThresholdBackward);
    return CommonOpExecutorRun(workspace, workspaceSize, executor, stream);
}

}  // extern "C"
