/* opsnn host twin: opdev/tensor_view_utils.h -- whether a tensor's view is laid out as a dense
 * row-major block (what a kernel can read through one pointer). */
#ifndef OPSNN_HOST_OPDEV_TENSOR_VIEW_UTILS_H_
#define OPSNN_HOST_OPDEV_TENSOR_VIEW_UTILS_H_

#include <initializer_list>

#include "opdev/common_types.h"

namespace op {
/* Row-major strides for the view's shape (dims of length 1 may have any stride); a null tensor
 * counts as contiguous, as CANN's does. */
bool IsContiguous(const aclTensor *tensor);
/* Whether the view reads a dense block of its storage after a permutation of its dims (then a
 * kernel may read it as the storage's contiguous data). */
bool CanPickViewAsContiguous(const aclTensor *tensor);
bool CanPickViewAsContiguous(std::initializer_list<const aclTensor *> tensorList);
/* A view that stays inside its storage. */
bool Validate(const aclTensor *tensor);
}  // namespace op

#endif  // OPSNN_HOST_OPDEV_TENSOR_VIEW_UTILS_H_
