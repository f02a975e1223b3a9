/* opsnn's basic_api/kernel_basic_intf.h: the name CANN's kernel headers give AscendC's basic API. Kernels include it by
 * that name; opsnn declares the whole AscendC surface in kernel_operator.h (docs/cpp-kernels.md). */
#ifndef OPSNN_BASIC_API_KERNEL_BASIC_INTF_H_
#define OPSNN_BASIC_API_KERNEL_BASIC_INTF_H_
#include "kernel_operator.h"
#endif  // OPSNN_BASIC_API_KERNEL_BASIC_INTF_H_
