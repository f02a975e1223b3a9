/* opsnn host twin, fallback: level0/broadcast_to.h (a checkout's common/stub/op_api comes first). */
#ifndef OP_API_INC_LEVEL0_BROADCAST_TO_H
#define OP_API_INC_LEVEL0_BROADCAST_TO_H

#include "opdev/op_def.h"

namespace l0op {
/* x broadcast to the shape held by `shape` (a host int tensor), written into y. */
const aclTensor *BroadcastTo(const aclTensor *x, const aclTensor *y, const aclTensor *shape, aclOpExecutor *executor);
/* x broadcast to `shape`, in a new tensor (x itself when it has that shape). */
const aclTensor *BroadcastTo(const aclTensor *x, const aclIntArray *shape, aclOpExecutor *executor);
}  // namespace l0op

#endif  // OP_API_INC_LEVEL0_BROADCAST_TO_H
