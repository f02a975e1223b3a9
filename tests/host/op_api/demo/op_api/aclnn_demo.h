/* opsnn's own op_api test operator (not an upstream one): three aclnn APIs in CANN's two-phase
 * style, written against opsnn's host twin as an operator's op_api is written against the toolkit.
 *
 * aclnnDemoCopy(self, out)        out = self, broadcast to out's shape and converted to out's dtype
 *                                 (Contiguous, BroadcastTo, Cast, ViewCopy: host steps only, so it
 *                                 runs end to end with no kernel)
 * aclnnDemoScale(self, alpha, out) out = DemoScale(self, alpha): an AI Core l0 op with no op_host in
 *                                 the program (its launch is recorded, not tiled)
 * aclnnDemoReshape(self, out)     out = self read in row-major order into out's shape (Reshape)
 * aclnnDemoInferGetWorkspaceSize  DemoScale's output shaped by INFER_SHAPE (this program registers no
 *                                 infershape for DemoScale: 561001) */
#ifndef OPSNN_TESTS_HOST_DEMO_ACLNN_DEMO_H_
#define OPSNN_TESTS_HOST_DEMO_ACLNN_DEMO_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnDemoCopyGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                          aclOpExecutor **executor);
aclnnStatus aclnnDemoCopy(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

aclnnStatus aclnnDemoScaleGetWorkspaceSize(const aclTensor *self, const aclScalar *alpha, aclTensor *out,
                                           uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnDemoScale(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

aclnnStatus aclnnDemoReshapeGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                             aclOpExecutor **executor);
aclnnStatus aclnnDemoReshape(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

aclnnStatus aclnnDemoInferGetWorkspaceSize(const aclTensor *self, uint64_t *workspaceSize, aclOpExecutor **executor);

#ifdef __cplusplus
}
#endif

#endif  // OPSNN_TESTS_HOST_DEMO_ACLNN_DEMO_H_
