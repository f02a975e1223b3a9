/* opsnn host twin, fallback: aclnn_kernels/contiguous.h (a checkout's common/stub/op_api comes
 * first). The l0 data-movement ops, done on the host at phase 2 (src/opdev/l0_data_ops.cpp). */
#ifndef COMMON_INC_EXTERNAL_ACLNN_KERNELS_CONTIGUOUS_H
#define COMMON_INC_EXTERNAL_ACLNN_KERNELS_CONTIGUOUS_H

#include "opdev/common_types.h"
#include "opdev/op_def.h"

namespace l0op {
/* x itself when its view is contiguous, else a dense copy of the view in the workspace. */
const aclTensor *Contiguous(const aclTensor *x, aclOpExecutor *executor);
/* Copies x (y's shape) into y's view, whatever y's strides; returns y. */
const aclTensor *ViewCopy(const aclTensor *x, const aclTensor *y, aclOpExecutor *executor);
/* x when it is contiguous; else nullptr (no view of it reads as a dense block). */
const aclTensor *PickViewAsContiguous(const aclTensor *x, aclOpExecutor *executor);
/* x's data read through y's view: a ViewCopy. */
const aclTensor *ReViewToOut(const aclTensor *x, const aclTensor *y, aclOpExecutor *executor);
}  // namespace l0op

#endif  // COMMON_INC_EXTERNAL_ACLNN_KERNELS_CONTIGUOUS_H
