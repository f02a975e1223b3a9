/* The aclnn APIs of opsnn's test operator (aclnn_demo.h), written as upstream's op_api sources are:
 * CREATE_EXECUTOR, the argument checks (OP_CHECK_*), the l0 ops, GetWorkspaceSize, ReleaseTo. */
#include "aclnn_demo.h"

#include "aclnn_kernels/cast.h"
#include "aclnn_kernels/common/op_error_check.h"
#include "aclnn_kernels/contiguous.h"
#include "aclnn_kernels/reshape.h"
#include "demo_scale.h"
#include "level0/broadcast_to.h"
#include "opdev/common_types.h"
#include "opdev/data_type_utils.h"
#include "opdev/make_op_executor.h"
#include "opdev/op_dfx.h"
#include "opdev/op_executor.h"
#include "opdev/op_log.h"
#include "opdev/platform.h"
#include "opdev/shape_utils.h"

using namespace op;

namespace {
constexpr size_t kMaxDims = 8;

const std::initializer_list<DataType> &CopyDtypes() {
    static const std::initializer_list<DataType> kList = {
        DataType::DT_FLOAT, DataType::DT_FLOAT16, DataType::DT_BF16,  DataType::DT_INT8,  DataType::DT_UINT8,
        DataType::DT_INT16, DataType::DT_INT32,   DataType::DT_INT64, DataType::DT_BOOL,  DataType::DT_DOUBLE,
        DataType::DT_UINT64};
    return kList;
}

/* Ascend950 adds bfloat16 to DemoScale's list: what op_api code gates on the current SoC. */
const std::initializer_list<DataType> &ScaleDtypes() {
    static const std::initializer_list<DataType> kA2 = {DataType::DT_FLOAT, DataType::DT_FLOAT16};
    static const std::initializer_list<DataType> kA5 = {DataType::DT_FLOAT, DataType::DT_FLOAT16, DataType::DT_BF16};
    return GetCurrentPlatformInfo().GetCurNpuArch() == NpuArch::DAV_3510 ? kA5 : kA2;
}
}  // namespace

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnDemoCopyGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                          aclOpExecutor **executor) {
    L2_DFX_PHASE_1(aclnnDemoCopy, DFX_IN(self), DFX_OUT(out));
    auto uniqueExecutor = CREATE_EXECUTOR();
    CHECK_RET(uniqueExecutor.get() != nullptr, ACLNN_ERR_INNER_CREATE_EXECUTOR);
    OP_CHECK_NULL(self, return ACLNN_ERR_PARAM_NULLPTR);
    OP_CHECK_NULL(out, return ACLNN_ERR_PARAM_NULLPTR);
    OP_CHECK_DTYPE_NOT_SUPPORT(self, CopyDtypes(), return ACLNN_ERR_PARAM_INVALID);
    OP_CHECK_DTYPE_NOT_SUPPORT(out, CopyDtypes(), return ACLNN_ERR_PARAM_INVALID);
    OP_CHECK_MAX_DIM(self, kMaxDims, return ACLNN_ERR_PARAM_INVALID);
    OP_CHECK_MAX_DIM(out, kMaxDims, return ACLNN_ERR_PARAM_INVALID);
    op::Shape broadcast;
    OP_CHECK_BROADCAST_AND_INFER_SHAPE(self, out, broadcast, return ACLNN_ERR_PARAM_INVALID);
    OP_CHECK_SHAPE_NOT_EQUAL_WITH_EXPECTED_SIZE(out, broadcast, return ACLNN_ERR_PARAM_INVALID);
    if (self->IsEmpty() || out->IsEmpty()) {
        *workspaceSize = 0;
        uniqueExecutor.ReleaseTo(executor);
        return ACLNN_SUCCESS;
    }
    auto selfContiguous = l0op::Contiguous(self, uniqueExecutor.get());
    CHECK_RET(selfContiguous != nullptr, ACLNN_ERR_INNER_NULLPTR);
    FVector<int64_t> dims = ToShapeVector(out->GetViewShape());
    auto shape = uniqueExecutor->AllocIntArray(dims.data(), dims.size());
    auto broadcasted = l0op::BroadcastTo(selfContiguous, shape, uniqueExecutor.get());
    CHECK_RET(broadcasted != nullptr, ACLNN_ERR_INNER_NULLPTR);
    auto casted = l0op::Cast(broadcasted, out->GetDataType(), uniqueExecutor.get());
    CHECK_RET(casted != nullptr, ACLNN_ERR_INNER_NULLPTR);
    auto copied = l0op::ViewCopy(casted, out, uniqueExecutor.get());
    CHECK_RET(copied != nullptr, ACLNN_ERR_INNER_NULLPTR);
    *workspaceSize = uniqueExecutor->GetWorkspaceSize();
    uniqueExecutor.ReleaseTo(executor);
    return ACLNN_SUCCESS;
}

