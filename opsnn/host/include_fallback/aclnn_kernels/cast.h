/* opsnn host twin, fallback: aclnn_kernels/cast.h (a checkout's common/stub/op_api comes first). */
#ifndef COMMON_INC_EXTERNAL_ACLNN_KERNELS_CAST_H
#define COMMON_INC_EXTERNAL_ACLNN_KERNELS_CAST_H

#include "opdev/make_op_executor.h"
#include "opdev/op_executor.h"

namespace l0op {
/* self itself when it has dstDtype, else its values converted (the NPU's rules:
 * src/opdev/element_cast.cpp) into a new tensor; nullptr for a pair with no conversion. */
const aclTensor *Cast(const aclTensor *self, op::DataType dstDtype, aclOpExecutor *executor);
}  // namespace l0op

#endif  // COMMON_INC_EXTERNAL_ACLNN_KERNELS_CAST_H
