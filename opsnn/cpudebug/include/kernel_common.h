/* opsnn's kernel_common.h: the name CANN's kernel headers give the basic API's common declarations. Kernels include it by
 * that name; opsnn declares the whole AscendC surface in kernel_operator.h (docs/cpp-kernels.md). */
#ifndef OPSNN_KERNEL_COMMON_H_
#define OPSNN_KERNEL_COMMON_H_
#include "kernel_operator.h"
#endif  // OPSNN_KERNEL_COMMON_H_
