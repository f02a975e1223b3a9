/* opsnn's kernel_fp16.h: the name CANN's kernel headers give half (16-bit float) and bfloat16_t. Kernels include it by
 * that name; opsnn declares the whole AscendC surface in kernel_operator.h (docs/cpp-kernels.md). */
#ifndef OPSNN_KERNEL_FP16_H_
#define OPSNN_KERNEL_FP16_H_
#include "kernel_operator.h"
#endif  // OPSNN_KERNEL_FP16_H_
