/* opsnn host twin, fallback: aclnn_kernels/reshape.h (a checkout's common/stub/op_api comes first). */
#ifndef COMMON_INC_EXTERNAL_ACLNN_KERNELS_RESHAPE_H
#define COMMON_INC_EXTERNAL_ACLNN_KERNELS_RESHAPE_H

#include "opdev/op_def.h"
#include "opdev/shape_utils.h"

namespace l0op {
/* A view of x's data with `shape` (same element count; a non-contiguous x is made contiguous first). */
const aclTensor *Reshape(const aclTensor *x, const op::Shape &shape, aclOpExecutor *executor);
const aclTensor *Reshape(const aclTensor *x, const aclIntArray *shape, aclOpExecutor *executor);
}  // namespace l0op

#endif  // COMMON_INC_EXTERNAL_ACLNN_KERNELS_RESHAPE_H
