/* l0 ReluGrad (C++): one launch of the op_kernel on dense, same-shape inputs. */
#ifndef OPSNN_L0_RELU_GRAD_H_
#define OPSNN_L0_RELU_GRAD_H_

#include "opdev/op_executor.h"

namespace l0op {
const aclTensor *ReluGrad(const aclTensor *gradOutput, const aclTensor *self, aclOpExecutor *executor);
}

#endif  // OPSNN_L0_RELU_GRAD_H_
