/* aclnnThresholdBackward (C++ op_api): out = gradOutput where self > threshold, else 0.
 * The two phases, as every aclnn API has them (docs/threshold-grad-v2d.md §8). */
#ifndef OPSNN_ACLNN_THRESHOLD_BACKWARD_H_
#define OPSNN_ACLNN_THRESHOLD_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnThresholdBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
                                                             const aclScalar *threshold, aclTensor *out,
                                                             uint64_t *workspaceSize, aclOpExecutor **executor);

ACLNN_API aclnnStatus aclnnThresholdBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // OPSNN_ACLNN_THRESHOLD_BACKWARD_H_
