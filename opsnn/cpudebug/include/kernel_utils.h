/* opsnn's kernel_utils.h. Two headers answer to this name: CANN's (part of the kernel API, here
 * kernel_operator.h) and upstream ops-nn's own common/inc/op_kernel/kernel_utils.h (namespace ops:
 * IsSame, Ceil, CeilDiv ...), which its kernels mean when they include it. Both are given: the
 * kernel API, then the next kernel_utils.h on the include path where there is one. */
#ifndef OPSNN_KERNEL_UTILS_H_
#define OPSNN_KERNEL_UTILS_H_
#include "kernel_operator.h"
#endif  // OPSNN_KERNEL_UTILS_H_
#if defined(__has_include_next)
#if __has_include_next("kernel_utils.h")
#include_next "kernel_utils.h"
#endif
#endif
