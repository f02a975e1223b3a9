/* opsnn host twin, fallback: aclnn_kernels/common/op_error_check.h -- the argument checks op_api
 * code starts with. A developer's ops-nn checkout has its own (common/stub/op_api), which comes
 * first on the include path; this one serves builds without a checkout, with the same macros,
 * the same statuses (a null argument 161001, anything else 161002) and messages of the same sense.
 * Each macro is an `if`, so `retExpr` runs only when the check fails. */
#ifndef OP_ERROR_CHECK_H__
#define OP_ERROR_CHECK_H__

#include <cstdint>

#include "opdev/common_types.h"
#include "opdev/data_type_utils.h"
#include "opdev/op_log.h"
#include "opdev/shape_utils.h"

namespace opsnn_host {
namespace check {
inline const char *KindOf(const aclTensor *) { return "A tensor"; }
inline const char *KindOf(const aclTensorList *) { return "A tensor list"; }
inline const char *KindOf(const aclScalar *) { return "A scalar"; }
inline const char *KindOf(const aclIntArray *) { return "An int array"; }
inline const char *KindOf(const aclBoolArray *) { return "A bool array"; }
inline const char *KindOf(const aclFloatArray *) { return "A float array"; }
}  // namespace check
}  // namespace opsnn_host

/* The checks as functions (code may call them); the macros log at their own call site. */
template <typename T>
inline bool IsNullptr(const T *p, const char *name) {
    if (p != nullptr) {
        return false;
    }
    OP_LOGE(ACLNN_ERR_PARAM_NULLPTR, "%s must not be null, but %s is nullptr.", opsnn_host::check::KindOf(p), name);
    return true;
}

