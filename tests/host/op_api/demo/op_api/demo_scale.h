/* l0 op of opsnn's test operator: DemoScale(self, alpha), an AI Core kernel launch. */
#ifndef OPSNN_TESTS_HOST_DEMO_DEMO_SCALE_H_
#define OPSNN_TESTS_HOST_DEMO_DEMO_SCALE_H_

#include "opdev/op_executor.h"

namespace l0op {
const aclTensor *DemoScale(const aclTensor *self, float alpha, aclOpExecutor *executor);
/* DemoScale's output shaped by the op type's registered infershape (INFER_SHAPE); nullptr when it fails. */
const aclTensor *DemoScaleInferred(const aclTensor *self, float alpha, aclOpExecutor *executor);
}

#endif  // OPSNN_TESTS_HOST_DEMO_DEMO_SCALE_H_
