/* opsnn host twin: opdev/fast_vector.h -- op::FVector, the vector type op_api code passes dims,
 * strides and attribute lists in. */
#ifndef OPSNN_HOST_OPDEV_FAST_VECTOR_H_
#define OPSNN_HOST_OPDEV_FAST_VECTOR_H_

#include "opdev/small_vector.h"

namespace op {
template <typename T, size_t N = 8>
using FVector = op::internal::SmallVector<T, N>;
}  // namespace op

#endif  // OPSNN_HOST_OPDEV_FAST_VECTOR_H_
