/* opsnn's kernel_operator_common_intf.h: the name CANN's kernel headers give the common interface. Kernels include it by
 * that name; opsnn declares the whole AscendC surface in kernel_operator.h (docs/cpp-kernels.md). */
#ifndef OPSNN_KERNEL_OPERATOR_COMMON_INTF_H_
#define OPSNN_KERNEL_OPERATOR_COMMON_INTF_H_
#include "kernel_operator.h"
#endif  // OPSNN_KERNEL_OPERATOR_COMMON_INTF_H_