#define OP_CHECK_NULL(param, retExpr)                                                                          \
    if ((param) == nullptr) {                                                                                  \
        OP_LOGE(ACLNN_ERR_PARAM_NULLPTR, "%s must not be null, but %s is nullptr.",                            \
                opsnn_host::check::KindOf(param), #param);                                                     \
        retExpr;                                                                                               \
    }

#define OP_CHECK_DTYPE_NOT_SUPPORT(tensor, supportList, retExpr)                                              \
    if (!::op::CheckType((tensor)->GetDataType(), supportList)) {                                            \
        OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s has dtype %s, which is not supported; supported: %s.", #tensor, \
                ::op::ToString((tensor)->GetDataType()).GetString(), ::op::ToString(supportList).GetString()); \
        retExpr;                                                                                             \
    }

#define OP_CHECK_DTYPE_NOT_MATCH(tensor, expectedDtype, retExpr)                                             \
    if ((tensor)->GetDataType() != (expectedDtype)) {                                                        \
        OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s has dtype %s, but %s is required.", #tensor,                    \
                ::op::ToString((tensor)->GetDataType()).GetString(), ::op::ToString(expectedDtype).GetString()); \
        retExpr;                                                                                             \
    }

#define OP_CHECK_DTYPE_NOT_SAME(tensor1, tensor2, retExpr)                                                   \
    if ((tensor1)->GetDataType() != (tensor2)->GetDataType()) {                                              \
        OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s (%s) and %s (%s) must have the same dtype.", #tensor1,          \
                ::op::ToString((tensor1)->GetDataType()).GetString(), #tensor2,                              \
                ::op::ToString((tensor2)->GetDataType()).GetString());                                       \
        retExpr;                                                                                             \
    }

#define OP_CHECK_RESULT_DTYPE_CAST_FAILED(dtype, desiredDtype, retExpr)                                      \
    ;                                                                                                        \
    if (!::op::CanCast(dtype, desiredDtype)) {                                                               \
        OP_LOGE(ACLNN_ERR_PARAM_INVALID, "The result dtype %s cannot be cast to the output's dtype %s.",     \
                ::op::ToString(dtype).GetString(), ::op::ToString(desiredDtype).GetString());                 \
        retExpr;                                                                                             \
    }

#define OP_CHECK_BROADCAST(tensor1, tensor2, retExpr)                                                        \
    if (!::op::CheckBroadcastShape((tensor1)->GetViewShape(), (tensor2)->GetViewShape())) {                  \
        OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s %s and %s %s do not broadcast together.", #tensor1,             \
                ::op::ToString((tensor1)->GetViewShape()).GetString(), #tensor2,                             \
                ::op::ToString((tensor2)->GetViewShape()).GetString());                                      \
        retExpr;                                                                                             \
    }

#define OP_CHECK_BROADCAST_WITH_SHAPE(tensor, shape, retExpr)                                                \
    if (!::op::CheckBroadcastShape((tensor)->GetViewShape(), shape)) {                                       \
        OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s %s does not broadcast with %s.", #tensor,                       \
                ::op::ToString((tensor)->GetViewShape()).GetString(), ::op::ToString(shape).GetString());     \
        retExpr;                                                                                             \
    }

#define OP_CHECK_BROADCAST_AND_INFER_SHAPE(tensor1, tensor2, retShape, retExpr)                              \
    if (!::op::BroadcastInferShape((tensor1)->GetViewShape(), (tensor2)->GetViewShape(), retShape)) {        \
        OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s %s and %s %s do not broadcast together.", #tensor1,             \
                ::op::ToString((tensor1)->GetViewShape()).GetString(), #tensor2,                             \
                ::op::ToString((tensor2)->GetViewShape()).GetString());                                      \
        retExpr;                                                                                             \
    }

#define OP_CHECK_SHAPE_NOT_EQUAL(tensor1, tensor2, retExpr)                                                  \
    if ((tensor1)->GetViewShape() != (tensor2)->GetViewShape()) {                                            \
        OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s %s and %s %s must have the same shape.", #tensor1,              \
                ::op::ToString((tensor1)->GetViewShape()).GetString(), #tensor2,                             \
                ::op::ToString((tensor2)->GetViewShape()).GetString());                                      \
        retExpr;                                                                                             \
    }

#define OP_CHECK_SHAPE_NOT_EQUAL_WITH_EXPECTED_SIZE(tensor, shape, retExpr)                                  \
    if ((tensor)->GetViewShape() != (shape)) {                                                               \
        OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s has shape %s, but %s is required.", #tensor,                    \
                ::op::ToString((tensor)->GetViewShape()).GetString(), ::op::ToString(shape).GetString());     \
        retExpr;                                                                                             \
    }

#define OP_CHECK_WRONG_DIMENSION(tensor, expectedDimNum, retExpr)                                            \
    if ((tensor)->GetViewShape().GetDimNum() != static_cast<size_t>(expectedDimNum)) {                       \
        OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s must have %zu dimensions, but has shape %s.", #tensor,          \
                static_cast<size_t>(expectedDimNum), ::op::ToString((tensor)->GetViewShape()).GetString());   \
        retExpr;                                                                                             \
    }

#define OP_CHECK_MAX_DIM(tensor, maxDim, retExpr)                                                            \
    if ((tensor)->GetViewShape().GetDimNum() > static_cast<size_t>(maxDim)) {                                \
        OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s has %zu dimensions; at most %zu are supported.", #tensor,       \
                (tensor)->GetViewShape().GetDimNum(), static_cast<size_t>(maxDim));                          \
        retExpr;                                                                                             \
    }

#define OP_CHECK_MIN_DIM(tensor, minDim, retExpr)                                                            \
    if ((tensor)->GetViewShape().GetDimNum() < static_cast<size_t>(minDim)) {                                \
        OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s has %zu dimensions; at least %zu are required.", #tensor,       \
                (tensor)->GetViewShape().GetDimNum(), static_cast<size_t>(minDim));                          \
        retExpr;                                                                                             \
    }

#define OP_CHECK_COMM_INPUT(workspaceSize, executor)                                                         \
    if ((workspaceSize) == nullptr || (executor) == nullptr) {                                               \
        OP_LOGE(ACLNN_ERR_PARAM_NULLPTR, "workspaceSize and executor must not be null.");                    \
        return ACLNN_ERR_PARAM_NULLPTR;                                                                      \
    }

#define OP_CHECK_ADD_TO_LAUNCHER_LIST_AICORE(cond, retExpr, errMsg, ...)                                     \
    if (cond) {                                                                                              \
        OP_LOGE(ACLNN_ERR_INNER_STATIC_WORKSPACE_INVALID, errMsg, ##__VA_ARGS__);                            \
        retExpr;                                                                                             \
    }

#define OP_CHECK_INFERSHAPE(cond, retExpr, errMsg, ...)                                                      \
    if (cond) {                                                                                              \
        OP_LOGE(ACLNN_ERR_INNER_INFERSHAPE_ERROR, errMsg, ##__VA_ARGS__);                                    \
        retExpr;                                                                                             \
    }

#define OP_CHECK_TENSORLIST_SIZE_EQUAL(tensorlist1, tensorlist2, retExpr)                                    \
    if ((tensorlist1)->Size() != (tensorlist2)->Size()) {                                                    \
        OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s (%lu tensors) and %s (%lu tensors) must have as many tensors.", \
                #tensorlist1, static_cast<unsigned long>((tensorlist1)->Size()), #tensorlist2,               \
                static_cast<unsigned long>((tensorlist2)->Size()));                                          \
        retExpr;                                                                                             \
    }

#endif  // OP_ERROR_CHECK_H__
