/* opsnn's kernel_tensor.h: the name CANN's kernel headers give GlobalTensor, LocalTensor. Kernels include it by
 * that name; opsnn declares the whole AscendC surface in kernel_operator.h (docs/cpp-kernels.md). */
#ifndef OPSNN_KERNEL_TENSOR_H_
#define OPSNN_KERNEL_TENSOR_H_
#include "kernel_operator.h"
#endif  // OPSNN_KERNEL_TENSOR_H_
