/* opsnn's kernel_vec_intf.h: the name CANN's kernel headers give the vector instructions. Kernels include it by
 * that name; opsnn declares the whole AscendC surface in kernel_operator.h (docs/cpp-kernels.md). */
#ifndef OPSNN_KERNEL_VEC_INTF_H_
#define OPSNN_KERNEL_VEC_INTF_H_
#include "kernel_operator.h"
#endif  // OPSNN_KERNEL_VEC_INTF_H_
