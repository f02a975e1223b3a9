/* l0 ThresholdGradV2D (C++): one launch of the op_kernel on dense, same-shape inputs. */
#ifndef OPSNN_L0_THRESHOLD_GRAD_V2_D_H_
#define OPSNN_L0_THRESHOLD_GRAD_V2_D_H_

#include "opdev/op_executor.h"

namespace l0op {
const aclTensor *ThresholdGradV2D(const aclTensor *gradOutput, const aclTensor *self, float threshold,
                                  aclOpExecutor *executor);
}

#endif  // OPSNN_L0_THRESHOLD_GRAD_V2_D_H_
