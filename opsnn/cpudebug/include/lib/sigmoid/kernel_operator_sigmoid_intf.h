/* opsnn's lib/sigmoid/kernel_operator_sigmoid_intf.h: the name CANN gives the high-level Sigmoid's
 * header. Kernels include it by that name; opsnn declares Sigmoid in kernel_operator.h. */
#ifndef OPSNN_LIB_SIGMOID_KERNEL_OPERATOR_SIGMOID_INTF_H_
#define OPSNN_LIB_SIGMOID_KERNEL_OPERATOR_SIGMOID_INTF_H_
#include "kernel_operator.h"
#endif  // OPSNN_LIB_SIGMOID_KERNEL_OPERATOR_SIGMOID_INTF_H_