aclnnStatus aclnnDemoCopy(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream) {
    L2_DFX_PHASE_2(aclnnDemoCopy);
    return CommonOpExecutorRun(workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnDemoScaleGetWorkspaceSize(const aclTensor *self, const aclScalar *alpha, aclTensor *out,
                                           uint64_t *workspaceSize, aclOpExecutor **executor) {
    L2_DFX_PHASE_1(aclnnDemoScale, DFX_IN(self, alpha), DFX_OUT(out));
    auto uniqueExecutor = CREATE_EXECUTOR();
    OP_CHECK_NULL(self, return ACLNN_ERR_PARAM_NULLPTR);
    OP_CHECK_NULL(alpha, return ACLNN_ERR_PARAM_NULLPTR);
    OP_CHECK_NULL(out, return ACLNN_ERR_PARAM_NULLPTR);
    OP_CHECK_DTYPE_NOT_SUPPORT(self, ScaleDtypes(), return ACLNN_ERR_PARAM_INVALID);
    OP_CHECK_DTYPE_NOT_MATCH(out, self->GetDataType(), return ACLNN_ERR_PARAM_INVALID);
    OP_CHECK_SHAPE_NOT_EQUAL(self, out, return ACLNN_ERR_PARAM_INVALID);
    if (self->IsEmpty()) {
        *workspaceSize = 0;
        uniqueExecutor.ReleaseTo(executor);
        return ACLNN_SUCCESS;
    }
    auto selfContiguous = l0op::Contiguous(self, uniqueExecutor.get());
    CHECK_RET(selfContiguous != nullptr, ACLNN_ERR_INNER_NULLPTR);
    auto scaled = l0op::DemoScale(selfContiguous, alpha->ToFloat(), uniqueExecutor.get());
    CHECK_RET(scaled != nullptr, ACLNN_ERR_INNER_NULLPTR);
    auto copied = l0op::ViewCopy(scaled, out, uniqueExecutor.get());
    CHECK_RET(copied != nullptr, ACLNN_ERR_INNER_NULLPTR);
    *workspaceSize = uniqueExecutor->GetWorkspaceSize();
    uniqueExecutor.ReleaseTo(executor);
    return ACLNN_SUCCESS;
}

aclnnStatus aclnnDemoScale(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream) {
    L2_DFX_PHASE_2(aclnnDemoScale);
    return CommonOpExecutorRun(workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnDemoReshapeGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                             aclOpExecutor **executor) {
    L2_DFX_PHASE_1(aclnnDemoReshape, DFX_IN(self), DFX_OUT(out));
    auto uniqueExecutor = CREATE_EXECUTOR();
    OP_CHECK_NULL(self, return ACLNN_ERR_PARAM_NULLPTR);
    OP_CHECK_NULL(out, return ACLNN_ERR_PARAM_NULLPTR);
    OP_CHECK_DTYPE_NOT_MATCH(out, self->GetDataType(), return ACLNN_ERR_PARAM_INVALID);
    auto reshaped = l0op::Reshape(self, out->GetViewShape(), uniqueExecutor.get());
    CHECK_RET(reshaped != nullptr, ACLNN_ERR_PARAM_INVALID);
    auto copied = l0op::ViewCopy(reshaped, out, uniqueExecutor.get());
    CHECK_RET(copied != nullptr, ACLNN_ERR_INNER_NULLPTR);
    *workspaceSize = uniqueExecutor->GetWorkspaceSize();
    uniqueExecutor.ReleaseTo(executor);
    return ACLNN_SUCCESS;
}

aclnnStatus aclnnDemoReshape(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream) {
    L2_DFX_PHASE_2(aclnnDemoReshape);
    return CommonOpExecutorRun(workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnDemoInferGetWorkspaceSize(const aclTensor *self, uint64_t *workspaceSize, aclOpExecutor **executor) {
    L2_DFX_PHASE_1(aclnnDemoInfer, DFX_IN(self), DFX_OUT());
    auto uniqueExecutor = CREATE_EXECUTOR();
    OP_CHECK_NULL(self, return ACLNN_ERR_PARAM_NULLPTR);
    auto shaped = l0op::DemoScaleInferred(self, 1.0f, uniqueExecutor.get());
    CHECK_RET(shaped != nullptr, ACLNN_ERR_INNER_INFERSHAPE_ERROR);
    *workspaceSize = uniqueExecutor->GetWorkspaceSize();
    uniqueExecutor.ReleaseTo(executor);
    return ACLNN_SUCCESS;
}

#ifdef __cplusplus
}
#endif
